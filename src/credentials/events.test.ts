import { describe, expect, it } from 'vitest';
import { createCredentialCache } from './cache.ts';
import { countedCache, countedThrottle, type CredentialEvents } from './events.ts';
import { createThrottle } from './throttle.ts';

function recorder() {
  const seen: string[] = [];
  const events: CredentialEvents = {
    cacheLookup: (cache, hit) => void seen.push(`${cache}:${hit ? 'hit' : 'miss'}`),
    keyExchange: (kind, outcome) => void seen.push(`${kind}:${outcome}`),
    retirement: (outcome) => void seen.push(`retire:${outcome}`),
    throttled: () => void seen.push('throttled'),
  };
  return { seen, events };
}

describe('countedCache()', () => {
  it('reports a miss when a check starts and a hit otherwise (a joined check included)', async () => {
    const { seen, events } = recorder();
    const cache = countedCache(createCredentialCache({ max: 10, ttlMs: 60_000 }), 'api_key', events);
    let release: (v: { uid: number }) => void = () => undefined;
    const first = cache.resolve('k', () => new Promise((resolve) => (release = resolve)));
    const joined = cache.resolve('k', async () => ({ uid: 99 }));
    release({ uid: 7 });
    expect(await first).toEqual({ uid: 7 });
    expect(await joined).toEqual({ uid: 7 });
    expect(await cache.resolve('k', async () => ({ uid: 99 }))).toEqual({ uid: 7 });
    expect(seen).toEqual(['api_key:miss', 'api_key:hit', 'api_key:hit']);
    cache.evict('k');
    expect(cache.size).toBe(0);
  });
});

describe('countedThrottle()', () => {
  it('reports each refused attempt and passes failures and successes on', async () => {
    const { seen, events } = recorder();
    const throttle = countedThrottle(
      createThrottle({ failures: 1, backoffMs: 60_000, maxBackoffMs: 600_000, max: 10, now: () => 0 }),
      events,
    );
    await throttle.check('a');
    await throttle.failure('a');
    await expect(throttle.check('a')).rejects.toThrow(/Too many login failures/);
    await expect(throttle.check('a')).rejects.toThrow(/Too many login failures/);
    await throttle.success('a');
    await throttle.check('a');
    expect(seen).toEqual(['throttled', 'throttled']);
  });
});
