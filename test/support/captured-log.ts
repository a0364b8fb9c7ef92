/** A pino logger (the gateway's own, with its redaction) whose JSON lines a test can read back. */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log.ts';

export interface CapturedLog {
  log: Logger;
  /** Every line written so far, parsed. */
  lines: Record<string, unknown>[];
  /** The lines whose `msg` starts with `prefix`. */
  matching(prefix: string): Record<string, unknown>[];
}

/** Creates a logger at `level` that keeps its lines in memory. */
export function captureLog(level = 'info'): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return {
    log: createLogger(level, out),
    lines,
    matching: (prefix) => lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith(prefix)),
  };
}
