/**
 * The corpus's answer literals (docs/architecture.md §7: "no literal from a conformance answer in `sim/` or
 * `src/`"): every string of 8 characters or more in a recorded legacy answer (`legacy_decoded`) or
 * JSON-2 answer, minus those that public material also contains (`fixtures/odoo-data/**`, the
 * reference documents). The rest must appear nowhere in the product or the simulator.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { Value } from '../../src/value.ts';
import type { ConformanceCase } from './load-cases.ts';

/** Shortest literal looked for. */
export const minLiteralLength = 8;

/** Every string value (not member names) of at least {@link minLiteralLength} characters in the corpus answers. */
export function answerLiterals(cases: readonly ConformanceCase[]): Map<string, string> {
  const out = new Map<string, string>(); // literal → first case id
  const walk = (v: Value | undefined, id: string): void => {
    if (typeof v === 'string') {
      if (v.length >= minLiteralLength && !out.has(v)) out.set(v, id);
    } else if (Array.isArray(v)) for (const x of v) walk(x, id);
    else if (v instanceof Map) for (const x of v.values()) walk(x, id);
  };
  for (const c of cases) {
    walk(c.legacyDecoded?.value, c.id);
    walk(c.json2?.responseBody, c.id);
  }
  return out;
}

/** Every file below `dir` (recursively), skipping `node_modules`. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = `${dir}/${name}`;
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** The forms a literal can take in a source or data file: as is, JSON-escaped, and escaped for a TS string. */
export function literalForms(literal: string): string[] {
  const json = JSON.stringify(literal).slice(1, -1);
  const single = json.replace(/\\"/g, '"').replace(/'/g, "\\'");
  return [...new Set([literal, json, single])];
}

/** The literals that occur in none of `texts` (in any of their {@link literalForms}). */
export function literalsNotIn(literals: Iterable<string>, texts: readonly string[]): string[] {
  return [...literals].filter((l) => !literalForms(l).some((form) => texts.some((t) => t.includes(form))));
}

/** Where each literal occurs among `files`: `[literal, file]` pairs. */
export function findLiterals(literals: readonly string[], files: readonly string[]): [string, string][] {
  const hits: [string, string][] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const l of literals) if (literalForms(l).some((form) => text.includes(form))) hits.push([l, file]);
  }
  return hits;
}
