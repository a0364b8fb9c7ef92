/** The soak's pass/fail checks and its BENCHMARKS.md section. */
import type { SoakFigures } from './soak-run.ts';

/** RSS may grow this much after warm-up. */
export const soakMaxRssGrowth = 0.1;
/** Descriptors the gateway may hold beyond its baseline at the end (an upstream keep-alive connection or two). */
export const soakFdTolerance = 2;

/** The checks that failed, one line each (empty: the soak passed). */
export function soakChecks(f: SoakFigures): string[] {
  const failures: string[] = [];
  if (!f.gatewayAlive) failures.push('the gateway process died');
  if (f.unexpected !== 0) failures.push(`${f.unexpected} unexpected errors: ${f.unexpectedSamples.join(' | ')}`);
  if (f.rssGrowth > soakMaxRssGrowth)
    failures.push(`RSS grew ${(f.rssGrowth * 100).toFixed(1)} % after warm-up (limit ${soakMaxRssGrowth * 100} %)`);
  if (f.finalFds > f.baselineFds + soakFdTolerance) failures.push(`open descriptors grew from ${f.baselineFds} to ${f.finalFds}`);
  if (f.leftBehind !== 0)
    failures.push(
      `${f.leftBehind} records the soak created are still there (${f.createdAtSimulator} creates and ${f.unlinkedAtSimulator} unlinks reached the simulator)`,
    );
  return failures;
}

const mib = (b: number) => (b / 2 ** 20).toFixed(1);

/** The section between the soak markers. */
export function soakMarkdown(
  f: SoakFigures,
  meta: { command: string; warmupSeconds: number; machine: string; node: string; date: string; failures: string[] },
): string {
  const kinds = Object.entries(f.callsByKind)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `| ${k} | ${n} |`)
    .join('\n');
  const every = Math.max(1, Math.round(f.samples.length / 20));
  const rows = f.samples
    .filter((_s, i) => i % every === 0 || i === f.samples.length - 1)
    .map((s) => `| ${s.at.toFixed(0)} | ${mib(s.rssBytes)} | ${s.fds} |`)
    .join('\n');
  return [
    '## Soak: 10 minutes of mixed legacy traffic',
    '',
    'What: a gateway child process (`src/main.ts`, defaults, JSON logs at info) in front of the simulator; the driver starts',
    'operations at a steady rate (at most `--concurrency` in flight): search_read/search_count/read on `/xmlrpc/2`, `/xmlrpc`',
    'and `/jsonrpc`, create → write → read back → unlink cycles, expected faults (missing record 2, wrong password 3,',
    'unknown model, malformed XML 1; the wrong passwords go to a second database, which nothing else uses) and logins with a',
    'password the gateway has never seen (a fresh minted key each).',
    "Every answer is checked. Memory and descriptors are the gateway's, read in `/proc/<pid>/status` (VmRSS) and",
    '`/proc/<pid>/fd`; baseline and final figures are taken with the traffic paused and answered (1 s quiet).',
    '',
    `- Machine: ${meta.machine}`,
    `- Node: ${meta.node}`,
    `- Date: ${meta.date}`,
    `- Command: \`${meta.command}\``,
    `- Duration ${f.seconds} s, rate ${f.rate} operations/s, warm-up ${meta.warmupSeconds} s`,
    `- Operations ${f.operations}, calls ${f.calls}, ticks skipped because all slots were busy: ${f.skippedTicks}`,
    `- **Unexpected errors: ${f.unexpected}**${f.unexpectedSamples.length > 0 ? ` (${f.unexpectedSamples.join(' | ')})` : ''}`,
    `- **RSS after warm-up ${mib(f.baselineRss)} MiB → at the end ${mib(f.finalRss)} MiB: ${(f.rssGrowth * 100).toFixed(1)} %** (limit +${soakMaxRssGrowth * 100} %)`,
    `- **Open descriptors after warm-up ${f.baselineFds} → at the end ${f.finalFds}** (max sampled under load ${f.maxFds})`,
    `- Creates reaching the simulator ${f.createdAtSimulator}, unlinks ${f.unlinkedAtSimulator}; records left behind ${f.leftBehind}`,
    `- Result: ${meta.failures.length === 0 ? 'all checks passed' : `FAILED: ${meta.failures.join('; ')}`}`,
    '',
    '| calls | count |',
    '|---|---|',
    kinds,
    '',
    'Samples (every few):',
    '',
    '| t s | VmRSS MiB | open fds |',
    '|---|---|---|',
    rows,
  ].join('\n');
}
