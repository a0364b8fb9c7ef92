/**
 * The hop's own clock: `bench/latency-probe.mjs`, preloaded into a Node hop, times each request it
 * answers from Node's and undici's diagnostics channels. This side starts hops with it and reads
 * what it measured (bench:profile --latency, bench:odoo).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';

/** The probe, for `node --import`. */
export const latencyProbe = new URL('latency-probe.mjs', import.meta.url).href;

/** One request through a hop, in ms of its clock: head parsed, upstream head written, upstream answer complete, answer leaving. */
export interface HopTimes {
  in: number;
  sent: number;
  done: number;
  out: number;
}

/** The environment a probed hop runs with: the probe writes its rows to `file`. */
export function probeEnv(file: string): NodeJS.ProcessEnv {
  return { ...process.env, LATENCY_PROBE_FILE: file };
}

/** The rows the probe in process `pid` holds now (requests with no upstream exchange, `/livez`, left out). */
export async function probedRows(pid: number, file: string): Promise<HopTimes[]> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 50)); // written in one call: give it time to finish
  const rows = JSON.parse(readFileSync(file, 'utf8')) as Partial<HopTimes>[];
  return rows.filter((row): row is HopTimes => row.sent !== undefined && row.done !== undefined && row.out !== undefined);
}

/** The hop's own time in a request: before the upstream request leaves, and after the upstream's last byte. */
export const ownTime = (r: HopTimes): number => r.sent - r.in + (r.out - r.done);
