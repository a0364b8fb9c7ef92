/**
 * BENCHMARKS.md holds one section per benchmark between `<!-- bench:NAME:start -->` and
 * `<!-- bench:NAME:end -->`: a run replaces its own section, or appends it the first time.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const benchmarksFile = new URL('../BENCHMARKS.md', import.meta.url);

/** Replaces (or appends) the marked section `name` of BENCHMARKS.md with `section`, markers included. */
export function writeBenchSection(name: string, section: string): void {
  const doc = readFileSync(benchmarksFile, 'utf8');
  const re = new RegExp(`<!-- bench:${name}:start -->[\\s\\S]*?<!-- bench:${name}:end -->`);
  writeFileSync(benchmarksFile, re.test(doc) ? doc.replace(re, () => section) : `${doc.trimEnd()}\n\n${section}\n`);
}
