import { describe, expect, it } from 'vitest';
import { createThrottle, type Failures, type SharedFailures } from './throttle.ts';

/** Counts kept as a shared store keeps them (the Redis one is tested in src/state). */
function memoryFailures(): SharedFailures & { away: boolean } {
  const table = new Map<string, Failures>();
  const flights = new Map<string, Set<string>>();
  return {
    away: false,
    async read(key) {
      return this.away ? undefined : (table.get(key) ?? null);
    },
    async add(key, at) {
      if (this.away) return undefined;
      const f = { count: (table.get(key)?.count ?? 0) + 1, last: at };
      table.set(key, f);
      return f;
    },
    async clear(key, at) {
      if (!this.away) table.set(key, { count: 0, last: at });
    },
    // the Redis store's script in memory (src/state/failure-store.test.ts tests the real one)
    async reserve(key, id, at, rules) {
      if (this.away) return undefined;
      const f = table.get(key);
      const count = f === undefined || at - f.last > rules.maxBackoffMs ? 0 : f.count;
      if (f !== undefined && count >= rules.failures) {
        const until = f.last + Math.min(rules.maxBackoffMs, rules.backoffMs * 2 ** (count - rules.failures));
        if (until > at) return { taken: false, retryAfterMs: until - at };
      }
      const held = flights.get(key) ?? new Set<string>();
      if (held.size >= Math.max(1, rules.failures - count)) return { taken: false, retryAfterMs: 1000 };
      flights.set(key, held.add(id));
      return { taken: true };
    },
    async settle(key, id, outcome, at) {
      if (this.away) return;
      flights.get(key)?.delete(id);
      if (outcome === 'failed') table.set(key, { count: (table.get(key)?.count ?? 0) + 1, last: at });
      if (outcome === 'succeeded') table.set(key, { count: 0, last: at });
    },
  };
}

function setup(shared?: SharedFailures) {
  let t = 0;
  const now = () => t;
  const throttle = createThrottle({ failures: 3, backoffMs: 1000, maxBackoffMs: 8000, max: 100, now, ...(shared ? { shared } : {}) });
  const blockedOn = async (on: typeof throttle, key = 'k') => {
    try {
      await on.check(key);
      return undefined;
    } catch (err) {
      return (err as Error).message.replace(/^.*next attempt in (\d+) s\)$/, '$1 s');
    }
  };
  return { throttle, blocked: (key?: string) => blockedOn(throttle, key), blockedOn, now, advance: (ms: number) => void (t += ms) };
}

describe('createThrottle()', () => {
  it('blocks after the failures, for a backoff doubled per further failure up to the maximum', async () => {
    const { throttle, blocked, advance } = setup();
    await throttle.failure('k');
    await throttle.failure('k');
    expect(await blocked()).toBeUndefined();
    await throttle.failure('k');
    expect(await blocked()).toBe('1 s');
    expect(await blocked('other')).toBeUndefined();
    advance(1001);
    expect(await blocked()).toBeUndefined();
    await throttle.failure('k');
    expect(await blocked()).toBe('2 s');
    for (let i = 0; i < 10; i++) await throttle.failure('k');
    expect(await blocked()).toBe('8 s');
  });

  it('forgets after a success, and after failures older than the maximum backoff', async () => {
    const { throttle, blocked, advance } = setup();
    for (let i = 0; i < 3; i++) await throttle.failure('k');
    await throttle.success('k');
    expect(await blocked()).toBeUndefined();
    for (let i = 0; i < 2; i++) await throttle.failure('k');
    advance(8001);
    await throttle.failure('k');
    expect(await blocked()).toBeUndefined();
  });

  it('with shared counts, failures spread over replicas add up; a success on one clears them for all', async () => {
    const shared = memoryFailures();
    const a = setup(shared);
    const b = createThrottle({ failures: 3, backoffMs: 1000, maxBackoffMs: 8000, max: 100, now: a.now, shared });
    await a.throttle.failure('k');
    await b.failure('k');
    expect(await a.blocked()).toBeUndefined();
    await a.throttle.failure('k'); // the third, counted on two replicas
    expect(await a.blocked()).toBe('1 s');
    expect(await a.blockedOn(b)).toBe('1 s'); // b only saw one failure itself
    await b.success('k');
    expect(await a.blockedOn(b)).toBeUndefined();
    expect(await a.blocked()).toBeUndefined(); // a's own count gives way to the shared one
  });

  it('a success touches the shared store only when there is a count to clear (no Redis DEL per warm call)', async () => {
    const shared = memoryFailures();
    let clears = 0;
    const counting: SharedFailures = {
      read: (k) => shared.read(k),
      add: (k, at, ms) => shared.add(k, at, ms),
      clear: async (k, at, ms) => {
        clears++;
        await shared.clear(k, at, ms);
      },
      reserve: (k, id, at, rules) => shared.reserve(k, id, at, rules),
      settle: (k, id, outcome, at, ms) => shared.settle(k, id, outcome, at, ms),
    };
    const { throttle } = setup(counting);
    for (let i = 0; i < 50; i++) await throttle.success('k');
    expect(clears).toBe(0);
    await throttle.failure('k');
    await throttle.success('k');
    await throttle.success('k');
    expect(clears).toBe(1);
    // a count another replica made, seen by check(): the next success clears it
    const other = createThrottle({ failures: 3, backoffMs: 1000, maxBackoffMs: 8000, max: 100, now: () => 0, shared: counting });
    await other.failure('j');
    await throttle.check('j');
    await throttle.success('j');
    expect(clears).toBe(2);
    expect((await shared.read('j'))?.count).toBe(0); // cleared: count 0 (tells it from a deleted count)
  });

  it('goes on with its own counts while the shared store is away', async () => {
    const shared = memoryFailures();
    const { throttle, blocked } = setup(shared);
    shared.away = true;
    for (let i = 0; i < 3; i++) await throttle.failure('k');
    expect(await blocked()).toBe('1 s');
  });

  it('reserves attempts in flight: no more than the failures left, then one at a time after a backoff', async () => {
    const { throttle, advance } = setup();
    const tries = await Promise.allSettled(Array.from({ length: 10 }, () => throttle.reserve('k')));
    const taken = tries.flatMap((t) => (t.status === 'fulfilled' ? [t.value] : []));
    expect(taken).toHaveLength(3);
    expect(tries.find((t) => t.status === 'rejected')).toMatchObject({ reason: { message: expect.stringMatching(/next attempt in 1 s/) } });
    await Promise.all(taken.map((a) => a.settle('failed')));
    await expect(throttle.reserve('k')).rejects.toThrow(/next attempt in 1 s/);
    advance(1001);
    const one = await throttle.reserve('k');
    await expect(throttle.reserve('k')).rejects.toThrow(/next attempt/);
    await one.settle('abandoned');
    await (await throttle.reserve('k')).settle('succeeded');
    expect(
      (await Promise.allSettled(Array.from({ length: 5 }, () => throttle.reserve('k')))).filter((t) => t.status === 'fulfilled'),
    ).toHaveLength(3);
  });

  it('reserves across replicas through the shared store, and on its own while the store is away', async () => {
    const shared = memoryFailures();
    const a = setup(shared);
    const b = createThrottle({ failures: 3, backoffMs: 1000, maxBackoffMs: 8000, max: 100, now: a.now, shared });
    const tries = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a.throttle : b).reserve('k')));
    expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(3);
    shared.away = true;
    const alone = await Promise.allSettled(Array.from({ length: 10 }, () => b.reserve('other')));
    expect(alone.filter((t) => t.status === 'fulfilled')).toHaveLength(3);
  });
});
