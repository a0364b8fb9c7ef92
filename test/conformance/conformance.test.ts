/**
 * Conformance: the whole corpus replayed in recorded order through the real gateway in front of
 * the simulator over HTTP (docs/architecture.md §9). One test per case — a failing case fails the suite;
 * intended deviations, not-modelled and out-of-scope cases pass but are reported — then the runner's
 * proofs that it can fail (live self-test, mutation test). The report is printed at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTable, createSignatureResolver, type BuiltinTable } from '../../src/signatures/index.ts';
import { isFailure, type ClassifiedOutcome } from './classify.ts';
import { compareLegacyAnswer } from './compare-case.ts';
import { loadCases, orderCases, scopeOf } from './load-cases.ts';
import { chooseCorruptions, withRecordedBody } from './self-test.ts';
import { runSuite, type SuiteResult } from './suite.ts';

const cases = orderCases(loadCases());
let result: SuiteResult | undefined;
const outcomeOf = (id: string): ClassifiedOutcome => {
  const o = result?.outcomes.find((x) => x.case.id === id);
  if (o === undefined) throw new Error(`the corpus run did not produce ${id} (see the beforeAll error)`);
  return o;
};

function failureText(o: ClassifiedOutcome): string {
  const lines = [`${o.case.id} (${o.case.description})${o.reason === undefined ? '' : `: ${o.reason}`}`];
  for (const d of o.differences) lines.push(`  ${d.path}: ${d.message}`);
  for (const n of o.notes) lines.push(`  note: ${n}`);
  return lines.join('\n');
}

beforeAll(async () => {
  result = await runSuite();
}, 120_000);

afterAll(() => {
  if (result !== undefined) console.log(result.report);
});

describe('conformance corpus, in recorded order', () => {
  for (const c of cases) {
    const scope = scopeOf(c);
    if (scope.kind === 'out-of-scope') {
      it.skip(`${c.id} (${scope.issue})`, () => {});
      continue;
    }
    it(c.id, () => {
      const o = outcomeOf(c.id);
      if (isFailure(o)) expect.fail(failureText(o));
    });
  }
});

describe('the runner proves it can fail', () => {
  it('self-test: corrupting three recorded answers fails exactly those three against the live answers', () => {
    const passed = (result?.outcomes ?? []).filter(
      (o) => o.class === 'passed' && o.actual !== undefined && o.case.protocol.startsWith('xmlrpc'),
    );
    const corruptions = chooseCorruptions(passed.map((o) => o.case));
    expect(corruptions.map((k) => k.kind)).toEqual(['double-to-int', 'int-to-list', 'fault-2-to-1']);
    const corrupted = new Map(corruptions.map((k) => [k.caseId, k.body]));
    const failing = passed
      .filter((o) => {
        const c = corrupted.has(o.case.id) ? withRecordedBody(o.case, corrupted.get(o.case.id) as string) : o.case;
        const ids = o.idsAtCompare;
        return (
          compareLegacyAnswer(c, o.actual as NonNullable<typeof o.actual>, ids === undefined ? undefined : (id) => ids.get(id)).length > 0
        );
      })
      .map((o) => o.case.id);
    expect(failing.sort()).toEqual([...corrupted.keys()].sort());
  });

  it('mutation: swapping offset and limit of BaseModel.search makes object cases fail', async () => {
    const table = structuredClone<BuiltinTable>(builtinTable);
    const row = table.signatures['BaseModel.search'];
    if (row === undefined) throw new Error('BaseModel.search is not in the built-in table');
    const [domain, offset, limit, ...rest] = row[1];
    expect([offset?.[0], limit?.[0]]).toEqual(['offset', 'limit']);
    row[1] = [domain, limit, offset, ...rest] as (typeof row)[1];
    const mutated = await runSuite({ gateway: { signatures: createSignatureResolver({ table }) }, only: (c) => c.category === 'object' });
    const passedBefore = new Set((result?.outcomes ?? []).filter((o) => o.class === 'passed').map((o) => o.case.id));
    const broken = mutated.outcomes.filter((o) => isFailure(o) && passedBefore.has(o.case.id)).map((o) => o.case.id);
    console.log(
      `mutation test: ${broken.length} object cases that pass with the real table fail with offset/limit swapped: ${broken.join(', ')}`,
    );
    expect(broken.length).toBeGreaterThan(0);
  }, 60_000);
});
