/**
 * Puts each replayed case in one class — passed, failed, intended deviation, not modelled, json2
 * (an upstream exchange checked against the simulator: JSON-2 or the web session routes), out of
 * scope — from its differences, `COMPATIBILITY.md`'s `- Corpus:` lines and `not-modelled-cases.ts`.
 */
import { readFileSync } from 'node:fs';
import type { Difference } from '../../src/cutover/compare/compare.ts';
import { parseDeviations, type Deviation } from '../../src/cutover/compare/deviations.ts';
import type { ConformanceCase, Scope } from './load-cases.ts';
import type { NotModelledEntry } from './not-modelled-cases.ts';

export { parseDeviations, type Deviation } from '../../src/cutover/compare/deviations.ts';

/** `COMPATIBILITY.md` at the repository root. */
export const compatibilityUrl = new URL('../../COMPATIBILITY.md', import.meta.url);

/** The deviations of the repository's `COMPATIBILITY.md`. */
export function loadDeviations(): Map<string, Deviation> {
  return parseDeviations(readFileSync(compatibilityUrl, 'utf8'));
}

/** The class a case ends in. */
export type CaseClass = 'passed' | 'failed' | 'deviation' | 'not-modelled' | 'json2-passed' | 'json2-failed' | 'out-of-scope';

/** What the run observed for a case (before classification). */
export interface CaseOutcome {
  case: ConformanceCase;
  scope: Scope;
  section: number;
  /** Every difference found; empty means the answer matched. */
  differences: Difference[];
  /** Runner notes: substitutions made, stand-in records, ids learned, placeholders learned. */
  notes: string[];
  /** Keys or sessions the run could not provide; the case was not sent. */
  unbound?: string[];
  /** For `cause: 'corpus'` entries: does the gateway agree with the simulator's own JSON-2 answer? */
  relativeDifferences?: Difference[];
  /** The answer, when one was received. */
  actual?: { status: number; contentType: string; body: string };
  /** Recorded id → run id, as the comparison of this case used them (for re-comparing later). */
  idsAtCompare?: ReadonlyMap<bigint, bigint>;
  /** The runner itself failed on this case (a bug to fix in the runner). */
  runnerError?: string;
}

/** A classified outcome. */
export interface ClassifiedOutcome extends CaseOutcome {
  class: CaseClass;
  /** Why the case is in its class (deviation title, not-modelled reason, scope reason). */
  reason?: string;
  /** A listing that no longer matches reality (a not-modelled case that now passes, a deviation that no longer differs). */
  stale?: string;
}

/** Classifies one outcome. */
export function classify(
  outcome: CaseOutcome,
  deviations: ReadonlyMap<string, Deviation>,
  notModelled: ReadonlyMap<string, NotModelledEntry>,
): ClassifiedOutcome {
  const id = outcome.case.id;
  if (outcome.scope.kind === 'out-of-scope')
    return { ...outcome, class: 'out-of-scope', reason: `${outcome.scope.issue}: ${outcome.scope.reason}` };
  if (outcome.runnerError !== undefined) return { ...outcome, class: 'failed', reason: `runner error: ${outcome.runnerError}` };
  if (outcome.unbound !== undefined && outcome.unbound.length > 0) {
    return {
      ...outcome,
      class: 'not-modelled',
      reason: `needs ${outcome.unbound.map((n) => `<${n}>`).join(', ')}, which the corpus never shows being made and the run cannot provide`,
    };
  }
  const entry = notModelled.get(id);
  const clean = outcome.differences.length === 0;
  if (entry !== undefined) {
    if (clean)
      return {
        ...outcome,
        class: outcome.scope.kind === 'json2' ? 'json2-passed' : 'passed',
        stale: `listed as not modelled (${entry.reason}) but matches the recording`,
      };
    // A legacy case blamed on corpus state must still agree with the simulator's own JSON-2 answer.
    if (
      entry.cause === 'corpus' &&
      outcome.scope.kind === 'legacy' &&
      (outcome.relativeDifferences ?? [{ path: '', message: 'no relative check' }]).length > 0
    ) {
      return {
        ...outcome,
        class: 'failed',
        reason: `listed as corpus state, but the gateway also disagrees with the simulator's own JSON-2 answer`,
      };
    }
    return { ...outcome, class: 'not-modelled', reason: entry.reason };
  }
  if (outcome.scope.kind === 'json2') return { ...outcome, class: clean ? 'json2-passed' : 'json2-failed' };
  const deviation = deviations.get(id);
  if (deviation !== undefined) {
    return {
      ...outcome,
      class: 'deviation',
      reason: deviation.title,
      ...(clean ? { stale: 'listed in COMPATIBILITY.md but answers exactly as recorded' } : {}),
    };
  }
  return { ...outcome, class: clean ? 'passed' : 'failed' };
}

/** True when a classified case must fail the suite. */
export function isFailure(c: ClassifiedOutcome): boolean {
  return c.class === 'failed' || c.class === 'json2-failed';
}
