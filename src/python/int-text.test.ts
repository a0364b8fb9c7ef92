import { describe, expect, it } from 'vitest';
import { label, readPythonNumbers } from '../../test/fixtures-xml/python-numbers.ts';
import { floatRepr } from './float-repr.ts';
import {
  floatValueErrorMessage,
  intDigitsLimitMessage,
  intValueErrorMessage,
  invalidIntLiteralMessage,
  parsePythonFloat,
  parsePythonInt,
  pyRepr,
} from './int-text.ts';

const python = readPythonNumbers();

describe('parsePythonInt()', () => {
  it.each([
    [' 42 ', 42],
    ['-0', 0],
    ['+1_000', 1000],
    ['\u00a012\u2003', 12],
    ['\u0661\u0662', 12],
    ['9007199254740991', 9007199254740991],
    ['9007199254740992', 9007199254740992n],
    ['-123456789012345678901234567890', -123456789012345678901234567890n],
  ])('reads %j as %s', (text, value) => {
    expect(parsePythonInt(text)).toBe(value);
  });

  it.each(['1__0', '_1', '1_', '', '- 1', '\x1c5', '1.5', '0x10', '1\x00'])('refuses %j', (text) => {
    expect(parsePythonInt(text)).toBeUndefined();
  });

  it.each(python.int.map(([text, answer]) => [label(text), text, answer] as const))('matches int(%s)', (_label, text, answer) => {
    const got = parsePythonInt(text);
    if (answer.ok !== undefined) expect(String(got)).toBe(answer.ok);
    else {
      expect(got).toBeUndefined();
      expect(intValueErrorMessage(text)).toBe(answer.message);
    }
  });

  it('never returns -0', () => {
    expect(Object.is(parsePythonInt('-0'), 0)).toBe(true);
  });
});

describe('int() error texts', () => {
  it.each([
    ['abc', "invalid literal for int() with base 10: 'abc'"],
    ["it's", `invalid literal for int() with base 10: "it's"`],
    ['a'.repeat(250), `invalid literal for int() with base 10: '${'a'.repeat(199)}`],
  ])('invalidIntLiteralMessage(%j) cuts the repr at 200 characters', (text, message) => {
    expect(invalidIntLiteralMessage(text)).toBe(message);
  });

  it('states the digit limit', () => {
    expect(intDigitsLimitMessage(5000)).toBe(
      'Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit',
    );
  });
});

describe('parsePythonFloat()', () => {
  it.each([
    ['1E3', 1000],
    [' .5 ', 0.5],
    ['5.', 5],
    ['-Infinity', -Infinity],
    ['1_0.5', 10.5],
  ])('reads %j as %s', (text, value) => {
    expect(parsePythonFloat(text)).toBe(value);
  });

  it.each(python.float.map(([text, answer]) => [label(text), text, answer] as const))('matches float(%s)', (_label, text, answer) => {
    const got = parsePythonFloat(text);
    if (answer.ok !== undefined) expect(floatRepr(got!)).toBe(answer.ok);
    else {
      expect(got).toBeUndefined();
      expect(floatValueErrorMessage(text)).toBe(answer.message);
    }
  });
});

describe('pyRepr()', () => {
  it.each(python.repr.map(([text, repr]) => [label(text), text, repr] as const))('matches repr(%s)', (_label, text, repr) => {
    expect(pyRepr(text)).toBe(repr);
  });
});
