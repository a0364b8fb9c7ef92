import { describe, expect, it } from 'vitest';
import { LegacyError } from '../../errors.ts';
import { parseJson, stringifyJson } from '../../json/index.ts';
import { JsonText, struct, type Value } from '../../value.ts';
import { defaultMarshalOptions, encodeResponse, type MarshalOptions } from './encode.ts';
import { encodeJsonResponse, streamAbove, type JsonAnswer } from './encode-json.ts';

const jsonText = (json: string) => new JsonText(json, 256, () => parseJson(json, { maxDepth: 256 }));

function oracle(json: string, opts: MarshalOptions = defaultMarshalOptions): Buffer {
  const out = encodeResponse(parseJson(json), opts);
  if (out instanceof LegacyError) throw out;
  return out;
}

async function bytesOf(answer: JsonAnswer): Promise<Buffer> {
  if (answer.body instanceof Uint8Array) return Buffer.from(answer.body);
  const chunks: Uint8Array[] = [];
  for await (const chunk of answer.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** `n` partner-like rows, with text that needs escaping and characters beyond ASCII. */
function rows(n: number, last: Value = false): string {
  const out: Value[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      struct({
        id: i,
        name: `Zoë & Co <${i}> 🙂`,
        email: `p${i}@example.com`,
        country_id: [233, 'United States'],
        note: i === n - 1 ? last : false,
      }),
    );
  }
  return stringifyJson(out, { python: true });
}

describe('encodeJsonResponse()', () => {
  it('writes a small answer whole, as encodeResponse does', async () => {
    const json = rows(3);
    const answer = await encodeJsonResponse(jsonText(json), defaultMarshalOptions);
    expect(answer?.body).toBeInstanceOf(Uint8Array);
    expect((await bytesOf(answer!)).equals(oracle(json))).toBe(true);
  });

  it(`streams an answer of more than ${streamAbove} characters with its exact length`, async () => {
    const json = rows(12_000);
    expect(json.length).toBeGreaterThan(streamAbove);
    const answer = await encodeJsonResponse(jsonText(json), defaultMarshalOptions);
    if (answer === undefined || answer.body instanceof Uint8Array) throw new Error('expected a streamed answer');
    const bytes = await bytesOf(answer);
    expect('length' in answer && answer.length).toBe(bytes.length);
    expect(bytes.equals(oracle(json))).toBe(true);
  });

  it.each([
    ['None in the last row', rows(12_000, null)],
    ['an int beyond 32 bits in the last row', rows(12_000, 2 ** 40)],
    ['JSON cut short', rows(12_000).slice(0, -2)],
  ])('declines a large answer with %s before writing anything', async (_what, json) => {
    expect(json.length).toBeGreaterThan(streamAbove);
    expect(await encodeJsonResponse(jsonText(json), defaultMarshalOptions)).toBeUndefined();
  });

  it('declines a small answer the marshaller refuses', async () => {
    expect(await encodeJsonResponse(jsonText('[1, null]'), defaultMarshalOptions)).toBeUndefined();
    expect(await encodeJsonResponse(jsonText('[1, null]'), { nullAs: 'nil', bigIntAs: 'fault' })).toBeDefined();
  });
});
