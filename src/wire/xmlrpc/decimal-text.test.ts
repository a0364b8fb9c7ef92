import { describe, expect, it } from 'vitest';
import { label, readPythonNumbers } from '../../../test/fixtures-xml/python-numbers.ts';
import { decimalFromText } from './decimal-text.ts';

describe('decimalFromText()', () => {
  it.each(readPythonNumbers().decimal.map(([text, answer]) => [label(text), text, answer] as const))(
    'matches str(Decimal(%s))',
    (_label, text, answer) => {
      expect(decimalFromText(text)).toEqual(answer.ok !== undefined ? { text: answer.ok } : { error: answer.message });
    },
  );
});
