import { describe, expect, it } from 'vitest';
import type { WireResponse } from '../../wire/response.ts';
import { answerText, copyAnswer } from './answer-copy.ts';

const streamed = (chunks: Array<string | Uint8Array>, fail = false): WireResponse => ({
  status: 200,
  contentType: 'text/xml',
  body: (async function* () {
    yield* chunks;
    if (fail) throw new Error('cut');
  })(),
});

async function drain(r: WireResponse): Promise<string> {
  if (typeof r.body === 'string') return r.body;
  if (r.body instanceof Uint8Array) return new TextDecoder().decode(r.body);
  let out = '';
  for await (const c of r.body) out += typeof c === 'string' ? c : new TextDecoder().decode(c);
  return out;
}

describe('copyAnswer()', () => {
  it('takes a whole answer as it is, and sends it unchanged', async () => {
    const answer: WireResponse = { status: 200, contentType: 'text/xml', body: new TextEncoder().encode('<é/>') };
    const copy = copyAnswer(answer, 100);
    expect(copy.response).toBe(answer);
    expect(await copy.text).toEqual({ text: '<é/>' });
  });

  it('passes a streamed answer through chunk by chunk and keeps a copy', async () => {
    const copy = copyAnswer(streamed(['<a>', new TextEncoder().encode('é'), '</a>']), 100);
    expect(await drain(copy.response)).toBe('<a>é</a>');
    expect(await copy.text).toEqual({ text: '<a>é</a>' });
  });

  it('says too large beyond the limit, whole or streamed, and still sends all of it', async () => {
    expect(await copyAnswer({ status: 200, contentType: 'x', body: 'x'.repeat(11) }, 10).text).toEqual({ tooLarge: true });
    const copy = copyAnswer(streamed(['x'.repeat(6), 'y'.repeat(6)]), 10);
    expect(await drain(copy.response)).toBe('xxxxxxyyyyyy');
    expect(await copy.text).toEqual({ tooLarge: true });
  });

  it('keeps nothing of an answer cut short', async () => {
    const copy = copyAnswer(streamed(['<a>'], true), 100);
    await expect(drain(copy.response)).rejects.toThrow('cut');
    expect(await copy.text).toBeUndefined();
  });
});

describe('answerText()', () => {
  it('reads a whole or streamed answer', async () => {
    expect(await answerText({ status: 200, contentType: 'x', body: 'abc' }, 10)).toBe('abc');
    expect(await answerText(streamed(['a', 'b']), 10)).toBe('ab');
    expect(await answerText(streamed(['abcdef', 'ghijkl']), 10)).toBeUndefined();
  });
});
