/**
 * `npm run bench:verify`: what the route modes of issue #39 cost the clients and Odoo. The same
 * read-only workload goes to three gateways that differ only in their default route mode — `native`
 * (Odoo's own `/xmlrpc/2` answers, the gateway relays), `verify` at 100 % (Odoo answers; every call
 * the bound admits is also translated to JSON-2 after the answer is out and compared) and
 * `translate` (the gateway's JSON-2 translation, the default) — each its own process in front of the
 * same upstream.
 *
 * Two phases:
 * 1. Clients: round by round alternating (so machine noise hits all alike), latency p50/p99 at
 *    concurrency 1 and 16 and throughput at 16, as ratios to `native`; the gateways' route and verify
 *    counters (/metrics).
 * 2. Odoo's load (with a real Odoo whose pid file and log are readable): per gateway in turn, not
 *    interleaved, the same number of calls; Odoo's process CPU (user + sys of the process, its
 *    threads included, plus any live child process: a prefork Odoo's workers) and the requests its
 *    log shows for the bench's database (one werkzeug line each, with its SQL query count and time),
 *    per client call. Odoo is measured from outside, so other databases' traffic in the same process
 *    is in its CPU: the run measures that background first, with no call of its own, and shows
 *    the other databases' requests during each phase.
 *
 * Upstream: the simulator with its legacy endpoints (`sim/main.ts --legacy-endpoints`; client phase
 * only: it is not Odoo) by default, or a real Odoo with `--upstream URL --db NAME --login L
 * --password P` (a database of your own: the gateway mints a key there). `--odoo-pid FILE` and
 * `--odoo-log FILE` default to /var/run/odoo19.pid and /var/log/odoo19.log when `--upstream` is given
 * and they exist; without them the Odoo-load phase is skipped. `--rounds`, `--calls1`, `--calls16`
 * override the round plan, `--load-calls` and `--load-concurrency` (default: `--calls16` calls at 4,
 * verify's default bound) the load phase. Nothing here is a test assertion.
 *
 *   npm run bench:verify -- [--quick] [--no-write] [--upstream URL --db NAME --login L --password P]
 *     [--odoo-pid FILE] [--odoo-log FILE] [--rounds N] [--calls1 N] [--calls16 N] [--load-calls N] [--load-concurrency N]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, openSync, readFileSync, readSync, closeSync, readdirSync, statSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { bodies, f, interleavedRounds, loginThrough, median, onOffBenchArgs, run, startGateway, startSim } from './workload.ts';
import { writeBenchSection } from './bench-section.ts';

const {
  values,
  plan: defaultPlan,
  command,
} = onOffBenchArgs('bench:verify', {
  'odoo-pid': { type: 'string' },
  'odoo-log': { type: 'string' },
  rounds: { type: 'string' },
  calls1: { type: 'string' },
  calls16: { type: 'string' },
  'load-calls': { type: 'string' },
  'load-concurrency': { type: 'string' },
});

function count(name: string, fallback: number): number {
  const given = values[name as keyof typeof values];
  if (given === undefined) return fallback;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} needs a whole number above 0`);
  return n;
}
const plan = {
  rounds: count('rounds', defaultPlan.rounds),
  calls1: count('calls1', defaultPlan.calls1),
  calls16: count('calls16', defaultPlan.calls16),
};
const loadCalls = count('load-calls', plan.calls16);
const loadConcurrency = count('load-concurrency', 4);

/** The gateway's counters by label: `legacy_rpc_gateway_<metric>` summed by the value of `label`. */
async function counters(adminUrl: string, metric: string, label: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const out: Record<string, number> = {};
  const re = new RegExp(`^legacy_rpc_gateway_${metric}\\{(.*)\\} (\\d+)`);
  for (const line of text.split('\n')) {
    const m = re.exec(line);
    if (!m) continue;
    const value = new RegExp(`${label}="([^"]*)"`).exec(m[1] as string)?.[1] ?? '';
    out[value] = (out[value] ?? 0) + Number(m[2]);
  }
  return out;
}
const verifyOutcomes = (adminUrl: string) => counters(adminUrl, 'verify_calls_total', 'outcome');
const routeModes = async (adminUrl: string) => {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^legacy_rpc_gateway_route_calls_total\{.*mode="(\w+)".*outcome="(\w+)".*\} (\d+)$/gm))
    out[`${m[1]} ${m[2]}`] = Number(m[3]);
  return out;
};

/** Waits until the gateway has no verify check in flight (at most 60 s). */
async function verifySettled(adminUrl: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const text = await (await fetch(`${adminUrl}/metrics`)).text();
    const inFlight = Number(/^legacy_rpc_gateway_verify_in_flight (\d+)/m.exec(text)?.[1] ?? 0);
    if (inFlight === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime (threads included) of a /proc stat line, and its parent pid. */
function parseStat(text: string): { ppid: number; ticks: number } {
  // the command name is in parentheses and may hold spaces: fields count from after its ')'
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
}

/** CPU ms of the Odoo server: the process (all its threads) and its live children (prefork workers). */
function odooCpuMs(pid: number): number {
  let ticks = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).ticks;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === pid) continue;
    try {
      const stat = parseStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (stat.ppid === pid) ticks += stat.ticks;
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1000) / ticksPerSecond;
}

/** What Odoo's log gained since `from` (its size then): werkzeug lines for `db` and for others, SQL queries and time. */
function logSince(
  path: string,
  from: number,
  db: string,
): { size: number; ours: number; others: number; queries: number; queryMs: number; otherMs: number } {
  const size = statSync(path).size;
  const start = size < from ? 0 : from; // rotated meanwhile: all of the new file
  const buffer = Buffer.alloc(size - start);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, start);
  } finally {
    closeSync(fd);
  }
  const out = { size, ours: 0, others: 0, queries: 0, queryMs: 0, otherMs: 0 };
  // `2026-12-02 00:10:16,473 7993 INFO gw_b39 werkzeug: 127.0.0.1 - - [...] "POST /xmlrpc/2/object HTTP/1.1" 200 - 4 0.063 0.071`
  for (const line of buffer.toString('utf8').split('\n')) {
    const m =
      /^\S+ \S+ \d+ \w+ (\S+) werkzeug: .*" \d{3} - (\d+) ([\d.]+) ([\d.]+)\s*$/.exec(line) ??
      /^\S+ \S+ \d+ \w+ (\S+) werkzeug: /.exec(line);
    if (!m) continue;
    if (m[1] !== db) {
      out.others++;
      continue;
    }
    out.ours++;
    if (m[2] !== undefined) {
      out.queries += Number(m[2]);
      out.queryMs += Number(m[3]) * 1000;
      out.otherMs += Number(m[4]) * 1000;
    }
  }
  return out;
}

interface LoadRow {
  seconds: number;
  cpuMs: number;
  ours: number;
  others: number;
  queries: number;
  odooMs: number;
  verify: Record<string, number>;
}

async function main(): Promise<void> {
  const started = new Date();
  const real = values.upstream !== undefined;
  if (real && (values.db === undefined || values.login === undefined || values.password === undefined))
    throw new Error('--upstream needs --db, --login and --password');
  const pidFile = values['odoo-pid'] ?? (real && existsSync('/var/run/odoo19.pid') ? '/var/run/odoo19.pid' : undefined);
  const logFile = values['odoo-log'] ?? (real && existsSync('/var/log/odoo19.log') ? '/var/log/odoo19.log' : undefined);
  if ((pidFile === undefined) !== (logFile === undefined)) throw new Error('the Odoo-load phase needs both --odoo-pid and --odoo-log');
  const odooPid = pidFile === undefined ? undefined : Number(readFileSync(pidFile, 'utf8').trim());
  if (odooPid !== undefined && !existsSync(`/proc/${odooPid}/stat`)) throw new Error(`no process ${odooPid} (from ${pidFile})`);
  const sim = real ? undefined : await startSim();
  // sim is there when values.upstream is not; the assertion types `upstream` as a string
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  const upstream = values.upstream ?? (sim?.url as string);
  const db = values.db ?? 'demo';
  // the simulator: its API key as the password (no minting); a real Odoo: the password (one key minted in its database)
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- it types `password` as a string, as above
  const password = values.password ?? (sim?.key as string);
  let uid = sim?.uid ?? 0;
  const variants = [
    { name: 'native', flags: ['--default-mode', 'native'] },
    { name: 'verify 100 %', flags: ['--default-mode', 'verify', '--verify-sample', '100'] },
    { name: 'translate', flags: [] as string[] },
  ];
  const gateways = await Promise.all(variants.map((v) => startGateway(upstream, v.flags)));
  try {
    const urls = gateways.map((gw) => gw.url);
    if (real) uid = await loginThrough(urls, db, values.login as string, password);
    const body = bodies(db, uid, password);
    // verify checks the login in the background, minting the gateway's key in Odoo: let that and
    // each gateway's first calls finish before measuring (its web login once met the translate
    // gateway's, both writing web.base.url: docs/cutover.md "Logins racing")
    await Promise.all(gateways.map((gw) => verifySettled(gw.adminUrl)));
    for (const gw of gateways) {
      await run(gw.url, body, body.length, 1);
      await verifySettled(gw.adminUrl);
    }
    const rows = await interleavedRounds(urls, body, plan);
    await Promise.all(gateways.map((gw) => verifySettled(gw.adminUrl)));
    const outcomes = await Promise.all(gateways.map((gw) => verifyOutcomes(gw.adminUrl)));
    const modes = await Promise.all(gateways.map((gw) => routeModes(gw.adminUrl)));
    const clientLoad = loadavg();

    // Odoo's load: a quiet window first (its background), then each gateway alone
    let background: { seconds: number; cpuMs: number; others: number } | undefined;
    const load: LoadRow[] = [];
    if (odooPid !== undefined && logFile !== undefined) {
      const quietSeconds = values.quick ? 5 : 15;
      let size = statSync(logFile).size;
      const cpu0 = odooCpuMs(odooPid);
      await new Promise((r) => setTimeout(r, quietSeconds * 1000));
      const quiet = logSince(logFile, size, db);
      background = { seconds: quietSeconds, cpuMs: odooCpuMs(odooPid) - cpu0, others: quiet.others + quiet.ours };
      for (let i = 0; i < gateways.length; i++) {
        const gw = gateways[i] as (typeof gateways)[number];
        const before = await verifyOutcomes(gw.adminUrl);
        size = statSync(logFile).size;
        const cpuStart = odooCpuMs(odooPid);
        const t = performance.now();
        await run(gw.url, body, loadCalls, loadConcurrency);
        await verifySettled(gw.adminUrl);
        // the last lines of Odoo's log are written as its answers go out
        await new Promise((r) => setTimeout(r, 300));
        const cpuMs = odooCpuMs(odooPid) - cpuStart;
        const seconds = (performance.now() - t) / 1000;
        const log = logSince(logFile, size, db);
        const after = await verifyOutcomes(gw.adminUrl);
        const verify = Object.fromEntries(Object.entries(after).map(([k, n]) => [k, n - (before[k] ?? 0)]));
        load.push({ seconds, cpuMs, ours: log.ours, others: log.others, queries: log.queries, odooMs: log.queryMs + log.otherMs, verify });
        console.log(`load phase ${variants[i]?.name}: ${f(seconds, 1)} s, Odoo CPU ${f(cpuMs, 0)} ms, ${log.ours} requests`);
      }
    }

    const base = rows[0] as (typeof rows)[number];
    const label = real
      ? `a real Odoo 19.0 at ${upstream} (database ${db}, a copy of its own)`
      : 'the simulator (`sim/main.ts --legacy-endpoints`, its own process; not Odoo)';
    const checks = (o: Record<string, number>) => {
      const other = Object.entries(o)
        .filter(([k]) => k !== 'equal' && k !== 'differs' && k !== 'dropped')
        .reduce((s, [, n]) => s + n, 0);
      return `${o.equal ?? 0} / ${o.differs ?? 0} / ${o.dropped ?? 0} / ${other}`;
    };
    const clientTable = [
      '| mode | c=1 p50 ms | c=1 p99 ms | c=16 p50 ms | c=16 p99 ms | c=16 calls/s | p50 ratio c=1 / c=16 | p99 ratio c=1 / c=16 | throughput ratio | route calls (mode outcome) | verify checks: equal / differs / dropped / other |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...variants.map((v, i) => {
        const r = rows[i] as (typeof rows)[number];
        const m = Object.entries(modes[i] as Record<string, number>)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k}: ${n}`)
          .join(', ');
        return `| ${v.name} | ${f(median(r.p50_1))} | ${f(median(r.p99_1))} | ${f(median(r.p50_16))} | ${f(median(r.p99_16))} | ${f(median(r.rate16), 1)} | ${f(median(r.p50_1) / median(base.p50_1))} / ${f(median(r.p50_16) / median(base.p50_16))} | ${f(median(r.p99_1) / median(base.p99_1))} / ${f(median(r.p99_16) / median(base.p99_16))} | ${f(median(r.rate16) / median(base.rate16))} | ${m || '– (no routes file: routing not consulted)'} | ${i === 1 ? checks(outcomes[i] as Record<string, number>) : '–'} |`;
      }),
    ];
    const bgRate = background === undefined ? 0 : background.cpuMs / background.seconds;
    const nativeLoad = load[0];
    const loadTable =
      load.length === 0 || nativeLoad === undefined
        ? []
        : [
            "| mode | phase s | Odoo CPU ms per call | same, less the background rate | ratio to native (less background) | Odoo requests per call (its log, this database) | SQL queries per call | Odoo time per call, ms (its log: SQL + other) | other databases' requests meanwhile | verify checks: equal / differs / dropped / other |",
            '|---|---|---|---|---|---|---|---|---|---|',
            ...variants.map((v, i) => {
              const l = load[i] as LoadRow;
              const net = (x: LoadRow) => (x.cpuMs - bgRate * x.seconds) / loadCalls;
              return `| ${v.name} | ${f(l.seconds, 1)} | ${f(l.cpuMs / loadCalls)} | ${f(net(l))} | ${f(net(l) / net(nativeLoad))} | ${f(l.ours / loadCalls)} | ${f(l.queries / loadCalls, 1)} | ${f(l.odooMs / loadCalls)} | ${l.others} | ${i === 1 ? checks(l.verify) : '–'} |`;
            }),
          ];
    const name = real ? 'verify-odoo' : 'verify';
    const loadText =
      background === undefined
        ? [
            'No Odoo-load phase: it needs a real Odoo with `--odoo-pid` and `--odoo-log` (defaults /var/run/odoo19.pid, /var/log/odoo19.log).',
          ]
        : [
            `Odoo's load, measured apart: after the rounds, each gateway alone (native, verify, translate, one after the other) got the same`,
            `${loadCalls} calls at concurrency ${loadConcurrency}; the phase ends when the gateway has no verify check left in flight. Odoo's CPU is user + sys`,
            `of its process (pid from \`${pidFile}\`; its threads are in it) and of any live child process, from /proc; the requests, SQL queries and`,
            `Odoo's own time per request are the werkzeug lines of \`${logFile}\` for database ${db}. Odoo serves other engineers' databases meanwhile:`,
            `in a quiet window of ${background.seconds} s before the phases, with no call from this bench, Odoo used ${f(bgRate, 1)} ms of CPU per second and logged`,
            `${background.others} requests; the "less the background" column subtracts that rate over the phase's length (a rough correction: the`,
            'background moves), the last-but-one column shows how many requests of other databases each phase shared Odoo with.',
          ];
    const section = [
      `<!-- bench:${name}:start -->`,
      `## Route modes: \`verify\` at 100 % and \`translate\` vs \`native\`, same workload, against ${real ? 'a real Odoo 19' : 'the simulator'}${values.quick ? ' (quick run: too few calls to trust)' : ''}`,
      '',
      `Upstream: ${label}. Three gateways (\`tsx src/main.ts --log-level warn\`, each its own process) differ only in their route mode:`,
      "`--default-mode native` (Odoo's own `/xmlrpc/2/object` answers, the gateway relays its bytes), `--default-mode verify --verify-sample 100`",
      '(the same, and every read-only call the default bound of 4 checks in flight admits is translated to JSON-2 after the answer is out and',
      'compared) and `translate` (the default: JSON-2). Workload, the same for all: XML-RPC `execute_kw` on `/xmlrpc/2/object` cycling',
      '`search_read` (20 partners, 4 fields), `read` (5 ids) and `search_count`, after one `common.login` per gateway.',
      `Clients: per round each gateway gets ${plan.calls1} calls at concurrency 1, then ${plan.calls16} at 16; ${plan.rounds} rounds, the gateways' order rotating;`,
      "medians over rounds, ratios to `native`. The counters are each gateway's /metrics after the rounds (warm-up included).",
      '',
      `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${f(totalmem() / 2 ** 30, 0)} GiB RAM, ${osType()} ${release()}; load average ${clientLoad
        .map((x) => x.toFixed(2))
        .join(' ')} after the rounds, ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} at the end (shared machine: other engineers use the same Odoo)`,
      `- Node: ${process.version}`,
      `- Date: ${started.toISOString()}`,
      `- Command: \`${command}\``,
      '',
      ...clientTable,
      '',
      ...loadText,
      ...(loadTable.length > 0 ? ['', ...loadTable] : []),
      '',
      `<!-- bench:${name}:end -->`,
    ].join('\n');
    console.log(section);
    if (!values['no-write']) {
      writeBenchSection(name, section);
    }
  } finally {
    await Promise.all(gateways.map((gw) => gw.stop()));
    await sim?.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
