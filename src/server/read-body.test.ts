import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBody, readIncomingBody } from './read-body.ts';

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

function request(contentLength?: string) {
  return Object.assign(new PassThrough(), { headers: contentLength === undefined ? {} : { 'content-length': contentLength } });
}

describe('readIncomingBody()', () => {
  it('joins what arrives up to the end', async () => {
    const incoming = request();
    const body = readIncomingBody(incoming, 10);
    incoming.write('ab');
    incoming.end('cde');
    expect(new TextDecoder().decode(await body)).toBe('abcde');
  });

  it('refuses a declared length past the cap without reading anything', async () => {
    const incoming = request('11');
    incoming.write('12345');
    expect(await readIncomingBody(incoming, 10)).toBeUndefined();
    expect(incoming.readableLength).toBe(5);
  });

  it('stops past the cap and leaves the rest unread, paused', async () => {
    const incoming = request();
    const body = readIncomingBody(incoming, 10);
    incoming.write('12345');
    incoming.write('67890x');
    expect(await body).toBeUndefined();
    incoming.write('more');
    expect(incoming.isPaused()).toBe(true);
    expect(incoming.readableLength).toBe(4);
  });

  it('rejects when the client goes away before the end', async () => {
    const incoming = request();
    const body = readIncomingBody(incoming, 10);
    incoming.write('12');
    incoming.destroy();
    await expect(body).rejects.toThrow(/aborted/);
  });
});
