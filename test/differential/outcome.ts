/**
 * What the differential tester makes of a pair of answers (Odoo's own endpoint, the gateway): equal,
 * an intended deviation (a `- Shadow:` rule of COMPATIBILITY.md), or a difference with a cause key
 * that groups alike differences (numbers, ids and quoted names masked).
 */
import type { Difference } from '../../src/cutover/compare/compare.ts';
import { viewAnswer, type AnswerView } from '../../src/cutover/shadow/answer-view.ts';
import { compareAnswers, type HttpAnswer } from '../../src/cutover/shadow/compare-answers.ts';
import { explainDifference, intendedDeviations } from '../../src/cutover/shadow/intended.ts';
import { PyBinary, PyDateTime, type Value } from '../../src/value.ts';
import type { Dialect } from './generate.ts';

/**
 * COMPATIBILITY.md sections about value types: a difference in a call that carries such a value is
 * that deviation (the value reaches Odoo as something else, so every message about it differs).
 */
export const valueDeviations: readonly { title: string; carries: (v: Value) => boolean }[] = [
  // titles as the `- Shadow:` rules name their sections (code spans without backticks)
  { title: 'XML-RPC dateTime values reach Odoo as text', carries: (v) => v instanceof PyDateTime },
  { title: '<base64> values are accepted', carries: (v) => v instanceof PyBinary },
];

function carries(v: Value, test: (v: Value) => boolean): boolean {
  if (test(v)) return true;
  if (Array.isArray(v)) return v.some((x) => carries(x, test));
  if (v instanceof Map) return [...v.values()].some((x) => carries(x, test));
  return false;
}

/**
 * `odoo-varies`: the answers differ only where Odoo's own answer changes from one call to the next
 * (counted with the calls Odoo answered otherwise when asked again).
 */
export type Outcome =
  | { kind: 'equal' }
  | { kind: 'odoo-varies' }
  | { kind: 'intended'; title: string }
  | { kind: 'differs'; cause: string; differences: Difference[] };

/**
 * An object JSON cannot carry is written as its `repr()` (Odoo's `json_default`), `<… object at
 * 0x7f8b…>`: the address is the object's `id()`, another on each call — though CPython may hand a
 * freed address out again, so asking Odoo twice can give the same text.
 */
const objectAddress = / object at 0x[0-9a-f]+>/g;

function withoutObjectAddresses(answer: HttpAnswer): HttpAnswer {
  return { ...answer, body: answer.body.replace(objectAddress, ' object at 0x…>') };
}

const deviations = intendedDeviations();

/** Numbers, quoted names and record tuples masked, so one cause is one key whatever the data. */
export function maskText(text: string): string {
  return text
    .replace(/'[^'\n]*'|"[^"\n]*"/g, '‹q›')
    .replace(/\b\d+(\.\d+)?\b/g, 'N')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 160);
}

/** The last line a client reads of an answer: a result's type, a fault's code and exception line, an HTTP status. */
export function summarize(answer: HttpAnswer, view: AnswerView): string {
  if (view.kind === 'result') {
    const v = view.value;
    const type = v === null ? 'None' : Array.isArray(v) ? 'list' : v instanceof Map ? 'dict' : typeof v;
    return `result ${type}`;
  }
  if (view.kind === 'fault') {
    const lines = view.text.trimEnd().split('\n');
    return `fault ${maskText(view.code.split('\n')[0] ?? '')}: ${maskText(lines.at(-1) ?? '')}`;
  }
  return `HTTP ${answer.status} ${answer.contentType.split(';')[0]}`;
}

/** Compares the gateway's answer with Odoo's; `family` names what the call exercises. */
export function judge(
  dialect: Dialect,
  family: string,
  service: string,
  method: string,
  odoo: HttpAnswer,
  gateway: HttpAnswer,
  params: Value[] = [],
): Outcome {
  const differences = compareAnswers(dialect, gateway, odoo);
  if (differences.length === 0) return { kind: 'equal' };
  if (compareAnswers(dialect, withoutObjectAddresses(gateway), withoutObjectAddresses(odoo)).length === 0) return { kind: 'odoo-varies' };
  const odooView = viewAnswer(dialect, odoo.body);
  const gatewayView = viewAnswer(dialect, gateway.body);
  const title = explainDifference(deviations, { service, method }, gatewayView, odooView);
  if (title !== undefined) return { kind: 'intended', title };
  const byValue = valueDeviations.find((d) => carries(params, d.carries));
  if (byValue !== undefined) return { kind: 'intended', title: byValue.title };
  const same = summarize(odoo, odooView) === summarize(gateway, gatewayView);
  const where = same ? ` (${maskText(differences[0]?.path ?? '')})` : '';
  return {
    kind: 'differs',
    cause: `${family}: Odoo ${summarize(odoo, odooView)} | gateway ${summarize(gateway, gatewayView)}${where}`,
    differences,
  };
}
