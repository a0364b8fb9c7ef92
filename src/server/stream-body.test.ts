import { describe, expect, it, vi } from 'vitest';
import { streamResponseBody } from './stream-body.ts';

function counting(total: number, failAt?: number) {
  let produced = 0;
  async function* source(): AsyncGenerator<string> {
    for (let i = 0; i < total; i++) {
      if (i === failAt) throw new Error('upstream cut');
      produced++;
      yield String(i % 10);
    }
  }
  return { source: source(), produced: () => produced };
}

describe('streamResponseBody()', () => {
  it('gives a Node response text, a Web consumer bytes', async () => {
    const chunks = async function* () {
      yield 'UEsD';
    };
    expect(
      (
        await streamResponseBody(chunks(), { text: true, cut: () => false })
          .getReader()
          .read()
      ).value,
    ).toBe('UEsD');
    expect(
      (
        await streamResponseBody(chunks(), { text: false, cut: () => false })
          .getReader()
          .read()
      ).value,
    ).toEqual(new TextEncoder().encode('UEsD'));
  });

  it('reads the source only as the consumer pulls', async () => {
    const { source, produced } = counting(100);
    const reader = streamResponseBody(source, { text: false, cut: () => false }).getReader();
    await reader.read();
    await reader.read();
    await new Promise((r) => setImmediate(r));
    expect(produced()).toBe(2);
    await reader.cancel();
  });

  it('errors the stream when the source fails and the connection cannot be closed', async () => {
    const { source } = counting(5, 2);
    const cut = vi.fn(() => false);
    const reader = streamResponseBody(source, { text: false, cut }).getReader();
    await reader.read();
    await reader.read();
    await expect(reader.read()).rejects.toThrow('upstream cut');
    expect(cut).toHaveBeenCalledTimes(1);
  });

  it('just ends once the connection was closed on a failure', async () => {
    const { source } = counting(5, 1);
    const reader = streamResponseBody(source, { text: false, cut: () => true }).getReader();
    await reader.read();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it('stops the source when the client goes away', async () => {
    let finished = false;
    async function* source(): AsyncGenerator<string> {
      try {
        for (;;) yield 'x';
      } finally {
        finished = true;
      }
    }
    const reader = streamResponseBody(source(), { text: false, cut: () => false }).getReader();
    await reader.read();
    await reader.cancel();
    expect(finished).toBe(true);
  });
});
