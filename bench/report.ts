/**
 * `npm run bench:report`: what a large migration report costs. A gateway in front of the simulator
 * (in this process) gets 1,000 clients × 200 method names recorded through the same `record()` the
 * client port calls after each legacy call (sending 200,000 real calls would measure the simulator,
 * not the report). Then: RSS, `/gateway/report.json` and `/gateway/report` (bytes, time), the save
 * of `--report-file` (bytes, time), and for each of those the longest wait of a `common.version` call
 * sent to the client port every 5 ms meanwhile (the event-loop stall clients see). Nothing here is
 * a test assertion.
 *
 *   npm run bench:report -- [--clients 1000] [--methods 200]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimulator } from '../sim/index.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { createReportPersistence } from '../src/report/report-persistence.ts';
import { startGateway } from '../src/server/gateway.ts';

const { values } = parseArgs({ options: { clients: { type: 'string', default: '1000' }, methods: { type: 'string', default: '200' } } });
const clients = Number(values.clients);
const methods = Number(values.methods);

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const rss = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};

const sim = await startSimulator({ databases: ['demo'] });
const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, '--report-size', String(clients)], {});
const gateway = await startGateway(config, createLogger('silent'));
const file = join(dir, 'report.json');
// made before the calls are recorded, so that the save below has a changed report to write
const persistence = createReportPersistence({ report: gateway.report.local, file, log: createLogger('silent') });

/** The longest answer time of `common.version` calls sent every 5 ms while `work` runs, or the longest lateness of the 5 ms pause between them. */
async function stallDuring<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; maxStallMs: number }> {
  let running = true;
  let maxStallMs = 0;
  const probe = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`${gateway.url}/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","method":"call","params":{"service":"common","method":"version","args":[]},"id":1}',
      })
        .then((r) => r.text())
        .catch(() => undefined); // a reset keep-alive socket: the next probe opens another
      maxStallMs = Math.max(maxStallMs, performance.now() - t);
      // a stall that starts between two probes shows as a late timer: a client arriving then waits as long
      const pause = performance.now();
      await new Promise((r) => setTimeout(r, 5));
      maxStallMs = Math.max(maxStallMs, performance.now() - pause - 5);
    }
  })();
  await new Promise((r) => setTimeout(r, 50));
  const t = performance.now();
  const result = await work();
  const ms = performance.now() - t;
  running = false;
  await probe;
  return { result, ms, maxStallMs };
}

const rssBefore = rss();
const t0 = performance.now();
for (let c = 0; c < clients; c++) {
  for (let m = 0; m < methods; m++) {
    // the identity fields are what the recording hook passes for a logged-in client
    const call = {
      dialect: 'xmlrpc2' as const,
      userAgent: `client-${c}/1.0 (bench)`,
      ip: `10.0.${c >> 8}.${c & 255}`,
      service: 'object',
      method: 'execute_kw',
      model: `x_model_${m % 20}`,
      modelMethod: `x_method_${m}`,
      failed: m % 7 === 0,
      database: 'demo',
      login: `user${c}@example.com`,
      json2Body: () => '{"ids": ["<int>"], "context": {"lang": "<string>"}}',
    };
    gateway.report.record(call);
  }
}
const fillMs = performance.now() - t0;
const rssFilled = rss();

const admin = (path: string) =>
  stallDuring(async () => {
    const res = await fetch(`${gateway.adminUrl}${path}`);
    return (await res.arrayBuffer()).byteLength;
  });
const json = await admin('/gateway/report.json');
const page = await admin('/gateway/report');
const save = await stallDuring(() => persistence.stop());
const rssAfter = rss();

console.log(
  `## Migration report, ${clients} clients × ${methods} methods (simulator upstream, ${new Date().toISOString().slice(0, 10)})\n`,
);
console.log('| Measure | Value |\n| --- | --- |');
console.log(
  `| recording ${clients * methods} calls | ${fillMs.toFixed(0)} ms (${((fillMs * 1000) / (clients * methods)).toFixed(1)} µs per call) |`,
);
console.log(`| RSS empty → filled → after serving | ${mb(rssBefore)} → ${mb(rssFilled)} → ${mb(rssAfter)} |`);
console.log(
  `| \`/gateway/report.json\` | ${mb(json.result)} in ${json.ms.toFixed(0)} ms; client port stalled ${json.maxStallMs.toFixed(0)} ms |`,
);
console.log(
  `| \`/gateway/report\` (page) | ${mb(page.result)} in ${page.ms.toFixed(0)} ms; client port stalled ${page.maxStallMs.toFixed(0)} ms |`,
);
console.log(
  `| save (\`--report-file\`) | ${mb(statSync(file).size)} in ${save.ms.toFixed(0)} ms; client port stalled ${save.maxStallMs.toFixed(0)} ms |`,
);

await gateway.close();
await sim.close();
rmSync(dir, { recursive: true, force: true });
