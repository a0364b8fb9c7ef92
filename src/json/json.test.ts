import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyBinary, PyDateTime, PyFloat, type Value } from '../value.ts';
import { JsonSyntaxError, parseJson, stringifyJson, stringifyJsonBytes } from './index.ts';

describe('parseJson()', () => {
  it('keeps float-ness of integral floats', () => {
    const v = parseJson('[2240.0, 2240, 1e3, -0.0]') as Value[];
    expect(v[0]).toEqual(new PyFloat(2240));
    expect(v[1]).toBe(2240);
    expect(v[2]).toEqual(new PyFloat(1000));
    expect(stringifyJson(v)).toBe('[2240.0,2240,1000.0,-0.0]');
  });

  it('keeps every digit of big integers', () => {
    expect(parseJson('9007199254740993')).toBe(9007199254740993n);
    expect(parseJson('-123456789012345678901234567890')).toBe(-123456789012345678901234567890n);
    expect(parseJson('9007199254740991')).toBe(9007199254740991);
    expect(stringifyJson(parseJson('[9007199254740993, 1]'))).toBe('[9007199254740993,1]');
  });

  it('keeps member order, integer-like keys included, and odd names', () => {
    const v = parseJson('{"b": 1, "2": 2, "1": 3, "__proto__": 4}');
    expect([...(v as Map<string, Value>).keys()]).toEqual(['b', '2', '1', '__proto__']);
    expect(stringifyJson(v, { python: true })).toBe('{"b": 1, "2": 2, "1": 3, "__proto__": 4}');
  });

  it('keeps the first position and the last value of a duplicate key, like a Python dict', () => {
    expect(stringifyJson(parseJson('{"a": 1, "b": 2, "a": 3}'))).toBe('{"a":3,"b":2}');
  });

  it('decodes escapes and surrogate pairs', () => {
    expect(parseJson('"a\\u00e9\\ud83d\\ude00\\n\\"\\\\\\/"')).toBe('aé😀\n"\\/');
  });

  it('accepts NaN and Infinity as Python does', () => {
    expect(stringifyJson(parseJson('[NaN, Infinity, -Infinity]'))).toBe('[NaN,Infinity,-Infinity]');
  });

  it.each([
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['{1: 2}', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
    ['[1]x', 'Extra data: line 1 column 4 (char 3)'],
    ['"a\nb"', 'Invalid control character at: line 1 column 3 (char 2)'],
    ['\n\n  tru', 'Expecting value: line 3 column 3 (char 4)'],
  ])('rejects %j with Python wording', (text, message) => {
    expect(() => parseJson(text)).toThrow(JsonSyntaxError);
    expect(() => parseJson(text)).toThrow(message);
  });

  it('refuses nesting deeper than maxDepth without overflowing the stack', () => {
    expect(() => parseJson('['.repeat(100_000))).toThrow(/nesting depth exceeds 512/);
    expect(() => parseJson('[[[1]]]', { maxDepth: 2 })).toThrow(/nesting depth exceeds 2/);
  });

  it('round-trips any JSON the native parser accepts, same values', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const ours = JSON.parse(stringifyJson(parseJson(text)));
        expect(ours).toEqual(JSON.parse(text));
      }),
    );
  });

  it('never throws anything but JsonSyntaxError on random text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          parseJson(text);
        } catch (e) {
          expect(e).toBeInstanceOf(JsonSyntaxError);
        }
      }),
    );
  });
});

describe('stringifyJson()', () => {
  it('escapes non-ASCII only when asked', () => {
    expect(stringifyJson('Envoyé 😀')).toBe('"Envoyé 😀"');
    expect(stringifyJson('é', { ensureAscii: true })).toBe('"\\u00e9"');
  });

  it('writes every string as JSON.stringify does, escapes and lone surrogates included', () => {
    for (const s of ['', 'plain', 'a"b', 'a\\b', '\u0000\u001f\u007f', 'tab\tnl\n', '\ud800', 'x\udc00y', '😀', '\u2028\u2029']) {
      expect(stringifyJson(s)).toBe(JSON.stringify(s));
      expect(stringifyJson(new Map<string, Value>([[s, s]]))).toBe(`{${JSON.stringify(s)}:${JSON.stringify(s)}}`);
    }
  });
});

describe('stringifyJsonBytes()', () => {
  const big = 'QUJD'.repeat(300_000);
  const values: Value[] = [
    [1, 'é', null, true],
    new Map<string, Value>([
      ['datas', new PyBinary(big)],
      ['name', 'Envoyé 😀 "quoted" \\ \n \ud800'],
      ['when', new PyDateTime('2026-12-02 01:02:03')],
    ]),
    ['x'.repeat(70_000), 'ü'.repeat(40_000), '😀'.repeat(20_000)],
  ];

  it('gives the UTF-8 bytes of stringifyJson, small or big, with or without ensureAscii and Python spacing', () => {
    for (const v of values)
      for (const options of [{}, { ensureAscii: true }, { python: true }]) {
        const bytes = stringifyJsonBytes(v, options);
        expect(bytes.equals(Buffer.from(stringifyJson(v, options), 'utf8'))).toBe(true);
      }
  });
});
