import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { damagedJsonText, jsonText } from '../../test/support/json-texts.ts';
import { isStruct, type Value } from '../value.ts';
import { isCanonicalJson, parseJson, stringifyJson } from './index.ts';

/** The written form of `text`, or `undefined` where `parseJson` refuses it. */
function rewritten(text: string, maxDepth: number): string | undefined {
  try {
    return stringifyJson(parseJson(text, { maxDepth }), { python: true });
  } catch {
    return undefined;
  }
}

/** The check may only say yes where parsing and writing give the text back. */
function expectSound(text: string, maxDepth = 256): boolean {
  const canonical = isCanonicalJson(text, maxDepth);
  if (canonical) expect(rewritten(text, maxDepth)).toBe(text);
  return canonical;
}

/** JSON.stringify escapes a lone surrogate; the check refuses those rather than reason about them. */
const holdsLoneSurrogate = (text: string) => /\\ud[89a-f][0-9a-f]{2}/.test(text);

describe('isCanonicalJson()', () => {
  it.each([
    ['a search_read answer', '[{"id": 9, "name": "Acme", "country_id": [233, "United States"], "is_company": true, "amount": 2240.0}]'],
    ['scalars', '[true, false, null, NaN, Infinity, -Infinity, 0, -5, 1e+16, 1e-05, 0.1, 123456789012345678901234567890]'],
    ['short escapes and control characters', '["a\\"b\\\\c\\n\\t\\r\\b\\f", "\\u0001\\u001f", "é€😀 \u2028\u007f"]'],
    ['empty containers', '[[], {}, {"a": []}]'],
    ['a bare value', '"x"'],
  ])('accepts %s', (_what, text) => {
    expect(expectSound(text)).toBe(true);
  });

  it.each([
    ['other spacing', '[1,2]'],
    ['a space around', ' [1]'],
    ['a newline', '[1,\n2]'],
    ['a float not in repr form', '[2240.00]'],
    ['an exponent Python would not write', '[1E5]'],
    ['-0', '[-0]'],
    ['an escaped slash', '["a\\/b"]'],
    ['a needless \\u escape', '["\\u0041"]'],
    ['an uppercase \\u escape', '["\\u001F"]'],
    ['a \\u escape with a short form', '["\\u000a"]'],
    ['a lone surrogate', '["\ud800"]'],
    ['a repeated name', '{"a": 1, "a": 2}'],
    ['a repeated name after the template', '[{"a": 1, "b": 2}, {"a": 1, "b": 2, "a": 3}]'],
    ['nesting beyond the limit', '[[[[[1]]]]]'],
    ['malformed JSON', '[1, 2'],
  ])('refuses %s', (_what, text) => {
    expect(expectSound(text, 4)).toBe(false);
  });

  it('accepts what stringifyJson writes for every corpus value, and only what it gives back', () => {
    const dir = new URL('../../fixtures/conformance/cases/', import.meta.url);
    let checked = 0;
    for (const file of readdirSync(dir)) {
      const c = parseJson(readFileSync(new URL(file, dir), 'utf8'));
      if (!isStruct(c)) continue;
      for (const value of [
        (c.get('json2') as Map<string, Value> | undefined)?.get('response_body'),
        (c.get('legacy_decoded') as Map<string, Value> | undefined)?.get('value'),
      ]) {
        if (value === undefined) continue;
        const text = stringifyJson(value, { python: true });
        expect(expectSound(text) || holdsLoneSurrogate(text)).toBe(true);
        expectSound(stringifyJson(value));
        expectSound(stringifyJson(value, { python: true, ensureAscii: true }));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('accepts random texts once written, and only what gives them back', () => {
    fc.assert(
      fc.property(jsonText, fc.constantFrom(3, 256), (text, maxDepth) => {
        expectSound(text, maxDepth);
        const written = rewritten(text, maxDepth);
        if (written !== undefined) expect(expectSound(written, maxDepth) || holdsLoneSurrogate(written)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses damaged texts unless they still give themselves back', () => {
    fc.assert(
      fc.property(damagedJsonText, (text) => {
        expectSound(text);
        const written = rewritten(text, 256);
        if (written !== undefined) expectSound(written.slice(0, -1));
      }),
      { numRuns: 3000 },
    );
  });
});
