import { describe, expect, it } from 'vitest';
import { readBody } from './read-body.ts';

function stream(chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      c.close();
    },
  });
}

describe('readBody()', () => {
  it('joins chunks', async () => {
    expect(new TextDecoder().decode(await readBody(stream(['ab', 'cd', 'e']), 10))).toBe('abcde');
  });

  it('answers undefined past the cap, counting bytes as they arrive', async () => {
    expect(await readBody(stream(['12345', '67890', 'x']), 10)).toBeUndefined();
  });

  it('reads a missing body as empty', async () => {
    expect(await readBody(null, 10)).toEqual(new Uint8Array(0));
  });
});
