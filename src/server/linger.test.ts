import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { discardRest, lingeringAnswer } from './linger.ts';

describe('discardRest()', () => {
  it('reads the rest of the body to its end', async () => {
    const incoming = new PassThrough();
    let ended = false;
    const discarded = discardRest(incoming, { totalMs: 5_000, idleMs: 1_000 }).then(() => (ended = true));
    for (let i = 0; i < 50; i++) incoming.write(Buffer.alloc(1024));
    await new Promise((r) => setTimeout(r, 20));
    expect(ended).toBe(false);
    expect(incoming.readableLength).toBe(0); // read as it came, nothing left buffered
    incoming.end();
    await discarded;
    expect(incoming.readableEnded).toBe(true);
  });

  it('gives up after idleMs without data', async () => {
    const started = performance.now();
    await discardRest(new PassThrough(), { totalMs: 5_000, idleMs: 50 });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('gives up after totalMs even while data keeps coming', async () => {
    const incoming = new PassThrough();
    const trickle = setInterval(() => incoming.write('x'), 10);
    const started = performance.now();
    await discardRest(incoming, { totalMs: 150, idleMs: 100 });
    clearInterval(trickle);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('resolves at once for a request already read or gone', async () => {
    const gone = new PassThrough();
    gone.destroy();
    await discardRest(gone, { totalMs: 60_000, idleMs: 60_000 });
  });
});

describe('lingeringAnswer()', () => {
  it('yields the answer first and ends only once the request ended', async () => {
    const incoming = new PassThrough();
    const answer = lingeringAnswer(new TextEncoder().encode('fault'), incoming, { totalMs: 5_000, idleMs: 5_000 });
    expect(new TextDecoder().decode((await answer.next()).value as Uint8Array)).toBe('fault');
    let finished = false;
    const last = answer.next().then((r) => (finished = r.done === true));
    await new Promise((r) => setTimeout(r, 20));
    expect(finished).toBe(false);
    incoming.end('the rest');
    await last;
    expect(finished).toBe(true);
  });
});
