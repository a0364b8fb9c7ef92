import { describe, expect, it } from 'vitest';
import { label, readPythonNumbers } from '../../../test/fixtures-xml/python-numbers.ts';
import { PyDateTime } from '../../value.ts';
import { dateTimeFromText } from './datetime-text.ts';

describe('dateTimeFromText()', () => {
  it.each(readPythonNumbers().datetime.map(([text, answer]) => [label(text), text, answer] as const))(
    'matches strptime(%s)',
    (_label, text, answer) => {
      const got = dateTimeFromText(text);
      expect(got).toEqual(answer.ok !== undefined ? new PyDateTime(answer.ok) : { error: answer.message });
    },
  );
});
