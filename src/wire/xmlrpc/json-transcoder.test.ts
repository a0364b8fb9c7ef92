/**
 * Differential tests: the transcoder against its oracle, `encodeResponse(parseJson(text))`, on every
 * corpus value and on random JSON texts (well-formed and damaged), under every marshal option.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { damagedJsonText, jsonText } from '../../../test/support/json-texts.ts';
import { LegacyError } from '../../errors.ts';
import { parseJson, stringifyJson } from '../../json/index.ts';
import { isStruct, type Value } from '../../value.ts';
import { encodeResponse, resultHead, resultTail, type MarshalOptions } from './encode.ts';
import { createTranscoderScratch, JsonTranscoder } from './json-transcoder.ts';

const optionSets: MarshalOptions[] = [
  { nullAs: 'fault', bigIntAs: 'fault' },
  { nullAs: 'nil', bigIntAs: 'i8' },
  { nullAs: 'false', bigIntAs: 'fault' },
];

/** What the tree path writes for `text`, or `undefined` where it faults (bad JSON or unmarshallable). */
function oracle(text: string, opts: MarshalOptions, maxDepth: number): string | undefined {
  let value: Value;
  try {
    value = parseJson(text, { maxDepth });
  } catch {
    return undefined;
  }
  const out = encodeResponse(value, opts);
  return out instanceof LegacyError ? undefined : out.toString('utf8');
}

/** The text as the client gets it: UTF-8, a lone surrogate written as U+FFFD (valid UTF-8 both ways, so equal texts are equal bytes). */
function onTheWire(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** One working memory for every one-pass run, as encode-json.ts shares one: names of earlier texts stay as templates. */
const sharedScratch = createTranscoderScratch();

/**
 * The transcoder's whole answer, read `size` characters at a time (in one pass on the shared working
 * memory, or in pieces on its own), and its counted UTF-8 length.
 */
function transcode(text: string, opts: MarshalOptions, maxDepth: number, size = Infinity): { xml: string; bytes: number } | undefined {
  const transcoder = new JsonTranscoder(text, opts, maxDepth, true, size === Infinity ? sharedScratch : createTranscoderScratch());
  let body = '';
  do {
    const piece = transcoder.next(size);
    if (piece === undefined) return undefined;
    body += piece;
  } while (!transcoder.done);
  const xml = resultHead + body + resultTail;
  return { xml, bytes: Buffer.byteLength(resultHead) + transcoder.utf8Length(body.length) + Buffer.byteLength(resultTail) };
}

/**
 * The transcoder never writes what the oracle does not: where it answers, the answer and its byte
 * count are the oracle's; where the oracle faults, it declines. `mustAnswer`: it may not decline.
 */
function expectSameAsOracle(text: string, opts: MarshalOptions, maxDepth = 256, mustAnswer = false, size = Infinity): boolean {
  const expected = oracle(text, opts, maxDepth);
  const got = transcode(text, opts, maxDepth, size);
  if (expected === undefined) expect(got).toBeUndefined();
  if (got !== undefined) {
    expect(onTheWire(got.xml)).toBe(expected);
    expect(got.bytes).toBe(Buffer.byteLength(got.xml));
  } else if (mustAnswer) expect.fail(`declined ${JSON.stringify(text.slice(0, 200))}`);
  return got !== undefined;
}

// ------------------------------------------------------------------ the corpus

/** Every JSON value the corpus holds: JSON-2 answers and decoded legacy answers. */
function corpusValues(): [string, Value][] {
  const dir = new URL('../../../fixtures/conformance/cases/', import.meta.url);
  const out: [string, Value][] = [];
  for (const file of readdirSync(dir).sort()) {
    const c = parseJson(readFileSync(new URL(file, dir), 'utf8'));
    if (!isStruct(c)) continue;
    const json2 = c.get('json2');
    if (json2 instanceof Map && json2.has('response_body')) out.push([`${file} json2`, json2.get('response_body') as Value]);
    const decoded = c.get('legacy_decoded');
    if (decoded instanceof Map && decoded.has('value')) out.push([`${file} legacy`, decoded.get('value') as Value]);
  }
  return out;
}

describe('JsonTranscoder against encodeResponse(parseJson()) on the corpus', () => {
  const values = corpusValues();
  it('has the corpus values to compare', () => {
    expect(values.length).toBeGreaterThan(300);
  });
  it.each(values)('%s', (_name, value) => {
    for (const text of [
      stringifyJson(value, { python: true }),
      stringifyJson(value),
      stringifyJson(value, { python: true, ensureAscii: true }),
    ]) {
      for (const opts of optionSets) expectSameAsOracle(text, opts);
      expectSameAsOracle(text, optionSets[0]!, 256, false, 7); // in small pieces
    }
  });
});

// ------------------------------------------------------------------ hand-picked cases

describe('JsonTranscoder on hand-picked texts', () => {
  it.each([
    ['ints at the 32-bit limits', '[2147483647, -2147483648, 0, -0, 7]'],
    ['floats in Python repr', '[0.1, 1e16, 1E-7, -0.0, 2240.0, 1e400, -1e400, 123.456e+2, 5e-324]'],
    ['non-finite literals', '[NaN, Infinity, -Infinity]'],
    ['booleans', '[true, false]'],
    ['strings to escape and strip', '["a&b<c>d", "x\\u0001y\\tz\\n", "\\u0026\\u003c", "caf\\u00e9", "\\ud83d\\ude00", "\\/"]'],
    ['raw non-ASCII and lone surrogates', '["Zoë 🙂", "\ud800", "a\udc00b", "\\ud800", "\ud83d\\ude00"]'],
    ['names escaped, control characters kept', '{"a&b": 1, "<k>": 2, "c\\u0001": 3, "\\u00e9": 4, "__proto__": 5, "1": 6, "0": 7}'],
    ['empty containers', '[[], {}, [[]], {"a": {}}]'],
    ['whitespace everywhere', ' \n\t\r[ 1 ,\n{ "a" : [ ] } , "x" ]\r\n '],
    ['a bare string', '"only"'],
    ['a bare int', '42'],
  ])('%s', (_what, text) => {
    for (const opts of optionSets) expectSameAsOracle(text, opts, 256, true);
  });

  it.each([
    ['None where the marshaller faults', '[1, null]', optionSets[0]!],
    ['an int beyond 32 bits', '[2147483648]', optionSets[0]!],
    ['a big int beyond 64 bits', '{"a": 123456789012345678901234567890}', optionSets[2]!],
    ['a repeated name (the tree keeps one entry)', '{"a": 1, "b": 2, "a": 3}', optionSets[1]!],
    ['a repeated name spelled with an escape', '{"a": 1, "\\u0061": null}', optionSets[1]!],
    ['malformed JSON', '[1, 2', optionSets[1]!],
    ['extra data', '[1] [2]', optionSets[1]!],
    ['a trailing comma', '{"a": 1,}', optionSets[1]!],
    ['a raw control character', '["a\u0001"]', optionSets[1]!],
    ['nesting beyond the limit', `${'['.repeat(5)}${']'.repeat(5)}`, optionSets[1]!],
  ])('declines on %s', (_what, text, opts) => {
    expect(transcode(text, opts, 4)).toBeUndefined();
    expectSameAsOracle(text, opts, 4);
  });

  it('writes a null as the options say: no newline after <nil/>', () => {
    expect(transcode('[null]', optionSets[1]!, 8)?.xml).toBe(
      `${resultHead}<value><array><data>\n<value><nil/></value></data></array></value>\n${resultTail}`,
    );
  });

  it('declines at the marshaller’s nesting limit even when --max-depth allows more', () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(transcode(deep(1000), optionSets[1]!, 5000)).toBeDefined();
    expect(transcode(deep(1001), optionSets[1]!, 5000)).toBeUndefined();
    expect(oracle(deep(1001), optionSets[1]!, 5000)).toBeUndefined();
  });

  it('tells many distinct names apart and finds a repeated one among them', () => {
    const names = Array.from({ length: 300 }, (_, i) => `"field_${i}": ${i}`);
    expectSameAsOracle(`{${names.join(', ')}}`, optionSets[0]!, 256, true);
    expect(transcode(`{${names.join(', ')}, "field_150": 0}`, optionSets[0]!, 256)).toBeUndefined();
    // the same names again in the next object are no repetition
    expectSameAsOracle(`[{${names.join(', ')}}, {${names.join(', ')}}]`, optionSets[0]!, 256, true);
  });

  it('gives the same text whatever the piece size', () => {
    const text = readFileSync(new URL('../../../fixtures/conformance/cases/obj-read-html-xmlrpc2.json', import.meta.url), 'utf8');
    for (const size of [1, 2, 3, 64, 1000]) expectSameAsOracle(text, optionSets[1]!, 256, true, size);
  });
});

// ------------------------------------------------------------------ random documents

describe('JsonTranscoder on random JSON texts', () => {
  it.each(optionSets.map((o) => [`${o.nullAs}/${o.bigIntAs}`, o] as const))(
    'matches the oracle on well-formed texts (%s)',
    (_name, opts) => {
      let answered = 0;
      fc.assert(
        fc.property(jsonText, fc.constantFrom(Infinity, 1, 5, 40), fc.constantFrom(3, 256), (t, size, maxDepth) => {
          if (expectSameAsOracle(t, opts, maxDepth, false, size)) answered++;
        }),
        { numRuns: 3000 },
      );
      // most texts are written, not declined: the comparison covers the transcoder's own output
      expect(answered).toBeGreaterThan(1500);
    },
  );

  it('matches the oracle on damaged texts', () => {
    fc.assert(
      fc.property(damagedJsonText, fc.constantFrom(...optionSets), (t, opts) => {
        expectSameAsOracle(t, opts);
      }),
      { numRuns: 3000 },
    );
  });
});
