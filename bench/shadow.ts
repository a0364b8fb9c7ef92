/**
 * `npm run bench:shadow`: what shadow mode costs the clients. The same workload goes to
 * gateways that differ only in shadow mode — off, `--shadow-sample 100` with the default bound (4 in
 * flight), and 100 % with room for every shadow (64) — each its own process in front of the same
 * upstream, round by round alternating so machine noise hits all alike. Reported: latency p50/p99 at
 * concurrency 1 and 16, throughput at 16, as ratios to shadow off, and what each gateway's shadow
 * mode did (its /metrics). Nothing here is a test assertion.
 *
 * Upstream: the simulator with its legacy endpoints (`sim/main.ts --legacy-endpoints`, its own
 * process) by default, or a real Odoo with `--upstream URL --db NAME --login L --password P` (a
 * database of your own: the gateway mints a key there). The workload is read-only: `search_read` of
 * 20 partners, `read` of 5, `search_count`, over `/xmlrpc/2/object`.
 *
 *   npm run bench:shadow -- [--quick] [--no-write] [--upstream URL --db NAME --login L --password P]
 */
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { bodies, f, interleavedRounds, loginThrough, median, onOffBenchArgs, startGateway, startSim } from './workload.ts';
import { writeBenchSection } from './bench-section.ts';

const { values, plan, command } = onOffBenchArgs('bench:shadow');

/** The gateway's shadow counters, summed by outcome. */
async function shadowOutcomes(adminUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^legacy_rpc_gateway_shadow_calls_total\{.*outcome="(\w+)"\} (\d+)/.exec(line);
    if (m) out[m[1] as string] = (out[m[1] as string] ?? 0) + Number(m[2]);
  }
  return out;
}

async function main(): Promise<void> {
  const started = new Date();
  const real = values.upstream !== undefined;
  if (real && (values.db === undefined || values.login === undefined || values.password === undefined))
    throw new Error('--upstream needs --db, --login and --password');
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
    { name: 'off', flags: [] as string[] },
    { name: '100 %, bound 4', flags: ['--shadow-sample', '100'] },
    { name: '100 %, bound 64', flags: ['--shadow-sample', '100', '--shadow-max-in-flight', '64'] },
  ];
  const gateways = await Promise.all(variants.map((v) => startGateway(upstream, v.flags)));
  try {
    const urls = gateways.map((gw) => gw.url);
    if (real) uid = await loginThrough(urls, db, values.login as string, password);
    const rows = await interleavedRounds(urls, bodies(db, uid, password), plan);
    // let the last shadows finish before reading the counters
    await new Promise((r) => setTimeout(r, 2000));
    const outcomes = await Promise.all(gateways.map((gw) => shadowOutcomes(gw.adminUrl)));
    const base = rows[0] as (typeof rows)[number];
    const label = real
      ? `a real Odoo at ${upstream} (database ${db})`
      : 'the simulator (`sim/main.ts --legacy-endpoints`, its own process; not Odoo)';
    const lines = [
      '| shadow mode | c=1 p50 ms | c=1 p99 ms | c=16 p50 ms | c=16 p99 ms | c=16 calls/s | p50 ratio c=1 / c=16 | throughput ratio | shadows: equal / dropped / other |',
      '|---|---|---|---|---|---|---|---|---|',
      ...variants.map((v, i) => {
        const r = rows[i] as (typeof rows)[number];
        const o = outcomes[i] as Record<string, number>;
        const other = Object.entries(o)
          .filter(([k]) => k !== 'equal' && k !== 'dropped')
          .reduce((s, [, n]) => s + n, 0);
        return `| ${v.name} | ${f(median(r.p50_1))} | ${f(median(r.p99_1))} | ${f(median(r.p50_16))} | ${f(median(r.p99_16))} | ${f(median(r.rate16), 0)} | ${f(median(r.p50_1) / median(base.p50_1))} / ${f(median(r.p50_16) / median(base.p50_16))} | ${f(median(r.rate16) / median(base.rate16))} | ${i === 0 ? '–' : `${o.equal ?? 0} / ${o.dropped ?? 0} / ${other}`} |`;
      }),
    ];
    const name = real ? 'shadow-odoo' : 'shadow';
    const section = [
      `<!-- bench:${name}:start -->`,
      `## Shadow mode: sampling 100 % vs off, same workload, against ${real ? 'a real Odoo 19' : 'the simulator'}${values.quick ? ' (quick run: too few calls to trust)' : ''}`,
      '',
      `Upstream: ${label}. Three gateways (\`tsx src/main.ts --log-level warn\`, each its own process) differ only in shadow mode: off,`,
      '`--shadow-sample 100` with the default `--shadow-max-in-flight 4`, and 100 % with 64 in flight (nearly every call shadowed). Workload, the same for',
      'all: XML-RPC `execute_kw` on `/xmlrpc/2/object` cycling `search_read` (20 partners, 4 fields), `read` (5 ids) and `search_count`.',
      `Per round each gateway gets ${plan.calls1} calls at concurrency 1, then ${plan.calls16} at 16; ${plan.rounds} rounds, the gateways' order rotating; medians over rounds.`,
      'With shadow mode on, every call the bound admits is also sent to the legacy endpoint after its answer is out, and compared — on this 2-core',
      "machine that work shares the CPU with the clients' calls (the upstream answers twice as many requests), which is what the ratios show.",
      '',
      `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${f(totalmem() / 2 ** 30, 0)} GiB RAM, ${osType()} ${release()}; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} at the end (shared machine)`,
      `- Node: ${process.version}`,
      `- Date: ${started.toISOString()}`,
      `- Command: \`${command}\``,
      '',
      ...lines,
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
