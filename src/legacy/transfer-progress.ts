/**
 * Progress lines for long `db` transfers (dumps and restores can take minutes): the bytes so far,
 * every few seconds, then once at the end. Never the database name or any other argument.
 */
import type { Logger } from '../log.ts';

/** Default seconds between two progress lines. */
export const defaultProgressIntervalMs = 5_000;

/** Where and how often to log. */
export interface ProgressOptions {
  log: Logger;
  requestId: string;
  /** `dump` or `restore`. */
  operation: string;
  intervalMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

/** Passes `source` through, logging the bytes read every `intervalMs` and when it ends. */
export async function* withProgress(source: AsyncIterable<Uint8Array>, options: ProgressOptions): AsyncGenerator<Uint8Array> {
  const { log, requestId, operation, intervalMs = defaultProgressIntervalMs, now = Date.now } = options;
  const started = now();
  let last = started;
  let bytes = 0;
  for await (const chunk of source) {
    bytes += chunk.byteLength;
    const at = now();
    if (at - last >= intervalMs) {
      last = at;
      log.info({ requestId, operation, bytes, elapsedMs: at - started }, 'db transfer in progress');
    }
    yield chunk;
  }
  log.info({ requestId, operation, bytes, elapsedMs: now() - started }, 'db transfer done');
}

/**
 * Logs that `task` (an upload the HTTP client sends by itself) is still running every `intervalMs`
 * until it settles, with the size being sent.
 */
export async function whileRunning<T>(task: Promise<T>, bytes: number, options: ProgressOptions): Promise<T> {
  const { log, requestId, operation, intervalMs = defaultProgressIntervalMs, now = Date.now } = options;
  const started = now();
  const timer = setInterval(
    () => log.info({ requestId, operation, bytes, elapsedMs: now() - started }, 'db transfer in progress'),
    intervalMs,
  );
  timer.unref();
  try {
    return await task;
  } finally {
    clearInterval(timer);
  }
}
