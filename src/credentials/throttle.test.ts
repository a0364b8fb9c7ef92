import { describe, expect, it } from 'vitest';
import { createThrottle, type Failures, type SharedFailures } from './throttle.ts';

/** Counts kept as a shared store keeps them (the Redis one is tested in src/state). */
function memoryFailures(): SharedFailures & { away: boolean } {
  const table = new Map<string, Failures>();
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
    async clear(key) {
      if (!this.away) table.delete(key);
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

  it('a success touches the shared store only when there is a count to clear (issue #21: no Redis DEL per warm call)', async () => {
    const shared = memoryFailures();
    let clears = 0;
    const counting: SharedFailures = { read: (k) => shared.read(k), add: (k, at, ms) => shared.add(k, at, ms), clear: async (k) => void (clears++, await shared.clear(k)) };
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
    expect(await shared.read('j')).toBeNull();
  });

  it('goes on with its own counts while the shared store is away', async () => {
    const shared = memoryFailures();
    const { throttle, blocked } = setup(shared);
    shared.away = true;
    for (let i = 0; i < 3; i++) await throttle.failure('k');
    expect(await blocked()).toBe('1 s');
  });
});
