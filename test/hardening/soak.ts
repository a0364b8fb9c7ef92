/**
 * `npm run soak` (`tsx test/hardening/soak.ts --minutes 10`): the long soak. Runs mixed
 * traffic through a gateway child process for the given time, prints progress, checks zero
 * unexpected errors, RSS growth ≤ 10 % after warm-up and no growth in open descriptors, and writes
 * the figures into BENCHMARKS.md between `<!-- soak:start -->` and `<!-- soak:end -->`.
 * Exit code 1 when a check fails.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { soakChecks, soakMarkdown } from './support/soak-report.ts';
import { runSoak } from './support/soak-run.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '16' },
    'no-write': { type: 'boolean', default: false },
  },
});
const seconds = Math.round(Number(values.minutes) * 60);
const rate = Number(values.rate);
const concurrency = Number(values.concurrency);
const warmupSeconds = Math.min(60, Math.max(5, Math.round(seconds / 10)));

const figures = await runSoak({
  seconds,
  rate,
  concurrency,
  warmupSeconds,
  sampleEveryMs: 5000,
  log: (l) => process.stdout.write(`${l}\n`),
});
const failures = soakChecks(figures);
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}; load average ${loadavg()
  .map((n) => n.toFixed(2))
  .join(' ')} at the end`;
const section = soakMarkdown(figures, {
  command: `npm run soak -- --minutes ${values.minutes} --rate ${rate} --concurrency ${concurrency}`,
  warmupSeconds,
  machine,
  node: process.version,
  date: new Date().toISOString(),
  failures,
});
process.stdout.write(`${section}\n`);
if (!values['no-write']) {
  const file = new URL('../../BENCHMARKS.md', import.meta.url);
  const text = readFileSync(file, 'utf8');
  const block = `<!-- soak:start -->\n${section}\n<!-- soak:end -->`;
  const start = text.indexOf('<!-- soak:start -->');
  const end = text.indexOf('<!-- soak:end -->');
  const updated =
    start !== -1 && end > start
      ? text.slice(0, start) + block + text.slice(end + '<!-- soak:end -->'.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, updated);
}
process.exit(failures.length === 0 ? 0 : 1);
