import { describe, expect, it } from 'vitest';
import { parseJson } from '../json/index.ts';
import { defaultTextFromValue } from './default-text.ts';

describe('defaultTextFromValue()', () => {
  it.each([
    ['null', 'None'],
    ['true', 'True'],
    ['false', 'False'],
    ['0', '0'],
    ['100', '100'],
    ['-1', '-1'],
    ['0.0', '0.0'],
    ['1.5', '1.5'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
    ['"ilike"', "'ilike'"],
    ['"_classic_read"', "'_classic_read'"],
    ['"it\'s"', '"it\'s"'],
    ['[]', '[]'],
    ['["a", 1]', "['a', 1]"],
    ['{}', '{}'],
    ['{"a": null}', "{'a': None}"],
  ])('writes the JSON default %s as Python writes %s', (json, text) => {
    expect(defaultTextFromValue(parseJson(json))).toBe(text);
  });

  it.each([
    [0, '0'],
    [0.25, '0.25'],
    ['x', "'x'"],
    [{ k: [true] }, "{'k': [True]}"],
    [undefined, 'None'],
  ])('writes the plain (YAML) default %j as %s', (value, text) => {
    expect(defaultTextFromValue(value)).toBe(text);
  });
});
