import { describe, expect, it } from 'vitest';
import { label, readPythonNumbers } from '../../../test/fixtures-xml/python-numbers.ts';
import { LegacyError } from '../../errors.ts';
import { binaryFromBase64Text } from './base64-text.ts';

describe('binaryFromBase64Text()', () => {
  it.each(readPythonNumbers().base64.map(([text, answer]) => [label(text), text, answer] as const))(
    'matches base64.decodebytes(%s)',
    (_label, text, answer) => {
      const got = binaryFromBase64Text(text);
      if (answer.ok !== undefined) {
        expect(got).not.toBeInstanceOf(LegacyError);
        expect(Buffer.from((got as { base64: string }).base64, 'base64').toString('base64')).toBe(answer.ok);
      } else {
        expect(got).toBeInstanceOf(LegacyError);
        expect((got as LegacyError).str).toBe(answer.message);
        expect((got as LegacyError).name).toBe(answer.error === 'Error' ? 'binascii.Error' : `builtins.${answer.error}`);
      }
    },
  );

  it('keeps the base64 text of a wrapped value without its line breaks', () => {
    expect(binaryFromBase64Text('aGVsbG8g\nd29ybGQ=\n')).toEqual({ base64: 'aGVsbG8gd29ybGQ=' });
  });

  it("gives Odoo's v1 faultCode for a non-ASCII value: the exception's args, one per line", () => {
    const err = binaryFromBase64Text('aé') as LegacyError;
    expect(err.message).toBe('ascii\naé\n1\n2\nordinal not in range(128)');
  });
});
