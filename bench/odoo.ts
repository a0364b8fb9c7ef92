/**
 * `npm run bench:odoo`: what a legacy call through the gateway costs against a REAL
 * Odoo 19, beside what any other hop costs, in one interleaved run. It needs the server that
 * docs/testing.md ("A real Odoo 19 for the opt-in checks") describes, on 127.0.0.1:8069
 * (database gw, admin/admin), and says so when none is there; CI and `npm test` never run it.
 *
 * A Python client (bench/odoo_client.py: what integrations are) calls `search_read` at concurrency 1,
 * round-robin over eight paths:
 *   native   XML-RPC `execute_kw` on Odoo's own /xmlrpc/2/object
 *   gateway  the same XML-RPC through the gateway (compiled: node dist/src/main.js)
 *   direct   JSON-2 `POST /json/2/<model>/search_read` straight to Odoo
 *   relay    JSON-2 through bench/socket-relay.ts (bare sockets, upstream connected before the call)
 *   nginx    JSON-2 through nginx (Debian's nginx-light, installed when absent), the non-Node reference
 *   null     JSON-2 through bench/null-proxy.ts (Node http server + undici pool, no work)
 *   http-socket, http-undici
 *            JSON-2 through bench/node-hops.ts: Node's http server in front of a bare socket, or of
 *            undici with the gateway's connector; with the relay they split the gateway's extra
 *            between Node's http server, undici and the gateway's own work
 * All use the same API key (as the password on the XML-RPC paths). Odoo logs its own time per request
 * (werkzeug line: query count, query time, remaining time); subtracting it from the client's time
 * leaves the time spent outside Odoo, which cancels Odoo's own noise. Each row is a path's extra
 * outside-Odoo time over its like-for-like baseline: the gateway over native (both decode XML in the
 * client), the relays over direct JSON-2.
 *
 * Then the same 1-row call at concurrency 1 in front of the closing-connection double
 * (bench/closing-upstream.ts: the simulator behind an upstream that closes every connection and holds each
 * answer `--double-delay` ms, as Odoo does): the gateway(s) and http-undici only. CPU per call is each
 * process's user + system time, all threads (/proc/<pid>/stat), so GC helpers count; the gateway's
 * is also given as a ratio to http-undici's (the bare Node relay: Node's http + undici, no translation),
 * which moves far less with the machine's load than the figures do (issue #41).
 *
 *   npm run bench:odoo -- [--quick] [--no-write] [--vs-arg ARG ...] [--vs-dir DIR] [--db NAME] [--double-delay MS]
 *                          [--double-rounds N] [--double-only] [--warm-up N]
 *
 * `--vs-arg` adds a seventh path, a second gateway started with those extra arguments (e.g.
 * `--vs-arg=--connect-ahead --vs-arg=0`), so a setting is measured on and off in one run. `--vs-dir`
 * starts that second gateway from another checkout's build instead (e.g. a `git worktree` of the
 * commit before a change, built with `npm run build`), so a code change is measured before and after.
 * `--double-only` runs the closing-double round alone (no Odoo needed; printed, not written).
 * `--warm-up N` (default 1,000; 100 with --quick): rounds of the 1-row call each Node hop answers before
 * anything is measured. V8 optimizes a function only after many calls, and the gateway runs far more
 * JavaScript per call than a relay does: after 20 rounds its CPU per call still counts unoptimized
 * code that steady use never pays (issue #41).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, openSync, readSync, fstatSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from './free-port.ts';
import { latencyProbe, ownTime, probedRows, probeEnv, type HopTimes } from './hop-clock.ts';
import { mintOdooKey } from './odoo-key.ts';
import { gatewayArgs, startFlags } from './gateway-command.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    // a second gateway with these extra arguments, in the same interleaved run (before/after a change)
    'vs-arg': { type: 'string', multiple: true, default: [] },
    // the second gateway from another checkout's build (before/after a code change)
    'vs-dir': { type: 'string' },
    // the benchmark's own copy of gw (another name when two runs share the server)
    db: { type: 'string', default: 'bench22' },
    // ms the closing-connection double holds each answer (Odoo's time for a small call)
    'double-delay': { type: 'string', default: '10' },
    // only the round in front of the closing-connection double: no Odoo needed, nothing written (a quick
    // before/after of a CPU change with --vs-dir)
    'double-only': { type: 'boolean', default: false },
    'double-rounds': { type: 'string' },
    // calls each Node hop answers before anything is measured: V8 optimizes a hop's code only after
    // many calls, and the gateway runs more code than a relay, so a short warm-up measures its start
    'warm-up': { type: 'string' },
  },
});
const quick = values.quick;
const odoo = 'http://127.0.0.1:8069';
const odooLog = '/var/log/odoo19.log';
// A database of the benchmark's own (a copy of gw), so that Odoo's log lines of anyone else's calls on
// this shared server are told apart from ours: werkzeug's line carries the database name.
const db = values.db;
const masterPassword = 'admin'; // docs/testing.md: A real Odoo 19 for the opt-in checks
const root = new URL('..', import.meta.url).pathname;
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const started = new Date();
const partnerFields = ['id', 'name', 'email', 'phone', 'country_id', 'is_company', 'parent_id', 'company_id'];
const warmUp = Number(values['warm-up'] ?? (quick ? 100 : 1000));
const doubleRounds = Number(values['double-rounds'] ?? (quick ? 100 : 400));

// ---------------------------------------------------------------- Odoo and its key

async function odooUp(): Promise<string | undefined> {
  try {
    const res = await fetch(`${odoo}/web/version`, { signal: AbortSignal.timeout(5000) });
    return ((await res.json()) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Creates the benchmark's database as a copy of gw when it is missing. */
async function ensureDatabase(): Promise<void> {
  const list = (await (
    await fetch(`${odoo}/web/database/list`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  ).json()) as { result?: string[] };
  if (list.result?.includes(db)) return;
  console.error(`bench:odoo: creating database ${db} (a copy of gw)`);
  const res = await fetch(`${odoo}/web/database/duplicate`, {
    method: 'POST',
    body: new URLSearchParams({ master_pwd: masterPassword, name: 'gw', new_name: db }),
    redirect: 'manual',
  });
  if (res.status !== 303) throw new Error(`could not duplicate gw into ${db}: HTTP ${res.status}`);
}

/** An API key for admin, minted the way the gateway mints (web session + identity check). */
const mintKey = () => mintOdooKey(odoo, db);

// ---------------------------------------------------------------- the hops

interface Hop {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

// generous: on the shared 2-core machine a gateway has taken over 20 s to start
async function waitFor(url: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(10_000) }); // through a hop, Odoo may take seconds under load
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function startProcess(name: string, args: string[], probe: string, url: string, cwd = root, env = process.env): Promise<Hop> {
  // stdout into a pipe another process reads, as a container runtime's log driver reads it: a log
  // line's write then costs what it costs in production (to /dev/null it would cost next to nothing).
  // Not read here: this process blocks in the client's runs, and a full pipe would stall the hop.
  const reader = spawn('sh', ['-c', 'cat > /dev/null'], { stdio: ['pipe', 'ignore', 'inherit'] });
  const child: ChildProcess = spawn(args[0]!, args.slice(1), { cwd, env, stdio: ['ignore', reader.stdin, 'inherit'] });
  reader.stdin.destroy(); // the child holds its own copy of the pipe's end
  child.once('exit', () => reader.kill());
  try {
    await waitFor(probe);
  } catch (err) {
    child.kill('SIGTERM'); // not yet among the hops the run stops
    throw err;
  }
  return {
    name,
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * A gateway at its default settings (the access log at `info`, as operators run it; its stdout read and
 * dropped). `clocked`: with the hop's own clock (bench/hop-clock.ts), as the Odoo rounds run it.
 */
async function startGateway(name: string, extra: string[] = [], dir = root, upstream = odoo, clocked = false): Promise<Hop> {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: dir, stdio: 'inherit' });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startProcess(
    name,
    // with the node flags of that checkout's own `npm start` (which the image runs too)
    [process.execPath, ...gatewayArgs([...startFlags(dir), ...(clocked ? ['--import', latencyProbe] : [])], upstream, port, extra)],
    `${url}/livez`,
    url,
    dir,
    clocked ? probeEnv(clockFile(name)) : process.env,
  );
}

/** Where the hop named `name` writes what its clock measured. */
const clockFile = (name: string) => join(clockDir, `${name}.json`);
const clockDir = mkdtempSync(join(tmpdir(), 'bench-odoo-clock-'));

/**
 * The closing-connection double (bench/closing-upstream.ts) in front of the simulator: an upstream
 * that closes every connection and takes `delay` ms per answer, as Odoo does, without Odoo's noise.
 * Resolves with the double's URL, the simulator's admin key and a stop for both.
 */
async function startClosingDouble(delay: string): Promise<{ hop: Hop; key: string; stopSim: () => void }> {
  const sim = spawn(process.execPath, ['dist/sim/main.js', '--port', '0', '--log-limit', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let line = '';
  for await (const chunk of sim.stdout as AsyncIterable<Buffer>) {
    line += chunk.toString();
    if (line.includes('\n')) break;
  }
  const info = JSON.parse(line.split('\n')[0]!) as { url: string; users: Record<string, { login: string; key: string }[]> };
  const key = info.users.demo!.find((u) => u.login === 'admin')!.key;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const hop = await startProcess(
    'closing-double',
    [process.execPath, '--import', 'tsx', 'bench/closing-upstream.ts', info.url, String(port), delay],
    `${url}/web/version`,
    url,
  );
  return { hop, key, stopSim: () => sim.kill('SIGTERM') };
}

/**
 * The same small call in front of the closing-connection double: the gateway(s) and the bare Node
 * relay (http-undici) only, so their ratio shows without Odoo's noise, in the same run. Appends its
 * table to `lines` and its figures to `summary`; the hops it starts join `hops` (stopped by the caller).
 */
async function closingDoubleRound(
  hops: Hop[],
  vsArgs: string[],
  vsDir: string | undefined,
  withVs: boolean,
  dCall: Call,
  lines: string[],
  summary: string[],
): Promise<void> {
  const double = await startClosingDouble(values['double-delay']);
  hops.push(double.hop);
  try {
    const dGateway = await startGateway('gateway (double)', [], root, double.hop.url);
    hops.push(dGateway);
    const dVs = withVs ? await startGateway('gateway-vs (double)', vsArgs, vsDir, double.hop.url) : undefined;
    if (dVs !== undefined) hops.push(dVs);
    const dUndici = await startNodeHop('http-undici', new URL(double.hop.url).port);
    hops.push(dUndici);
    const dHops = [dGateway, dUndici, ...(dVs ? [dVs] : [])];
    const dNames = ['gateway', 'http-undici', ...(dVs ? ['gateway-vs'] : [])];
    const dPaths: PathSpec[] = [
      { kind: 'xmlrpc', url: `${dGateway.url}/xmlrpc/2/object`, db: 'demo', uid: 2, password: double.key },
      { kind: 'json2', url: dUndici.url, db: 'demo', key: double.key },
      ...(dVs ? [{ kind: 'xmlrpc' as const, url: `${dVs.url}/xmlrpc/2/object`, db: 'demo', uid: 2, password: double.key }] : []),
    ];
    client({ mode: 'sequence', rounds: warmUp, paths: dPaths, call: dCall }); // to V8's optimized code, as in steady use
    const rounds = doubleRounds;
    const before = dHops.map((h) => cpuTicks(h.pid));
    const res = client({ mode: 'sequence', rounds, paths: dPaths, call: dCall }) as { calls: [number, number][] };
    const cpu = dHops.map((h, i) => ((cpuTicks(h.pid) - before[i]!) / clockTicks / rounds) * 1000);
    const p50 = dNames.map((_, i) =>
      quantile(
        res.calls.filter((c) => c[0] === i).map((c) => c[1]),
        0.5,
      ),
    );
    lines.push(
      '',
      `### Concurrency 1, 1 row, in front of the closing-connection double (bench/closing-upstream.ts: the simulator behind an upstream that closes every connection and holds each answer ${values['double-delay']} ms; ${rounds} rounds)`,
      '',
      '| path | CPU ms per call (whole process) | ÷ http-undici | client p50 ms |',
      '|---|---:|---:|---:|',
      ...dNames.map((n, i) => `| ${n} | ${f(cpu[i]!)} | ${f(cpu[i]! / cpu[1]!)} | ${f(p50[i]!)} |`),
    );
    summary.push(
      `closing double, 1 row: gateway CPU ${f(cpu[0]!)} ms per call, ÷ http-undici ${f(cpu[0]! / cpu[1]!)}${dVs ? `; gateway-vs ${f(cpu[2]!)} ms, ÷ ${f(cpu[2]! / cpu[1]!)}` : ''}`,
    );
  } finally {
    double.stopSim();
  }
}

async function startRelay(): Promise<Hop> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startProcess('relay', [process.execPath, '--import', 'tsx', 'bench/socket-relay.ts', '8069', String(port)], url, url);
}

/** bench/node-hops.ts: Node's http server in front of a bare socket (`http-socket`) or of undici (`http-undici`). */
async function startNodeHop(mode: 'http-socket' | 'http-undici', upstreamPort = '8069', clocked = false): Promise<Hop> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const clock = clocked ? ['--import', latencyProbe] : [];
  return startProcess(
    mode,
    [process.execPath, '--import', 'tsx', ...clock, 'bench/node-hops.ts', mode, upstreamPort, String(port)],
    url,
    url,
    root,
    clocked ? probeEnv(clockFile(mode)) : process.env,
  );
}

async function startNullProxy(): Promise<Hop> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startProcess('null', [process.execPath, '--import', 'tsx', 'bench/null-proxy.ts', odoo, String(port)], `${url}/held/probe`, url);
}

async function startNginx(): Promise<Hop> {
  if (!existsSync('/usr/sbin/nginx')) {
    console.error('bench:odoo: installing nginx-light (Debian) for the non-Node reference row');
    execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit' }); // a fresh machine's package lists may be empty
    execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'nginx-light'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log stderr error;
events { worker_connections 256; }
http { access_log off; client_body_temp_path ${dir}; proxy_temp_path ${dir};
  upstream odoo { server 127.0.0.1:8069; keepalive 16; }
  server { listen 127.0.0.1:${port}; location / { proxy_pass http://odoo; proxy_http_version 1.1; proxy_set_header Connection ""; } } }\n`,
  );
  const url = `http://127.0.0.1:${port}`;
  return startProcess('nginx', ['/usr/sbin/nginx', '-p', dir, '-c', join(dir, 'nginx.conf')], `${url}/web/webclient/version_info`, url);
}

// ---------------------------------------------------------------- the client and Odoo's log

interface Call {
  model: string;
  method: string;
  domain: unknown[];
  fields: string[];
  limit?: number;
}
type PathSpec =
  { kind: 'xmlrpc'; url: string; db: string; uid: number; password: string } | { kind: 'json2'; url: string; db: string; key: string };

function client(plan: unknown): unknown {
  const out = execFileSync('python3', [join(root, 'bench/odoo_client.py')], { input: JSON.stringify(plan), maxBuffer: 64 * 2 ** 20 });
  return JSON.parse(out.toString());
}

function logSize(): number {
  return fstatSync(openSync(odooLog, 'r')).size;
}
function logSince(offset: number): string[] {
  const fd = openSync(odooLog, 'r');
  const size = fstatSync(fd).size;
  const buf = Buffer.alloc(size - offset);
  readSync(fd, buf, 0, buf.length, offset);
  closeSync(fd);
  return buf.toString('utf8').split('\n');
}
/** Odoo's own seconds for each werkzeug line of a call path, in order: query time + remaining time. */
function odooTimes(lines: string[]): { path: string; ms: number }[] {
  const out: { path: string; ms: number }[] = [];
  const ours = ` ${db} werkzeug: `;
  for (const line of lines) {
    if (!line.includes(ours)) continue;
    const m = / werkzeug: .*"POST (\S+) HTTP\/1\.[01]" \d+ - \d+ ([\d.]+) ([\d.]+)\s*$/.exec(line);
    if (m && (m[1]!.startsWith('/json/2/') || m[1]!.startsWith('/xmlrpc/')))
      out.push({ path: m[1]!, ms: (Number(m[2]) + Number(m[3])) * 1000 });
  }
  return out;
}

/**
 * User + system CPU of a whole process, all its threads (the event loop, GC helpers, libuv), in
 * clock ticks: what the process costs the machine (issue #41; the main thread alone hid GC).
 */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${f(Math.abs(x))}`;

// ---------------------------------------------------------------- main

/** `--double-only`: the closing-double round alone, printed. */
async function doubleOnly(): Promise<void> {
  const hops: Hop[] = [];
  const lines: string[] = [];
  const summary: string[] = [];
  const vsArgs = values['vs-arg'];
  const vsDir = values['vs-dir'];
  const call: Call = { model: 'res.partner', method: 'search_read', domain: [], fields: partnerFields, limit: 1 };
  try {
    await closingDoubleRound(hops, vsArgs, vsDir, vsArgs.length > 0 || vsDir !== undefined, call, lines, summary);
  } finally {
    await Promise.all(hops.map((h) => h.stop()));
  }
  console.log(
    [
      ...lines,
      '',
      `- load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}; ${summary.join('; ')}`,
    ].join('\n'),
  );
}

async function main(): Promise<void> {
  if (values['double-only']) return doubleOnly();
  const version = await odooUp();
  if (version === undefined) {
    console.error(
      `bench:odoo needs a real Odoo 19 on ${odoo}: set one up as docs/testing.md says ("A real Odoo 19 for the opt-in checks").`,
    );
    process.exit(2);
  }
  if (!existsSync(odooLog))
    throw new Error(
      `${odooLog} (Odoo's log, docs/testing.md: A real Odoo 19 for the opt-in checks) is missing: Odoo's own time per request comes from it`,
    );
  await ensureDatabase();
  const key = await mintKey();
  const hops: Hop[] = [];
  const stopAll = () => Promise.all(hops.map((h) => h.stop()));
  try {
    // the gateways and the bare Node relay carry their own clock (bench/hop-clock.ts): the hop's own time, Odoo's left out
    const gateway = await startGateway('gateway', [], root, odoo, true);
    hops.push(gateway);
    const vsArgs = values['vs-arg'];
    const vsDir = values['vs-dir'];
    const vs = vsArgs.length > 0 || vsDir !== undefined ? await startGateway('gateway-vs', vsArgs, vsDir, odoo, true) : undefined;
    if (vs !== undefined) hops.push(vs);
    const relay = await startRelay();
    hops.push(relay);
    const nginx = await startNginx();
    hops.push(nginx);
    const nul = await startNullProxy();
    hops.push(nul);
    const httpSocket = await startNodeHop('http-socket');
    hops.push(httpSocket);
    const httpUndici = await startNodeHop('http-undici', '8069', true);
    hops.push(httpUndici);

    const xml = (url: string): PathSpec => ({ kind: 'xmlrpc', url: `${url}/xmlrpc/2/object`, db, uid: 2, password: key });
    const json2 = (url: string): PathSpec => ({ kind: 'json2', url, db, key });
    const names: string[] = ['native', 'gateway', 'direct', 'relay', 'nginx', 'null', 'http-socket', 'http-undici'];
    const paths: PathSpec[] = [
      xml(odoo),
      xml(gateway.url),
      json2(odoo),
      json2(relay.url),
      json2(nginx.url),
      json2(nul.url),
      json2(httpSocket.url),
      json2(httpUndici.url),
    ];
    if (vs !== undefined) {
      names.push('gateway-vs');
      paths.push(xml(vs.url));
    }
    // `direct` over `native`: no hop at all, only Odoo's two APIs (and the client's JSON vs XML decoding): what
    // of the gateway's extra is Odoo's own JSON-2 time outside its log line rather than the gateway's
    const baseline: Record<string, string> = {
      gateway: 'native',
      ...(vs ? { 'gateway-vs': 'native' } : {}),
      direct: 'native',
      relay: 'direct',
      nginx: 'direct',
      null: 'direct',
      'http-socket': 'direct',
      'http-undici': 'direct',
    };

    const shapes: { label: string; call: Call; rounds: number }[] = [
      {
        label: '1 row',
        call: { model: 'res.partner', method: 'search_read', domain: [], fields: partnerFields, limit: 1 },
        rounds: quick ? 40 : 300,
      },
      {
        label: '39 rows',
        call: { model: 'res.partner', method: 'search_read', domain: [], fields: partnerFields, limit: 39 },
        rounds: quick ? 30 : 200,
      },
      {
        label: '2,000 rows',
        call: {
          model: 'ir.model.fields',
          method: 'search_read',
          domain: [],
          fields: ['id', 'name', 'model', 'ttype', 'relation', 'required', 'readonly', 'store'],
          limit: 2000,
        },
        rounds: quick ? 5 : 30,
      },
    ];
    const lines: string[] = [];
    const summary: string[] = [];
    lines.push("### Concurrency 1: extra time outside Odoo over the like-for-like baseline (ms; client time − Odoo's logged time)", '');
    lines.push(
      '| path | baseline | ' +
        shapes.map((s) => `${s.label} p50`).join(' | ') +
        ' | ' +
        shapes.map((s) => `${s.label} p90`).join(' | ') +
        ' |',
    );
    lines.push('|---|---|' + shapes.map(() => '---:').join('|') + '|' + shapes.map(() => '---:').join('|') + '|');
    // the Node hops to V8's optimized code, as in steady use (Odoo's own paths need no warming)
    client({
      mode: 'sequence',
      rounds: warmUp,
      paths: paths.filter((_, i) => !['native', 'direct', 'nginx'].includes(names[i]!)),
      call: shapes[0]!.call,
    });
    const extra: Record<string, { p50: number[]; p90: number[] }> = {};
    // Odoo's own (logged) time per call, by path: the extra above is only fair if Odoo's unlogged part is alike
    const logged: Record<string, number[]> = {};
    // each clocked hop's own time per call (p50 ms), by shape
    const clocked: Hop[] = [gateway, ...(vs ? [vs] : []), httpUndici];
    const own: Record<string, number[]> = {};
    const clockRows = (hop: Hop) => probedRows(hop.pid, clockFile(hop.name));
    const endToEnd: string[] = [];
    const cpuLines: string[] = [];
    const cpuRatios: string[] = [];
    for (const shape of shapes) {
      client({ mode: 'sequence', rounds: quick ? 3 : 10, paths, call: shape.call }); // warm-up: keys, signatures, connections
      const offset = logSize();
      const cpuOf = () => ({
        gateway: cpuTicks(gateway.pid),
        relay: cpuTicks(relay.pid),
        null: cpuTicks(nul.pid),
        socket: cpuTicks(httpSocket.pid),
        undici: cpuTicks(httpUndici.pid),
        vs: vs ? cpuTicks(vs.pid) : 0,
      });
      const clockedBefore = await Promise.all(clocked.map(clockRows));
      const cpuBefore = cpuOf();
      const result = client({ mode: 'sequence', rounds: shape.rounds, paths, call: shape.call }) as { calls: [number, number][] };
      const cpuAfter = cpuOf();
      const clockedAfter = await Promise.all(clocked.map(clockRows));
      clocked.forEach((hop, i) => {
        const rows: HopTimes[] = clockedAfter[i]!.slice(clockedBefore[i]!.length);
        (own[hop.name] ??= []).push(quantile(rows.map(ownTime), 0.5));
      });
      await new Promise((r) => setTimeout(r, 300)); // the last werkzeug line
      // the measured call's lines only: a gateway's own look-ups (the request language, once a minute)
      // land in the same database
      const measured = `/json/2/${shape.call.model}/${shape.call.method}`;
      const times = odooTimes(logSince(offset)).filter((t) => t.path.startsWith('/xmlrpc/') || t.path === measured);
      if (times.length !== result.calls.length)
        throw new Error(
          `${shape.label}: ${result.calls.length} calls but ${times.length} Odoo log lines (is something else calling this Odoo?)`,
        );
      const outside: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
      const whole: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
      const inOdoo: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
      result.calls.forEach(([i, ms], n) => {
        const expected = i === 0 ? '/xmlrpc/2/object' : '/json/2/';
        if (!times[n]!.path.startsWith(expected))
          throw new Error(`${shape.label}: call ${n} (${names[i]}) matched Odoo's line for ${times[n]!.path}`);
        outside[names[i]!]!.push(ms - times[n]!.ms);
        whole[names[i]!]!.push(ms);
        inOdoo[names[i]!]!.push(times[n]!.ms);
      });
      for (const name of names) (logged[name] ??= []).push(quantile(inOdoo[name]!, 0.5));
      for (const [path, base] of Object.entries(baseline)) {
        const e = (extra[path] ??= { p50: [], p90: [] });
        e.p50.push(quantile(outside[path]!, 0.5) - quantile(outside[base]!, 0.5));
        e.p90.push(quantile(outside[path]!, 0.9) - quantile(outside[base]!, 0.9));
      }
      const ratio = (a: string, b: string) => quantile(whole[a]!, 0.5) / quantile(whole[b]!, 0.5);
      endToEnd.push(
        `| ${shape.label} | ${f(quantile(whole.native!, 0.5))} | ${f(quantile(whole.gateway!, 0.5))} | ${f(quantile(whole.direct!, 0.5))} | ${f(ratio('gateway', 'native'))} | ${f(ratio('direct', 'native'))} |`,
      );
      const perCall = (before: number, after: number) => ((after - before) / clockTicks / shape.rounds) * 1000;
      const gwCpu = perCall(cpuBefore.gateway, cpuAfter.gateway);
      const undiciCpu = perCall(cpuBefore.undici, cpuAfter.undici);
      const vsCpu = perCall(cpuBefore.vs, cpuAfter.vs);
      cpuLines.push(
        `| ${shape.label} | ${f(gwCpu)} | ${f(perCall(cpuBefore.relay, cpuAfter.relay))} | ${f(perCall(cpuBefore.socket, cpuAfter.socket))} | ${f(undiciCpu)} | ${f(perCall(cpuBefore.null, cpuAfter.null))} | ${f(gwCpu / undiciCpu)} |${vs ? ` ${f(vsCpu)} | ${f(vsCpu / undiciCpu)} |` : ''}`,
      );
      cpuRatios.push(
        `${f(gwCpu)} ms (÷ http-undici ${f(gwCpu / undiciCpu)}${vs ? `; gateway-vs ${f(vsCpu)} ms, ÷ ${f(vsCpu / undiciCpu)}` : ''})`,
      );
      console.error(`bench:odoo: ${shape.label} done`);
    }
    for (const [path, base] of Object.entries(baseline))
      lines.push(`| ${path} | ${base} | ${extra[path]!.p50.map(signed).join(' | ')} | ${extra[path]!.p90.map(signed).join(' | ')} |`);
    const ownOver = own.gateway!.map((ms, i) => ms - own['http-undici']![i]!);
    summary.push(
      `gateway extra over native (p50): ${extra.gateway!.p50.map(signed).join(' / ')} ms at ${shapes.map((s) => s.label).join(' / ')}; bare-socket relay over direct: ${extra.relay!.p50.map(signed).join(' / ')} ms; gateway's own time over http-undici's, each hop's clock (p50): ${ownOver.map(signed).join(' / ')} ms`,
    );
    lines.push(
      '',
      "### Concurrency 1: time in the hop, by its own clock (request head → upstream request, plus upstream's last byte → answer leaving; p50 ms)",
      '',
      "Measured inside each hop (`bench/hop-clock.ts`): Odoo's time is not in it, whatever Odoo logs, so the gateway and the bare Node relay compare like for like.",
      '',
      `| hop | ${shapes.map((s) => s.label).join(' | ')} |`,
      `|---|${shapes.map(() => '---:').join('|')}|`,
      ...clocked.map((hop) => `| ${hop.name} | ${own[hop.name]!.map((x) => f(x)).join(' | ')} |`),
      `| gateway − http-undici | ${ownOver.map(signed).join(' | ')} |`,
    );
    lines.push(
      '',
      "### Concurrency 1: Odoo's own time per call (its werkzeug line: query time + remaining time, p50 ms)",
      '',
      `| path | ${shapes.map((s) => s.label).join(' | ')} |`,
      `|---|${shapes.map(() => '---:').join('|')}|`,
      ...names.map((name) => `| ${name} | ${logged[name]!.map((x) => f(x)).join(' | ')} |`),
    );
    lines.push(
      '',
      '### Concurrency 1: end to end (client time, p50 ms)',
      '',
      '| rows | native | gateway | direct JSON-2 | gateway ÷ native | direct ÷ native |',
      '|---|---:|---:|---:|---:|---:|',
      ...endToEnd,
    );
    lines.push(
      '',
      '### CPU per call at concurrency 1 (ms of user+system CPU per call, whole process, all threads; idle time between calls included)',
      '',
      `| rows | gateway | bare-socket relay | http-socket | http-undici | undici null proxy | gateway ÷ http-undici |${vs ? ' gateway-vs | gateway-vs ÷ http-undici |' : ''}`,
      `|---|---:|---:|---:|---:|---:|---:|${vs ? '---:|---:|' : ''}`,
      ...cpuLines,
    );
    summary.push(`gateway CPU per call (whole process) at ${shapes.map((s) => s.label).join(' / ')}: ${cpuRatios.join(' / ')}`);

    // throughput at concurrency 8, 39 rows: native, gateway, direct JSON-2 take turns
    const tpPaths = [paths[0]!, paths[1]!, paths[2]!];
    const tp = client({
      mode: 'throughput',
      seconds: quick ? 2 : 5,
      blocks: quick ? 1 : 3,
      concurrency: 8,
      paths: tpPaths,
      call: shapes[1]!.call,
    }) as { blocks: [number, number, number][] };
    const rate = [0, 1, 2].map((i) => {
      const bs = tp.blocks.filter((b) => b[0] === i);
      return bs.reduce((a, b) => a + b[1], 0) / bs.reduce((a, b) => a + b[2], 0);
    });
    lines.push(
      '',
      '### Throughput at concurrency 8, 39 rows (calls/s; the paths take turns in blocks)',
      '',
      '| native | gateway | direct JSON-2 | gateway ÷ direct | gateway ÷ native |',
      '|---:|---:|---:|---:|---:|',
    );
    lines.push(`| ${f(rate[0]!, 1)} | ${f(rate[1]!, 1)} | ${f(rate[2]!, 1)} | ${f(rate[1]! / rate[2]!)} | ${f(rate[1]! / rate[0]!)} |`);
    summary.push(`throughput c=8, 39 rows: gateway ÷ direct JSON-2 ${f(rate[1]! / rate[2]!)}, gateway ÷ native ${f(rate[1]! / rate[0]!)}`);

    await closingDoubleRound(hops, vsArgs, vsDir, vs !== undefined, shapes[0]!.call, lines, summary);

    const section = [
      '<!-- bench:odoo:start -->',
      `## Against a real Odoo ${version}: the gateway beside native XML-RPC, direct JSON-2 and other hops${quick ? ' (quick run: too few calls to trust)' : ''}`,
      '',
      'What: a Python client (`bench/odoo_client.py`, `xmlrpc.client` and `http.client`) calls `search_read` at concurrency 1, round-robin',
      "over eight paths: Odoo's own `/xmlrpc/2/object` (native), the same through the gateway (`node dist/src/main.js`), JSON-2 straight",
      'to Odoo (direct), and JSON-2 through a bare-socket Node relay (`bench/socket-relay.ts`), nginx (`nginx-light`), the undici',
      "null proxy (`bench/null-proxy.ts`), and Node's http server in front of a bare socket (`http-socket`) or of undici with the",
      "gateway's connect-ahead connector (`http-undici`, both `bench/node-hops.ts`). Every path uses the same API key. Odoo's own time per request comes from its werkzeug log",
      "line (query time + remaining time) and is subtracted from the client's, so Odoo's noise cancels; each extra is over the",
      'like-for-like baseline (the gateway over native: the client decodes XML on both). Odoo: threaded (`workers = 0`), on this machine;',
      `database ${db}, a copy of gw made by the benchmark, so that other callers' log lines are told apart.`,
      ...(vs
        ? [
            '',
            `gateway-vs: a second gateway, ${vsDir === undefined ? 'the same build' : `the build in \`${vsDir}\``}${vsArgs.length > 0 ? ` started with \`${vsArgs.join(' ')}\`` : ''}, in the same run.`,
          ]
        : []),
      '',
      `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${f(totalmem() / 2 ** 30, 0)} GiB; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} at the end (shared machine)`,
      `- Node ${process.version}; date ${started.toISOString()}; command \`npm run bench:odoo${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\``,
      `- Summary: ${summary.join('; ')}`,
      '',
      ...lines,
      '<!-- bench:odoo:end -->',
    ].join('\n');
    console.log(section);
    if (!values['no-write']) {
      const file = join(root, 'BENCHMARKS.md');
      const doc = readFileSync(file, 'utf8');
      const re = /<!-- bench:odoo:start -->[\s\S]*?<!-- bench:odoo:end -->/;
      writeFileSync(file, re.test(doc) ? doc.replace(re, () => section) : `${doc.trimEnd()}\n\n${section}\n`);
    }
  } finally {
    await stopAll();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
