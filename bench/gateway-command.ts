import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The node flags a checkout's `npm start` runs its gateway with (`node --no-memory-reducer
 * dist/src/main.js` gives the flag), so a benchmark runs each build, this one or a `--vs-dir` one,
 * as that build's own `npm start` and image do.
 */
export function startFlags(dir: string): string[] {
  const start = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: { start?: string } }).scripts?.start ?? '';
  const words = start.split(/\s+/);
  const from = words.indexOf('node');
  const to = words.indexOf('dist/src/main.js');
  return from >= 0 && to > from ? words.slice(from + 1, to) : [];
}

/**
 * The arguments after `node` that start a benchmark's gateway: `nodeFlags`, the compiled gateway in
 * front of `upstream` on `port`, its admin port on any free one, then `extra` gateway settings.
 */
export function gatewayArgs(nodeFlags: string[], upstream: string, port: number, extra: string[] = []): string[] {
  return [...nodeFlags, 'dist/src/main.js', '--upstream', upstream, '--port', String(port), '--admin-port', '0', ...extra];
}
