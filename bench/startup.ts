/**
 * `npx tsx bench/startup.ts [--runs N] [--vs DIR] [--settle MS]`: how long the compiled gateway
 * (`node dist/src/main.js`, as deployed) takes from process start to listening, and its resident
 * memory once idle. Nothing here is a test assertion; the machine is shared, so with `--vs DIR` (a
 * second checkout with its own `dist/`, e.g. the commit before a change) the two builds start in
 * turn, A B A B …, and the ratio is taken pair by pair.
 *
 * Per run: spawn → the "legacy-rpc-gateway listening" log line on stdout (both ports bound) is the
 * start-up time, and the process's CPU time then (utime + stime, /proc/<pid>/stat) its cost, which a
 * busy machine stretches less than the wall time; `--settle` ms later (default 2000) VmRSS from /proc/<pid>/status is the idle RSS;
 * then SIGTERM. The upstream is a loopback port nobody listens on: with no --service-key the
 * gateway does not contact it before the first call. Build first (`npm run build`, in both checkouts).
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from './free-port.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    vs: { type: 'string' },
    settle: { type: 'string', default: '2000' },
  },
});
const runs = Number(values.runs);
const settleMs = Number(values.settle);
const here = resolve(new URL('..', import.meta.url).pathname);

interface Run {
  startMs: number;
  /** utime + stime of the process when it listened: what start-up costs, less sensitive to a busy machine. */
  cpuMs: number;
  rssMiB: number;
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

function cpuMsOf(pid: number): number {
  // fields after the ")" of the command name: state is field 3, utime 14, stime 15
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

function vmRssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) / 1024;
}

async function startOnce(dir: string, upstreamPort: number): Promise<Run> {
  const args = [
    `${dir}/dist/src/main.js`,
    '--upstream',
    `http://127.0.0.1:${upstreamPort}`,
    '--port',
    '0',
    '--admin-port',
    '0',
    '--log-format',
    'json',
    '--log-level',
    'info',
  ];
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  let cpuMs = NaN;
  const startMs = await new Promise<number>((ok, fail) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      if (buffer.includes('"legacy-rpc-gateway listening"')) {
        ok(Number(process.hrtime.bigint() - started) / 1e6);
        cpuMs = cpuMsOf(child.pid as number);
      }
    });
    void exited.then(() => fail(new Error(`${dir}: the gateway exited before it listened`)));
  });
  await new Promise((r) => setTimeout(r, settleMs));
  const rssMiB = vmRssMiB(child.pid as number);
  child.kill('SIGTERM');
  await exited;
  return { startMs, cpuMs, rssMiB };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const spread = (xs: number[], digits: number) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

async function main(): Promise<void> {
  const dirs = values.vs === undefined ? [here] : [here, resolve(values.vs)];
  for (const dir of dirs)
    if (!existsSync(`${dir}/dist/src/main.js`)) throw new Error(`${dir}/dist/src/main.js is missing: run npm run build there`);
  const upstreamPort = await freePort();
  const results = dirs.map((): Run[] => []);
  await Promise.all(dirs.map((dir) => startOnce(dir, upstreamPort))); // warm-up (file cache), not counted
  for (let i = 0; i < runs; i++) {
    for (const [n, dir] of dirs.entries()) results[n]!.push(await startOnce(dir, upstreamPort));
  }
  const lines = [
    `${runs} runs each${dirs.length > 1 ? ', interleaved' : ''}; median (min–max); idle RSS ${settleMs} ms after listening.`,
    '',
    '| build | start → listening ms | CPU ms to listening | idle VmRSS MiB |',
    '|---|---|---|---|',
    ...dirs.map(
      (dir, n) =>
        `| ${n === 0 ? 'A' : 'B'}: ${dir} | ${spread(
          results[n]!.map((r) => r.startMs),
          0,
        )} | ${spread(
          results[n]!.map((r) => r.cpuMs),
          0,
        )} | ${spread(
          results[n]!.map((r) => r.rssMiB),
          1,
        )} |`,
    ),
  ];
  if (dirs.length > 1) {
    const [a, b] = results as [Run[], Run[]];
    const ratio = (f: (r: Run) => number) => a.map((r, i) => f(r) / f(b[i]!));
    lines.push(
      '',
      `A ÷ B, pair by pair: start-up ${spread(
        ratio((r) => r.startMs),
        3,
      )}, CPU ${spread(
        ratio((r) => r.cpuMs),
        3,
      )}, idle RSS ${spread(
        ratio((r) => r.rssMiB),
        3,
      )}; ` +
        `A − B medians: ${(median(a.map((r) => r.startMs)) - median(b.map((r) => r.startMs))).toFixed(0)} ms, ` +
        `${(median(a.map((r) => r.cpuMs)) - median(b.map((r) => r.cpuMs))).toFixed(0)} CPU ms, ` +
        `${(median(a.map((r) => r.rssMiB)) - median(b.map((r) => r.rssMiB))).toFixed(1)} MiB`,
    );
  }
  console.log(lines.join('\n'));
}

await main();
