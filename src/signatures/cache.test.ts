import { describe, expect, it, vi } from 'vitest';
import { createRevalidatingCache, type Revalidatable } from './cache.ts';

function clock(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

const entry = (value: string, expiresAt: number, etag?: string): Revalidatable<string> => ({ value, expiresAt, etag });

describe('createRevalidatingCache()', () => {
  it('serves a fresh entry without refreshing, and refreshes an expired one with the stale entry', async () => {
    const c = clock();
    const cache = createRevalidatingCache<string>({ max: 10, now: c.now });
    const refresh = vi.fn(async (stale: Revalidatable<string> | undefined) => entry(`v${(stale ? 1 : 0) + 1}`, c.now() + 100, '"e"'));
    expect((await cache.resolve('k', refresh)).value).toBe('v1');
    expect(refresh).toHaveBeenLastCalledWith(undefined);
    c.advance(99);
    expect((await cache.resolve('k', refresh)).value).toBe('v1');
    expect(refresh).toHaveBeenCalledTimes(1);
    c.advance(1);
    expect((await cache.resolve('k', refresh)).value).toBe('v2');
    expect(refresh).toHaveBeenLastCalledWith({ value: 'v1', expiresAt: 1_100, etag: '"e"' });
  });

  it('shares one refresh between concurrent callers (single-flight per key)', async () => {
    const c = clock();
    const cache = createRevalidatingCache<string>({ max: 10, now: c.now });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const refresh = vi.fn(async () => {
      await gate;
      return entry('v', c.now() + 100);
    });
    const all = Promise.all([cache.resolve('a', refresh), cache.resolve('a', refresh), cache.resolve('a', refresh)]);
    const other = cache.resolve('b', refresh);
    release();
    expect((await all).map((e) => e.value)).toEqual(['v', 'v', 'v']);
    await other;
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('keeps the cache as it was when a refresh rejects, and tries again next time', async () => {
    const c = clock();
    const cache = createRevalidatingCache<string>({ max: 10, now: c.now });
    await expect(cache.resolve('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect((await cache.resolve('k', async () => entry('v', c.now() + 1))).value).toBe('v');
  });

  it('forgets the least recently used entry beyond max', async () => {
    const c = clock();
    const cache = createRevalidatingCache<string>({ max: 2, now: c.now });
    const refresh = vi.fn(async () => entry('v', c.now() + 100));
    for (const k of ['a', 'b', 'c', 'a']) await cache.resolve(k, refresh);
    expect(refresh).toHaveBeenCalledTimes(4);
  });
});
