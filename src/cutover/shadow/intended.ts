/**
 * The intended deviations of COMPATIBILITY.md on live traffic: a difference between the gateway's
 * answer and the legacy endpoint's is "intended", not "differs", when a `- Shadow:` rule of a
 * deviation's section describes it. The rules are read from COMPATIBILITY.md by the parser the
 * conformance runner uses (`src/cutover/compare/deviations.ts`) and kept in `intended-rules.generated.ts`
 * (`npm run gen:cutover`; a test keeps the two in step), so the product never reads the file.
 *
 * Grammar, one rule per code span on the `- Shadow:` line:
 * - `gateway fault "<text>"`: the gateway answered a fault whose text contains `<text>`;
 * - `legacy fault "<text>"`: the legacy endpoint answered a fault whose text contains `<text>`;
 * - `legacy access denied`: the legacy endpoint refused the credentials where the gateway answered;
 * - `same fault without /<regex>/`: both answered a fault, the same once `<regex>`'s matches are cut;
 * - `same result without /<regex>/`: both answered a result, the same once `<regex>`'s matches are cut from its texts;
 * - `result subset for <service>.<method>`: both answered a list, the gateway's items all in legacy's;
 * - `result false for <service>.<method>`: the gateway answered False where legacy answered True.
 */
import type { ShadowRules } from '../compare/deviations.ts';
import type { AnswerView } from './answer-view.ts';
import { compatibilityShadowRules } from './intended-rules.generated.ts';

/** The call a pair of answers belongs to. */
export interface CallName {
  service: string;
  method: string;
}

type Matcher = (call: CallName, gateway: AnswerView, legacy: AnswerView) => boolean;

/** One deviation, ready to test answer pairs. */
export interface IntendedDeviation {
  title: string;
  matches: Matcher;
}

const sameItems = (a: unknown, b: unknown) =>
  JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v instanceof Map ? [...v] : v)) ===
  JSON.stringify(b, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v instanceof Map ? [...v] : v));

/** `value` with `cut`'s matches taken out of every string in it (dict keys included). */
function cutTexts(value: unknown, cut: RegExp): unknown {
  if (typeof value === 'string') return value.replace(cut, '');
  if (Array.isArray(value)) return value.map((v) => cutTexts(v, cut));
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [cutTexts(k, cut), cutTexts(v, cut)]));
  return value;
}

/** Turns one rule into a matcher; throws on a rule outside the grammar (a test runs every rule of the file). */
export function parseRule(rule: string): Matcher {
  let m = /^(gateway|legacy) fault "(.+)"$/.exec(rule);
  if (m !== null) {
    const side = m[1];
    const text = m[2] as string;
    return (_call, gateway, legacy) => {
      const answer = side === 'gateway' ? gateway : legacy;
      return answer.kind === 'fault' && answer.text.includes(text);
    };
  }
  if (rule === 'legacy access denied')
    return (_call, gateway, legacy) => legacy.kind === 'fault' && legacy.accessDenied && gateway.kind === 'result';
  m = /^same fault without \/(.+)\/$/.exec(rule);
  if (m !== null) {
    const cut = new RegExp(m[1] as string, 'g');
    return (_call, gateway, legacy) =>
      gateway.kind === 'fault' &&
      legacy.kind === 'fault' &&
      gateway.text !== legacy.text &&
      gateway.text.replace(cut, '') === legacy.text.replace(cut, '');
  }
  m = /^same result without \/(.+)\/$/.exec(rule);
  if (m !== null) {
    const cut = new RegExp(m[1] as string, 'g');
    return (_call, gateway, legacy) =>
      gateway.kind === 'result' &&
      legacy.kind === 'result' &&
      !sameItems(gateway.value, legacy.value) &&
      sameItems(cutTexts(gateway.value, cut), cutTexts(legacy.value, cut));
  }
  m = /^result (subset|false) for ([\w.]+)\.(\w+)$/.exec(rule);
  if (m !== null) {
    const [, kind, service, method] = m as unknown as [string, string, string, string];
    return (call, gateway, legacy) => {
      if (call.service !== service || call.method !== method || gateway.kind !== 'result' || legacy.kind !== 'result') return false;
      if (kind === 'false') return gateway.value === false && legacy.value === true;
      const mine = gateway.value;
      const theirs = legacy.value;
      return Array.isArray(mine) && Array.isArray(theirs) && mine.every((item) => theirs.some((other) => sameItems(item, other)));
    };
  }
  throw new Error(`COMPATIBILITY.md: a - Shadow: rule outside the grammar: ${JSON.stringify(rule)}`);
}

/** The deviations whose rules `sections` hold, in document order. */
export function intendedDeviations(sections: readonly ShadowRules[] = compatibilityShadowRules): IntendedDeviation[] {
  return sections.map(({ title, rules }) => {
    const matchers = rules.map(parseRule);
    return { title, matches: (call, gateway, legacy) => matchers.some((match) => match(call, gateway, legacy)) };
  });
}

/** The title of the first deviation that explains the pair, or undefined. */
export function explainDifference(
  deviations: readonly IntendedDeviation[],
  call: CallName,
  gateway: AnswerView,
  legacy: AnswerView,
): string | undefined {
  return deviations.find((d) => d.matches(call, gateway, legacy))?.title;
}
