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
 *   npm run bench:profile -- [--rows 1] [--calls 20000] [--concurrency 16] [--top 40] [--dir /tmp/gateway-prof]
 *                            [--closing-delay MS] [--vs-dir DIR] [--log-level warn]
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { freePort } from './free-port.ts';

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
  },
});
const root = new URL('..', import.meta.url);
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
  ['GC', /^\(garbage collector\)$/],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

async function main(): Promise<void> {
  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(values.dir, { recursive: true, force: true });
  mkdirSync(values.dir, { recursive: true });
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
  const key = (info.users.demo ?? []).find((u) => u.login === 'admin')?.key as string;
  const port = await freePort();
  // an upstream that closes every connection, as Odoo does, between the gateway and the simulator
  let upstream = info.url;
  let double: ReturnType<typeof spawn> | undefined;
  if (values['closing-delay'] !== undefined) {
    const dport = await freePort();
    double = spawn(process.execPath, ['--import', 'tsx', 'bench/closing-upstream.ts', info.url, String(dport), values['closing-delay']], {
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
  const gw = spawn(
    process.execPath,
    [
      '--cpu-prof',
      '--cpu-prof-dir',
      values.dir,
      'dist/src/main.js',
      '--upstream',
      upstream,
      '--port',
      String(port),
      '--admin-port',
      '0',
      '--log-level',
      values['log-level'],
    ],
    {
      cwd: gatewayDir,
      stdio: ['ignore', 'ignore', 'inherit'],
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
      v('demo'),
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
  const pool = new Pool(url, { connections: Number(values.concurrency) });
  const one = async () => {
    const r = await pool.request({ method: 'POST', path: '/xmlrpc/2/object', headers: { 'content-type': 'text/xml' }, body });
    const text = await r.body.text();
    if (text.includes('<fault>')) throw new Error(text.slice(0, 300));
  };
  let next = 0;
  const calls = Number(values.calls);
  for (let i = 0; i < 50; i++) await one(); // warm-up: key, signature, connections
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
  await pool.close();
  gw.kill('SIGTERM');
  await once(gw, 'exit');
  sim.kill('SIGTERM');
  double?.kill('SIGTERM');

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

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
