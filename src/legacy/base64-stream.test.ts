import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Chunks, base64Decoded } from './base64-stream.ts';

async function* chunksOf(data: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const size of sizes) {
    yield data.subarray(at, at + size);
    at += size;
  }
  if (at < data.length) yield data.subarray(at);
}

async function text(source: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const part of source) out += part;
  return out;
}

describe('base64Chunks()', () => {
  it('writes what base64.b64encode writes, however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.integer({ min: 0, max: 17 }), { maxLength: 40 }),
        async (bytes, sizes) => {
          const data = Buffer.from(bytes);
          expect(await text(base64Chunks(chunksOf(data, sizes)))).toBe(data.toString('base64'));
        },
      ),
    );
  });

  it('does not keep a reference to a chunk the source reuses', async () => {
    const shared = Buffer.from('abcd');
    async function* reusing() {
      yield shared;
      shared.write('WXYZ');
      yield shared;
    }
    expect(await text(base64Chunks(reusing()))).toBe(Buffer.from('abcdWXYZ').toString('base64'));
  });
});

describe('base64Decoded()', () => {
  it('decodes in slices of about the asked size', () => {
    const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => i & 0xff));
    const slices = [...base64Decoded(data.toString('base64'), 100)];
    expect(slices.map((s) => s.byteLength)).toEqual([...Array(9).fill(102), 82]);
    expect(Buffer.concat(slices).equals(data)).toBe(true);
  });
});
