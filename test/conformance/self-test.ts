/**
 * The runner's self-test (docs/architecture.md §9): three kinds of corruption of a recorded answer that a typed
 * client would notice — a `<double>` turned `<int>`, an int answered as a one-item list, fault code
 * 2 turned 1 — and the choice of cases to corrupt. The comparison must fail exactly those cases.
 */
import type { ConformanceCase } from './load-cases.ts';

/** One corruption: which case, what the recorded body becomes. */
export interface Corruption {
  kind: 'double-to-int' | 'int-to-list' | 'fault-2-to-1';
  caseId: string;
  body: string;
}

/** `<double>2240.0</double>` → `<int>2240</int>` (the first double of the body). */
export function doubleToInt(body: string): string | undefined {
  const m = /<double>(-?\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?<\/double>/.exec(body);
  return m === null ? undefined : body.replace(m[0], `<int>${m[1]}</int>`);
}

/** A scalar int result `45` → `[45]`. */
export function intToList(body: string): string | undefined {
  const m = /(<params>\n<param>\n)(<value><int>-?\d+<\/int><\/value>)(\n<\/param>)/.exec(body);
  return m === null ? undefined : body.replace(m[0], `${m[1]}<value><array><data>\n${m[2]}\n</data></array></value>${m[3]}`);
}

/** faultCode 2 → 1. */
export function faultTwoToOne(body: string): string | undefined {
  const marker = '<name>faultCode</name>\n<value><int>2</int></value>';
  return body.includes(marker) ? body.replace(marker, '<name>faultCode</name>\n<value><int>1</int></value>') : undefined;
}

const corruptors: [Corruption['kind'], (body: string) => string | undefined][] = [
  ['double-to-int', doubleToInt],
  ['int-to-list', intToList],
  ['fault-2-to-1', faultTwoToOne],
];

/**
 * Picks one case per corruption among `candidates` (XML-RPC cases whose recorded answer has no
 * volatile value), a different case each time, and returns the corrupted bodies.
 */
export function chooseCorruptions(candidates: readonly ConformanceCase[]): Corruption[] {
  const used = new Set<string>();
  const out: Corruption[] = [];
  for (const [kind, corrupt] of corruptors) {
    for (const c of candidates) {
      if (used.has(c.id) || c.legacy === undefined || !c.protocol.startsWith('xmlrpc')) continue;
      if (c.volatile.some((v) => v === 'legacy_decoded.value' || v === 'legacy.response_body')) continue;
      const body = corrupt(c.legacy.responseBody);
      if (body === undefined) continue;
      used.add(c.id);
      out.push({ kind, caseId: c.id, body });
      break;
    }
  }
  return out;
}

/** A copy of the case whose recorded answer is `body`. */
export function withRecordedBody(c: ConformanceCase, body: string): ConformanceCase {
  if (c.legacy === undefined) return c;
  return { ...c, legacy: { ...c.legacy, responseBody: body } };
}
