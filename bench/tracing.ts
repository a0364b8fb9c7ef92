/**
 * `npm run bench:tracing`: what traces cost the clients. The same workload goes to two gateways
 * that differ only in their environment: one without any OTEL_* variable (tracing off: the SDK is
 * not loaded), one exporting OTLP/HTTP protobuf (`OTEL_EXPORTER_OTLP_ENDPOINT`) to a receiver in
 * this process that reads and drops each export. Every call carries a fresh sampled `traceparent`,
 * so with tracing on each call makes a server span and a child per upstream request. Each gateway
 * is its own process in front of the same upstream, round by round alternating. Reported: latency
 * p50/p99 at concurrency 1 and 16, throughput at 16, as ratios to tracing off, and the bytes the
 * receiver got. Nothing here is a test assertion.
 *
 * Upstream: the simulator (`sim/main.ts`, its own process) by default, or a real Odoo with
 * `--upstream URL --db NAME --login L --password P` (a database of your own: the gateway mints a key).
 *
 *   npm run bench:tracing -- [--quick] [--no-write] [--upstream URL --db NAME --login L --password P]
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { bodies, f, interleavedRounds, loginThrough, median, onOffBenchArgs, startGateway, startSim } from './workload.ts';
import { writeBenchSection } from './bench-section.ts';

const { values, plan, command } = onOffBenchArgs('bench:tracing');

/** An OTLP/HTTP receiver that drops what it gets, counting exports and bytes. */
async function startSink(): Promise<{ url: string; exports: number; bytes: number; close(): void }> {
  const sink = { url: '', exports: 0, bytes: 0, close: () => server.close() };
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => (sink.bytes += c.length));
    req.on('end', () => {
      sink.exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sink;
}

/** A fresh sampled W3C trace context, as an instrumented client sends with each call. */
const traceHeaders = () => ({ traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01` });

async function main(): Promise<void> {
  const started = new Date();
  const real = values.upstream !== undefined;
  if (real && (values.db === undefined || values.login === undefined || values.password === undefined))
    throw new Error('--upstream needs --db, --login and --password');
  const sim = real ? undefined : await startSim();
  const sink = await startSink();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- sim is there when values.upstream is not
  const upstream = values.upstream ?? (sim?.url as string);
  const db = values.db ?? 'demo';
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- as above
  const password = values.password ?? (sim?.key as string);
  let uid = sim?.uid ?? 0;
  const withoutOtel = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  const variants = [
    { name: 'tracing off (no OTEL_* variable)', env: withoutOtel },
    { name: 'tracing on (OTLP/HTTP protobuf)', env: { ...withoutOtel, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } },
  ];
  const gateways = await Promise.all(variants.map((v) => startGateway(upstream, [], v.env)));
  try {
    const urls = gateways.map((gw) => gw.url);
    if (real) uid = await loginThrough(urls, db, values.login as string, password);
    const rows = await interleavedRounds(urls, bodies(db, uid, password), plan, traceHeaders);
    // the last batch (the SDK exports every 5 s) before the receiver's figures are read
    await Promise.all(gateways.map((gw) => gw.stop()));
    const base = rows[0] as (typeof rows)[number];
    const label = real ? `a real Odoo 19 at ${upstream} (database ${db})` : 'the simulator (`sim/main.ts`, its own process; not Odoo)';
    const name = real ? 'tracing-odoo' : 'tracing';
    const section = [
      `<!-- bench:${name}:start -->`,
      `## Traces: OpenTelemetry on vs off, same workload, against ${real ? 'a real Odoo 19' : 'the simulator'}${values.quick ? ' (quick run: too few calls to trust)' : ''}`,
      '',
      `Upstream: ${label}. Two gateways (\`tsx src/main.ts\`, each its own process) differ only in their environment: no OTEL_* variable`,
      '(the SDK is not loaded), or `OTEL_EXPORTER_OTLP_ENDPOINT` set (spans batched and exported as OTLP/HTTP protobuf to a receiver in the',
      "bench's process that drops them). Every call carries a fresh sampled `traceparent`. Workload: XML-RPC `execute_kw` cycling `search_read`",
      `(20 partners, 4 fields), \`read\` (5 ids) and \`search_count\`. Per round each gateway gets ${plan.calls1} calls at concurrency 1, then ${plan.calls16} at 16;`,
      `${plan.rounds} rounds, the order rotating; medians over rounds. The receiver got ${sink.exports} exports, ${f(sink.bytes / 2 ** 20)} MiB.`,
      '',
      `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${f(totalmem() / 2 ** 30, 0)} GiB RAM, ${osType()} ${release()}; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} at the end (shared machine)`,
      `- Node: ${process.version}`,
      `- Date: ${started.toISOString()}`,
      `- Command: \`${command}\``,
      '',
      '| gateway | c=1 p50 ms | c=1 p99 ms | c=16 p50 ms | c=16 p99 ms | c=16 calls/s | p50 ratio c=1 / c=16 | throughput ratio |',
      '|---|---|---|---|---|---|---|---|',
      ...variants.map((v, i) => {
        const r = rows[i] as (typeof rows)[number];
        return `| ${v.name} | ${f(median(r.p50_1))} | ${f(median(r.p99_1))} | ${f(median(r.p50_16))} | ${f(median(r.p99_16))} | ${f(median(r.rate16), 0)} | ${f(median(r.p50_1) / median(base.p50_1))} / ${f(median(r.p50_16) / median(base.p50_16))} | ${f(median(r.rate16) / median(base.rate16))} |`;
      }),
      '',
      `<!-- bench:${name}:end -->`,
    ].join('\n');
    console.log(section);
    if (!values['no-write']) {
      writeBenchSection(name, section);
    }
  } finally {
    await Promise.all(gateways.map((gw) => gw.stop()));
    sink.close();
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
