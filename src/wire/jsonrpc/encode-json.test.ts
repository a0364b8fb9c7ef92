import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { jsonText } from '../../../test/support/json-texts.ts';
import { parseJson, stringifyJson } from '../../json/index.ts';
import { JsonText, type Value } from '../../value.ts';
import { encodeResult } from './encode.ts';
import { encodeJsonResult } from './encode-json.ts';

const answer = (json: string) =>
  new JsonText(
    json,
    256,
    vi.fn(() => parseJson(json, { maxDepth: 256 })),
  );
const ids: Value[] = [1, 'abc', null, 12345678901234567890n, new Map([['x', [1]]])];

describe('encodeJsonResult()', () => {
  it('passes an answer in canonical form on without parsing it', () => {
    const json = '[{"id": 9, "name": "Zoë \\"Acme\\"", "amount": 2240.0}]';
    const result = answer(json);
    expect(encodeJsonResult(7, result)).toBe(`{"jsonrpc": "2.0", "id": 7, "result": ${json}}`);
    expect(result.value).not.toHaveBeenCalled();
  });

  it('leaves out the result member for None, as encodeResult does', () => {
    expect(encodeJsonResult(7, answer('null'))).toBe('{"jsonrpc": "2.0", "id": 7}');
  });

  it('writes what encodeResult writes for any text, in canonical form or not', () => {
    fc.assert(
      fc.property(jsonText, fc.constantFrom(...ids), fc.boolean(), (text, id, rewrite) => {
        let value: Value;
        try {
          value = parseJson(text, { maxDepth: 256 });
        } catch {
          expect(() => encodeJsonResult(id, answer(text))).toThrow();
          return;
        }
        const json = rewrite ? stringifyJson(value, { python: true }) : text;
        expect(encodeJsonResult(id, answer(json))).toBe(encodeResult(id, value));
      }),
      { numRuns: 2000 },
    );
  });
});
