/**
 * `GET /web/health` (Odoo's load-balancer probe, `{"status": "pass"}`): whether the upstream
 * answers at all, and is Odoo (its answer is Odoo's `{"status": "pass"}`, not any 200), for the admin port's `/readyz`. The probe has
 * connections of its own, outside the legacy-call pool: slow calls filling that pool must not make a replica look unready.
 */
import type { Config } from '../config.ts';
import { forwardedHeaders } from './forwarded-headers.ts';
import { createUpstreamPool } from './pool.ts';
import { errorFromTransport, upstreamError } from './errors/index.ts';

/** The probe and its own connections. */
export interface HealthCheck {
  /** Resolves when the upstream answers 200; rejects with a LegacyError (unreachable, timeout, other status). Aborted by `signal`. */
  check(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** Probes run seconds apart; two connections let one start while a timed-out one is still closing. */
const probeConnections = 2;

/** Creates the probe. `signal` bounds it whole, from the moment `check` is called (connecting included). */
export function createHealthCheck(config: Config): HealthCheck {
  const { pool, prefix, url } = createUpstreamPool(config, probeConnections);
  const headers = forwardedHeaders(config, { host: '', ip: '127.0.0.1', proto: 'http', userAgent: '', requestId: 'readyz' }, undefined);
  return {
    async check(signal) {
      const started = performance.now();
      let status: number;
      let text: string;
      try {
        const res = await pool.request({ method: 'GET', path: `${prefix}/web/health`, headers, signal });
        status = res.statusCode;
        // Odoo's answer is a few bytes; anything longer is not it (read no more than that)
        text = status === 200 ? await readAtMost(res.body, 4096) : (await res.body.dump(), '');
      } catch (err) {
        throw errorFromTransport(err, url, performance.now() - started, signal.aborted);
      }
      if (status !== 200)
        throw upstreamError('upstream_invalid', `upstream /web/health answered ${status}`, url, performance.now() - started);
      if (!isOdooHealth(text))
        throw upstreamError(
          'upstream_invalid',
          `upstream /web/health answered 200 with something other than Odoo's {"status": "pass"} (${JSON.stringify(text.slice(0, 60))}): is --upstream an Odoo?`,
          url,
          performance.now() - started,
        );
    },
    close: () => pool.close(),
  };
}

/** Odoo's health answer: a JSON object whose `status` is `pass` (`web/controllers/home.py` `health`). */
export function isOdooHealth(text: string): boolean {
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'pass';
  } catch {
    return false;
  }
}

/** The body as text, at most `max` bytes of it (the rest is dropped). */
async function readAtMost(body: AsyncIterable<Buffer | Uint8Array> & { destroy?(): void }, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.length;
    if (size > max) {
      body.destroy?.();
      break;
    }
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .slice(0, max + 1);
}
