/**
 * `npm run bench:profile`: where the gateway's CPU goes. Starts the simulator and the
 * gateway (`node --cpu-prof dist/src/main.js`) in their own processes, sends `--calls` XML-RPC
 * `search_read` calls of `--rows` rows at `--concurrency`, stops the gateway (the profile is written
 * at exit) and prints the gateway's process CPU per call (all threads, /proc), its time by part of
 * the call (each sample charged to the first frame up its stack that belongs to a part), and self
 * time by function and by source file, the top `--top` of each.
 *
 * `--closing-delay MS` puts bench/closing-upstream.ts between the gateway and the simulator: an
 * upstream that closes every connection and takes MS ms per answer, as a real Odoo does, so the
 * gateway pays a connection per call and idles between calls at concurrency 1 (issue #41).
 * `--vs-dir DIR` profiles the build in another checkout instead (before/after a change).
 *
 * `--perf` samples with Linux `perf` (`perf record -e cpu-clock -g`, all the gateway's threads, kernel
 * included) instead of V8's profiler: only time on a CPU is counted, where V8's profiler samples the
 * main thread's wall time and so charges the waits after each socket write to `writev` on a busy
 * machine (issue #41). The gateway then runs with `--perf-basic-prof --interpreted-frames-native-stack`,
 * so JavaScript frames carry their file, interpreted ones included. Needs `perf` (Debian's
 * `linux-perf`) and root or `kernel.perf_event_paranoid` ≤ 1.
 *
 * `--warm-up N` (default 1,000) calls are answered before anything is measured, so the figures are
 * V8's optimized code, as in steady use (bench:odoo does the same).
 *
 * `--odoo URL [--db gw]` puts a real Odoo (its admin/admin user, uid 2) where the simulator was, e.g. the
 * one `odoo19-up.sh` brings up: it closes every connection itself.
 *
 * `--latency` times the way of each call instead of sampling it: the gateway and the bare Node relay
 * (`bench/node-hops.ts http-undici`, the same `search_read` as JSON-2) both run with
 * `bench/latency-probe.mjs`, take turns call by call, and the table gives, per hop, the time from the
 * request's head to the upstream request's, the upstream's answer, and the time from the upstream's
 * last byte to the answer leaving: the gateway's own latency beside the relay's (issue #41).
 *
 *   npm run bench:profile -- [--rows 1] [--calls 20000] [--concurrency 16] [--top 40] [--dir /tmp/gateway-prof]
 *                            [--closing-delay MS] [--vs-dir DIR] [--log-level warn] [--perf] [--warm-up N] [--latency]
 *                            [--odoo URL [--db NAME]]
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { freePort } from './free-port.ts';
import { latencyProbe, ownTime, probedRows, probeEnv, type HopTimes } from './hop-clock.ts';
import { mintOdooKey } from './odoo-key.ts';
import { gatewayArgs, startFlags } from './gateway-command.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1' },
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '16' },
    top: { type: 'string', default: '40' },
    dir: { type: 'string', default: '/tmp/gateway-prof' },
    'no-build': { type: 'boolean', default: false },
    'closing-delay': { type: 'string' },
    'vs-dir': { type: 'string' },
    // the gateway's own default is `info` (an access-log line per call), as bench:odoo runs it
    'log-level': { type: 'string', default: 'warn' },
    perf: { type: 'boolean', default: false },
    latency: { type: 'boolean', default: false },
    // a real Odoo instead of the simulator (its admin/admin user, uid 2, in --db), e.g. odoo19-up.sh's
    odoo: { type: 'string' },
    db: { type: 'string' },
    'warm-up': { type: 'string', default: '1000' },
    // extra node flags for the gateway (e.g. --node-arg=--trace-deopt; its stdout is kept in --dir)
    'node-arg': { type: 'string', multiple: true, default: [] },
  },
});
const root = new URL('..', import.meta.url);
const odoo = values.odoo?.replace(/\/+$/, '');
const db = values.db ?? (odoo === undefined ? 'demo' : 'gw');
const gatewayDir = values['vs-dir'] ?? root.pathname;
const fields = ['id', 'name', 'email', 'country_id', 'is_company'];

/** User + system CPU of a whole process (all its threads: GC helpers included), in clock ticks. */
function processTicks(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
}
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/**
 * The parts of a call, in the order a sample's stack is searched from its leaf up: the first frame
 * that matches names the part (a socket write under undici is undici's, one under the response's
 * `end` is the HTTP server's).
 */
const parts: [string, RegExp][] = [
  ['access log (pino)', /node_modules\/(pino|sonic-boom|@pinojs)\/|src\/server\/access-log/],
  ['metrics (prom-client)', /prom-client|src\/metrics\//],
  ['migration report', /src\/report\//],
  ['tracing hooks', /src\/tracing\/|@opentelemetry/],
  ['credentials (keys, throttle, HMAC)', /src\/credentials\/|src\/state\//],
  ['binding (signatures)', /src\/signatures\/|src\/python\//],
  ['request decode (XML-RPC)', /src\/wire\/xmlrpc\/(expat|decode|unmarshal|xml-text|base64|datetime|decimal|charset)/],
  ['answer decode + encode (JSON to XML-RPC)', /src\/json\/|src\/wire\/xmlrpc\/(encode|json-transcoder|xml-escape)|src\/wire\/response/],
  ['dispatch (object service, work shares)', /src\/legacy\/|src\/upstream\/(work-shares|json2|upstream-shares)/],
  ['undici request and connection', /node_modules\/undici\/|src\/upstream\/|bench\/closing/],
  [
    'HTTP server and body (node:http, hono)',
    /node_modules\/(hono|@hono)\/|src\/server\/|node:_http_server|node:_http_outgoing|node:_http_incoming/,
  ],
  ['timers and microtasks', /node:internal\/timers|^processTicksAndRejections$|^runMicrotasks$/],
  // V8's profiler names it; under perf, the collector's own C++ frames (helper threads included)
  [
    'GC',
    /^\(garbage collector\)$|v8::internal::(Heap|Scaveng|MarkCompact|MinorMarkSweep|MinorMC|Sweeper|Concurrent|Marking|IncrementalMarking|MemoryAllocator|GCTracer)/,
  ],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The simulator, its URL and its admin's key (database `demo`). */
async function startSimulator(): Promise<{ sim: ReturnType<typeof spawn>; url: string; key: string }> {
  const sim = spawn(process.execPath, ['dist/sim/main.js', '--port', '0', '--generated-partners', '20000', '--log-limit', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let line = '';
  for await (const chunk of sim.stdout as AsyncIterable<Buffer>) {
    line += chunk.toString();
    if (line.includes('\n')) break;
  }
  const info = JSON.parse(line.split('\n')[0] as string) as { url: string; users: Record<string, { login: string; key: string }[]> };
  return { sim, url: info.url, key: (info.users.demo ?? []).find((u) => u.login === 'admin')?.key as string };
}

async function main(): Promise<void> {
  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(values.dir, { recursive: true, force: true });
  mkdirSync(values.dir, { recursive: true });
  const {
    sim,
    url: simUrl,
    key,
  } = odoo === undefined ? await startSimulator() : { sim: undefined, url: odoo, key: await mintOdooKey(odoo, db) };
  const port = await freePort();
  // an upstream that closes every connection, as Odoo does, between the gateway and the simulator
  let upstream = simUrl;
  let double: ReturnType<typeof spawn> | undefined;
  if (values['closing-delay'] !== undefined && sim !== undefined) {
    const dport = await freePort();
    double = spawn(process.execPath, ['--import', 'tsx', 'bench/closing-upstream.ts', simUrl, String(dport), values['closing-delay']], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    upstream = `http://127.0.0.1:${dport}`;
    for (let i = 0; i < 300; i++) {
      if (
        await fetch(`${upstream}/web/version`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const profiler = values.latency
    ? ['--import', latencyProbe]
    : values.perf
      ? // V8's own log goes into --dir, not the gateway's working directory
        ['--perf-basic-prof', '--interpreted-frames-native-stack', '--no-logfile-per-isolate', `--logfile=${values.dir}/v8.log`]
      : ['--cpu-prof', '--cpu-prof-dir', values.dir];
  const gw = spawn(
    process.execPath,
    gatewayArgs([...profiler, ...startFlags(gatewayDir), ...values['node-arg']], upstream, port, ['--log-level', values['log-level']]),
    {
      cwd: gatewayDir,
      stdio: ['ignore', openSync(`${values.dir}/gateway.out`, 'w'), 'inherit'],
      env: probeEnv(`${values.dir}/gateway-latency.json`),
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${url}/livez`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const v = (x: string) => `<value><string>${x}</string></value>\n`;
  const body =
    "<?xml version='1.0'?>\n<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n" +
    [
      v(db),
      '<value><int>2</int></value>\n',
      v(key),
      v('res.partner'),
      v('search_read'),
      '<value><array><data>\n<value><array><data>\n</data></array></value>\n</data></array></value>\n',
      `<value><struct>\n<member>\n<name>fields</name>\n<value><array><data>\n${fields.map(v).join('')}</data></array></value>\n</member>\n<member>\n<name>limit</name>\n<value><int>${Number(values.rows)}</int></value>\n</member>\n</struct></value>\n`,
    ]
      .map((p) => `<param>\n${p}</param>\n`)
      .join('') +
    '</params>\n</methodCall>\n';
  if (values.latency) {
    await latencyRun(url, body, upstream, key, gw);
    sim?.kill('SIGTERM');
    double?.kill('SIGTERM');
    return;
  }
  const pool = new Pool(url, { connections: Number(values.concurrency) });
  const one = xmlCall(pool, body);
  let next = 0;
  const calls = Number(values.calls);
  // warm-up: key, signature, connections, and V8's optimized code
  for (let i = 0; i < Number(values['warm-up']); i++) await one();
  const recorder = values.perf ? await startPerf(gw.pid!) : undefined;
  const outFrom = statSync(`${values.dir}/gateway.out`).size;
  const ticksBefore = processTicks(gw.pid!);
  // V8's profile timestamps are CLOCK_MONOTONIC µs, as hrtime is in every process: the window of the
  // measured calls, so start-up and warm-up stay out of the table by part
  const windowStart = Number(process.hrtime.bigint() / 1000n);
  const t = performance.now();
  await Promise.all(
    Array.from({ length: Number(values.concurrency) }, async () => {
      while (next++ < calls) await one();
    }),
  );
  const cpuPerCall = ((processTicks(gw.pid!) - ticksBefore) / clockTicks / calls) * 1e6;
  const windowEnd = Number(process.hrtime.bigint() / 1000n);
  console.log(
    `${calls} calls of ${values.rows} rows at concurrency ${values.concurrency}${double ? `, upstream closing every connection, ${values['closing-delay']} ms per answer` : ''} in ${(performance.now() - t).toFixed(0)} ms; gateway process CPU (all threads) ${cpuPerCall.toFixed(0)} µs per call; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  await recorder?.stop();
  console.log(
    `gateway stdout: ${values.dir}/gateway.out, the measured calls' bytes ${outFrom}–${statSync(`${values.dir}/gateway.out`).size}`,
  );
  await pool.close();
  gw.kill('SIGTERM');
  await once(gw, 'exit');
  sim?.kill('SIGTERM');
  double?.kill('SIGTERM');
  if (recorder !== undefined) {
    printPerfProfile(gw.pid!, calls, cpuPerCall);
    return;
  }

  const file = readdirSync(values.dir).find((n) => n.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error('no profile written');
  const prof = JSON.parse(readFileSync(`${values.dir}/${file}`, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const partOf = (id: number): string => {
    for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur)) {
      const { functionName, url: src } = (byId.get(cur) as ProfileNode).callFrame;
      const where = src || functionName;
      const hit = parts.find(([, re]) => re.test(where));
      if (hit) return hit[0];
    }
    return 'other (Node internals)';
  };
  const self = new Map<number, number>();
  let at = prof.startTime;
  prof.samples.forEach((id, i) => {
    at += prof.timeDeltas[i] ?? 0;
    if (at >= windowStart && at <= windowEnd) self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self]
    .filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)?.callFrame.functionName ?? ''))
    .reduce((a, [, t]) => a + t, 0);
  const fn = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url: src, lineNumber } = (byId.get(id) as ProfileNode).callFrame;
    const where = src.replace(/^file:\/\/.*?\/(dist|node_modules)\//, '$1/');
    const fkey = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    fn.set(fkey, (fn.get(fkey) ?? 0) + us);
    const group = where.startsWith('node_modules/')
      ? where
          .split('/')
          .slice(0, where.split('/')[1]?.startsWith('@') ? 3 : 2)
          .join('/')
      : where || functionName;
    files.set(group, (files.get(group) ?? 0) + us);
  }
  const busy = total - idle;
  const show = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(values.top))
      .map(([k, us]) => `${((us / busy) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`)
      .join('\n');
  console.log(
    `measured calls only: busy ${(busy / 1000).toFixed(0)} ms (of ${(total / 1000).toFixed(0)} ms sampled), ${(busy / calls).toFixed(0)} µs per call (main-thread wall time while not idle: on a loaded machine it counts the time the thread waited for a core); % of busy time\n`,
  );
  const byPart = new Map<string, number>();
  for (const [id, us] of self) {
    const name = (byId.get(id) as ProfileNode).callFrame.functionName;
    if (name === '(idle)' || name === '(program)') continue;
    const part = partOf(id);
    byPart.set(part, (byPart.get(part) ?? 0) + us);
  }
  // the sampled busy time is wall time of the main thread (a thread descheduled in a syscall is still
  // sampled there); the shares are scaled to the process CPU measured from /proc
  console.log('By part (share of sampled busy time; µs per call = share × process CPU per call):');
  console.log('| part | share | µs per call |\n|---|---:|---:|');
  for (const [k, us] of [...byPart].sort((a, b) => b[1] - a[1]))
    console.log(`| ${k} | ${((us / busy) * 100).toFixed(1)} % | ${((us / busy) * cpuPerCall).toFixed(0)} |`);
  console.log(`\nBy file:\n${show(files)}\n\nBy function:\n${show(fn)}`);
}

/**
 * `--latency`: the gateway (already running with the probe) and the bare Node relay in front of the
 * same upstream, one call each in turn at concurrency 1, then each hop's segments (latency-probe.mjs).
 */
async function latencyRun(url: string, xml: string, upstream: string, key: string, gw: ReturnType<typeof spawn>): Promise<void> {
  const relayPort = await freePort();
  const relay = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', latencyProbe, 'bench/node-hops.ts', 'http-undici', new URL(upstream).port, String(relayPort)],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: probeEnv(`${values.dir}/relay-latency.json`) },
  );
  const relayUrl = `http://127.0.0.1:${relayPort}`;
  const json = JSON.stringify({ domain: [], fields, limit: Number(values.rows) });
  const relayPool = new Pool(relayUrl, { connections: 1 });
  const calls: Record<'gateway' | 'relay', () => Promise<void>> = {
    gateway: xmlCall(new Pool(url, { connections: 1 }), xml),
    relay: async () => {
      const r = await relayPool.request({
        method: 'POST',
        path: '/json/2/res.partner/search_read',
        headers: { 'content-type': 'application/json', authorization: `bearer ${key}`, 'x-odoo-database': db },
        body: json,
      });
      const text = await r.body.text();
      if (r.statusCode !== 200) throw new Error(`relay: HTTP ${r.statusCode}: ${text.slice(0, 300)}`);
    },
  };
  for (let i = 0; i < 600; i++) {
    if (
      await calls.relay().then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const hops = [
    ['gateway', gw],
    ['relay', relay],
  ] as const;
  for (let i = 0; i < Number(values['warm-up']); i++) for (const [name] of hops) await calls[name]();
  // each hop's rows so far are the warm-up's: the measured ones are those after
  const latencyRows = (name: string, child: ReturnType<typeof spawn>) => probedRows(child.pid!, `${values.dir}/${name}-latency.json`);
  const warm = await Promise.all(hops.map(([name, child]) => latencyRows(name, child)));
  for (let i = 0; i < Number(values.calls); i++) for (const [name] of hops) await calls[name]();
  const rows = await Promise.all(hops.map(([name, child], i) => latencyRows(name, child).then((all) => all.slice(warm[i]!.length))));
  relay.kill('SIGTERM');
  gw.kill('SIGTERM');
  await once(gw, 'exit');
  const segments: [string, (r: HopTimes) => number][] = [
    ['request head → upstream request sent', (r) => r.sent - r.in],
    ["upstream's answer (sent → last byte)", (r) => r.done - r.sent],
    ["upstream's last byte → answer leaves", (r) => r.out - r.done],
    ['in the hop (the two of its own)', ownTime],
  ];
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
  const [g, r] = rows as [HopTimes[], HopTimes[]];
  console.log(
    `\n${g.length} / ${r.length} calls of ${values.rows} rows through the gateway / the bare Node relay (http-undici), taking turns at concurrency 1; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}\n`,
  );
  console.log('| segment (µs) | gateway p50 | relay p50 | gateway − relay | gateway p90 | relay p90 |\n|---|---:|---:|---:|---:|---:|');
  for (const [name, of] of segments) {
    const [gp50, rp50, gp90, rp90] = [pct(g.map(of), 0.5), pct(r.map(of), 0.5), pct(g.map(of), 0.9), pct(r.map(of), 0.9)].map(
      (x) => x * 1000,
    );
    console.log(
      `| ${name} | ${gp50!.toFixed(0)} | ${rp50!.toFixed(0)} | ${(gp50! - rp50!).toFixed(0)} | ${gp90!.toFixed(0)} | ${rp90!.toFixed(0)} |`,
    );
  }
}

/** One XML-RPC call on `pool`; a fault throws. */
function xmlCall(pool: Pool, body: string): () => Promise<void> {
  return async () => {
    const r = await pool.request({ method: 'POST', path: '/xmlrpc/2/object', headers: { 'content-type': 'text/xml' }, body });
    const text = await r.body.text();
    if (text.includes('<fault>')) throw new Error(text.slice(0, 300));
  };
}

/** `perf record` on the gateway's threads, from now until `stop()`. */
async function startPerf(pid: number): Promise<{ stop: () => Promise<void> }> {
  const rec = spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-F', '1999', '-g', '-p', String(pid), '-o', `${values.dir}/perf.data`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await new Promise((r) => setTimeout(r, 500)); // perf attaches to every thread before the window opens
  if (rec.exitCode !== null) throw new Error('perf record failed to start (is linux-perf installed, and are we root?)');
  return {
    async stop() {
      rec.kill('SIGINT');
      await once(rec, 'exit');
    },
  };
}

/**
 * A resolver of JavaScript code addresses from V8's perf map (`/tmp/perf-<pid>.map`). V8 appends a
 * line for every piece of code it makes, and reuses the addresses of code it collected, so one
 * address can have several lines; perf keeps the first, which names module start-up code long gone.
 * The last line that covers an address is the code that ran there during the window.
 */
function perfMapResolver(pid: number): (ip: bigint) => string | undefined {
  const entries = readFileSync(`/tmp/perf-${pid}.map`, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l, order) => {
      const [start, size, ...name] = l.split(' ');
      return { start: BigInt(`0x${start}`), end: BigInt(`0x${start}`) + BigInt(`0x${size}`), order, name: name.join(' ') };
    })
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const longest = entries.reduce((m, e) => (e.end - e.start > m ? e.end - e.start : m), 0n);
  return (ip) => {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (entries[mid]!.start <= ip) lo = mid + 1;
      else hi = mid;
    }
    let best: (typeof entries)[number] | undefined;
    for (let i = lo - 1; i >= 0 && entries[i]!.start > ip - longest; i--) {
      const e = entries[i]!;
      if (ip < e.end && (best === undefined || e.order > best.order)) best = e;
    }
    return best?.name;
  };
}

/**
 * The on-CPU samples by part (the first frame up each stack that belongs to one, as above), by
 * source file and by function. A JavaScript frame's symbol names its function and file
 * (`--perf-basic-prof`); a frame in V8's own builtins or in the kernel is charged to the part whose
 * JavaScript called it, and to itself in the file and function tables. Samples on V8's helper
 * threads are the optimizing compiler's or the collector's.
 */
function printPerfProfile(pid: number, calls: number, cpuPerCall: number): void {
  const script = execFileSync('perf', ['script', '-i', `${values.dir}/perf.data`, '-F', 'tid,ip,sym,dso'], {
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  const resolve = perfMapResolver(pid);
  const gc = parts.find(([k]) => k === 'GC')![1];
  const byPart = new Map<string, number>();
  const files = new Map<string, number>();
  const fn = new Map<string, number>();
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  let samples = 0;
  for (const block of script.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length < 2) continue;
    samples++;
    const tid = Number(lines[0]!.trim().split(/\s+/)[0]);
    // `ip symbol+offset (dso)`, leaf first
    const frames = lines.slice(1).map((l) => {
      const m = /^\s*([0-9a-f]+)\s+(.*?)(?:\+0x[0-9a-f]+)?\s+\((.*)\)$/.exec(l);
      if (m === null) return { sym: l.trim(), dso: '' };
      const [, ip, sym, dso] = m as unknown as [string, string, string, string];
      return { sym: dso.includes('/perf-') ? (resolve(BigInt(`0x${ip}`)) ?? sym) : sym, dso };
    });
    const leaf = frames[0]!;
    const file = /(?:file:\/\/\S*?\/(?:dist|node_modules|bench)\/\S+?|node:\S+?)(?::\d+){1,2}$/.exec(leaf.sym)?.[0];
    add(
      files,
      file !== undefined
        ? file.replace(/^file:\/\/.*?\/(dist|node_modules|bench)\//, '$1/').replace(/(:\d+)+$/, '')
        : leaf.dso.includes('kernel')
          ? '(kernel)'
          : leaf.dso.includes('libc')
            ? '(libc)'
            : /^(Builtins?_|BytecodeHandler|Stub|InterpreterEntryTrampoline)/.test(leaf.sym)
              ? '(V8 builtins)'
              : leaf.dso.endsWith('/node')
                ? '(node and V8, C++)'
                : leaf.dso || '(unknown)',
    );
    add(fn, leaf.sym.replace(/file:\/\/\S*?\/(dist|node_modules|bench)\//, '$1/').slice(0, 140));
    let part: string | undefined;
    if (tid !== pid)
      part = frames.some((f) => /compiler|Turbofan|Pipeline|Maglev|OptimizingCompile/i.test(f.sym))
        ? 'V8 optimizing compiler (helper threads)'
        : frames.some((f) => gc.test(f.sym))
          ? 'GC'
          : 'helper threads (other)';
    for (const f of frames) {
      if (part !== undefined) break;
      part = parts.find(([, re]) => re.test(f.sym))?.[0];
    }
    add(byPart, part ?? 'other (Node internals, V8, kernel outside any part)');
  }
  const show = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(values.top))
      .map(([k, n]) => `${((n / samples) * 100).toFixed(1).padStart(5)} %  ${String(n).padStart(6)}  ${k}`)
      .join('\n');
  console.log(`on-CPU samples (perf, cpu-clock at 1,999 Hz, all threads): ${samples}, ${(samples / calls).toFixed(1)} per call\n`);
  console.log('By part (share of on-CPU samples; µs per call = share × process CPU per call):');
  console.log('| part | share | µs per call |\n|---|---:|---:|');
  for (const [k, n] of [...byPart].sort((a, b) => b[1] - a[1]))
    console.log(`| ${k} | ${((n / samples) * 100).toFixed(1)} % | ${((n / samples) * cpuPerCall).toFixed(0)} |`);
  console.log(`\nBy file (self):\n${show(files)}\n\nBy function (self):\n${show(fn)}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
