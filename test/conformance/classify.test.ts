import { describe, expect, it } from 'vitest';
import { classify, loadDeviations, parseDeviations, type CaseOutcome } from './classify.ts';
import { loadCases, scopeOf } from './load-cases.ts';
import { notModelledById } from './not-modelled-cases.ts';

const cases = loadCases();
const outcome = (id: string, differences: CaseOutcome['differences'] = []): CaseOutcome => {
  const c = cases.find((x) => x.id === id);
  if (c === undefined) throw new Error(id);
  return { case: c, scope: scopeOf(c), section: 0, differences, notes: [] };
};
const diff = [{ path: 'result', message: 'x' }];

describe('parseDeviations()', () => {
  it('reads the case ids of - Corpus: lines with their section', () => {
    const md =
      '## `<base64>` values are accepted\n\n- Corpus: `types-base64-binary-field`, `types-node-base64`\n\n## Other\n- Corpus: none.\n' +
      '## Third\n- Corpus: none (the recorded `common-x` does not show it).\n';
    expect([...parseDeviations(md).values()]).toEqual([
      { caseId: 'types-base64-binary-field', title: '<base64> values are accepted' },
      { caseId: 'types-node-base64', title: '<base64> values are accepted' },
    ]);
  });

  it('reads the repository COMPATIBILITY.md', () => {
    expect(loadDeviations().has('types-base64-binary-field')).toBe(true);
  });
});

describe('classify()', () => {
  const none = new Map();
  it.each([
    ['a matching case', outcome('obj-read-xmlrpc1'), 'passed'],
    ['a differing case', outcome('obj-read-xmlrpc1', diff), 'failed'],
    ['a json2 case', outcome('err-json2-root'), 'json2-passed'],
    ['a differing json2 case', outcome('err-json2-root', diff), 'json2-failed'],
    ['a db case', outcome('db-list-xmlrpc2'), 'passed'],
    ['a web-database case', outcome('webdb-list'), 'json2-passed'],
    ['a case with a key the simulator cannot have', { ...outcome('auth-legacy-expired-key'), unbound: ['EXPIRED_KEY'] }, 'not-modelled'],
    ['a runner error', { ...outcome('obj-read-xmlrpc1'), runnerError: 'boom' }, 'failed'],
  ])('classifies %s', (_what, o, cls) => {
    expect(classify(o, none, none).class).toBe(cls);
  });

  it('reports an intended deviation, and a listed one that no longer differs as stale', () => {
    const deviations = new Map([['types-node-base64', { caseId: 'types-node-base64', title: 'base64' }]]);
    expect(classify(outcome('types-node-base64', diff), deviations, none)).toMatchObject({ class: 'deviation', reason: 'base64' });
    expect(classify(outcome('types-node-base64'), deviations, none).stale).toMatch(/answers exactly/);
  });

  it('holds not-modelled entries to their promise', () => {
    const listed = notModelledById([
      { id: 'obj-read-html-xmlrpc2', cause: 'simulator', topic: 'html', reason: 'html sanitising' },
      { id: 'types-uid-as-string', cause: 'corpus', reason: 'state' },
    ]);
    expect(classify(outcome('obj-read-html-xmlrpc2', diff), none, listed)).toMatchObject({
      class: 'not-modelled',
      reason: 'html sanitising',
    });
    expect(classify(outcome('obj-read-html-xmlrpc2'), none, listed)).toMatchObject({
      class: 'passed',
      stale: expect.stringMatching(/listed as not modelled/),
    });
    expect(classify({ ...outcome('types-uid-as-string', diff), relativeDifferences: [] }, none, listed).class).toBe('not-modelled');
    expect(classify({ ...outcome('types-uid-as-string', diff), relativeDifferences: diff }, none, listed).class).toBe('failed');
  });
});
