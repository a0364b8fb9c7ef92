/**
 * The runner proves it can fail (docs/architecture.md §9, self-test): against the recorded answers themselves,
 * every case compares equal, and after corrupting three recorded answers in memory exactly those
 * three fail.
 */
import { describe, expect, it } from 'vitest';
import { compareLegacyAnswer } from './compare-case.ts';
import { loadCases, scopeOf } from './load-cases.ts';
import { chooseCorruptions, doubleToInt, faultTwoToOne, intToList, withRecordedBody } from './self-test.ts';

const legacyCases = loadCases().filter((c) => c.legacy !== undefined && scopeOf(c).kind === 'legacy');
const recordedAnswer = (c: (typeof legacyCases)[number]) => ({
  status: c.legacy?.status ?? 0,
  contentType: c.legacy?.responseContentType ?? '',
  body: c.legacy?.responseBody ?? '',
});

describe('the comparison, against the recording itself', () => {
  it('finds every recorded answer equal to itself', () => {
    const failing = legacyCases.filter((c) => compareLegacyAnswer(c, recordedAnswer(c)).length > 0).map((c) => c.id);
    expect(failing).toEqual([]);
  });
});

describe('self-test: three corrupted recorded answers', () => {
  const corruptions = chooseCorruptions(legacyCases);

  it('finds a case for each corruption', () => {
    expect(corruptions.map((k) => k.kind)).toEqual(['double-to-int', 'int-to-list', 'fault-2-to-1']);
  });

  it('fails exactly the three corrupted cases', () => {
    const corrupted = new Map(corruptions.map((k) => [k.caseId, k.body]));
    const failing = legacyCases
      .map((c) => (corrupted.has(c.id) ? withRecordedBody(c, corrupted.get(c.id) as string) : c))
      .filter((c, i) => compareLegacyAnswer(c, recordedAnswer(legacyCases[i] as (typeof legacyCases)[number])).length > 0)
      .map((c) => c.id);
    expect(failing.sort()).toEqual(corruptions.map((k) => k.caseId).sort());
  });
});

describe('corruptors', () => {
  it('turn a double into an int, an int into a list, fault 2 into fault 1', () => {
    expect(doubleToInt('<value><double>2240.0</double></value>')).toBe('<value><int>2240</int></value>');
    expect(intToList('<params>\n<param>\n<value><int>45</int></value>\n</param>')).toBe(
      '<params>\n<param>\n<value><array><data>\n<value><int>45</int></value>\n</data></array></value>\n</param>',
    );
    expect(faultTwoToOne('<name>faultCode</name>\n<value><int>2</int></value>')).toBe(
      '<name>faultCode</name>\n<value><int>1</int></value>',
    );
    expect(doubleToInt('<int>1</int>')).toBeUndefined();
  });
});
