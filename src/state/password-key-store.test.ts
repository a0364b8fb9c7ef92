import { describe, expect, it } from 'vitest';
import {
  createPasswordKeys,
  type PasswordKey,
  type KeyExchange,
  type PasswordRequest,
  type SharedPasswordKeys,
} from '../credentials/password-keys.ts';
import { badCredentials, isAnsweredFalse, isBadCredentials, mintRefusal } from '../credentials/refusals.ts';
import { createLogger } from '../log.ts';
import { keysUnder, redisTestScope, sharedRedisUrl, testPrefix } from '../../test/support/redis.ts';
import { createSharedLocks } from './lock.ts';
import { createPasswordKeyStore } from './password-key-store.ts';
import { createRedisLink } from './redis-link.ts';
import { createReplicas } from './replicas.ts';
import { createSealer } from './sealed.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const { redis, links, prefixes } = redisTestScope();

const now = Date.now();
const entry = (key: string, uid: number | bigint = 5): PasswordKey => ({
  db: 'gw',
  uid,
  login: 'demo',
  key,
  source: 'minted',
  keyId: 9,
  expiresAt: now + 3_600_000,
  renewAt: now + 3_000_000,
  validatedAt: now,
});

async function store(name: string, max = 100, prefix = testPrefix(name)) {
  prefixes.push(prefix);
  const link = createRedisLink({ url: sharedRedisUrl(), prefix, timeoutMs: 500, log: createLogger('silent') });
  links.push(link);
  await link.ready(5000);
  const replicas = createReplicas(link);
  const s = createPasswordKeyStore({
    link,
    sealer: createSealer('s'.repeat(32)),
    locks: createSharedLocks(link, { timeoutMs: 1000 }),
    replicas,
    max,
    now: Date.now,
    log: createLogger('silent'),
  });
  return { s, prefix, link };
}

const req: PasswordRequest = { login: 'demo', password: 'pw', origin: testCallOrigin({ database: 'gw' }) };

/**
 * Two replicas sharing one store prefix, a clock the test moves, and a key table on either: each
 * resolves k1 and renews to an unexpected key unless the test says otherwise.
 */
async function twoReplicas(name: string, revalidateIntervalMs: number) {
  const prefix = testPrefix(name);
  const [a, b] = [await store(name, 100, prefix), await store(name, 100, prefix)];
  const clock = { t: now };
  const keyAt = (key: string): PasswordKey => ({
    ...entry(key),
    expiresAt: clock.t + 3_600_000,
    renewAt: clock.t + 3_000_000,
    validatedAt: clock.t,
  });
  const tableOn = (replica: { s: SharedPasswordKeys }, over: Partial<KeyExchange>) =>
    createPasswordKeys(
      { max: 10, now: () => clock.t, negativeTtlMs: 1000, revalidateIntervalMs, localTtlMs: 0, shared: replica.s },
      {
        obtain: async () => keyAt('k1'),
        recheck: async () => {},
        renew: async () => keyAt('k-unexpected'),
        retire: async () => {},
        renewalFailed: () => {},
        ...over,
      },
    );
  return { a, b, clock, keyAt, tableOn };
}

describe('createPasswordKeyStore()', () => {
  it("reads back what it wrote (a uid beyond 2^53 included), with a TTL up to the key's expiry", async () => {
    const { s, prefix } = await store('rw');
    expect(await s.read('slot')).toEqual({});
    expect(await s.write('slot', entry('k1'))).toEqual([]);
    expect(await s.read('slot')).toEqual({ entry: entry('k1') });
    await s.write('big', entry('k2', 2n ** 60n));
    expect(((await s.read('big')) as { entry: PasswordKey }).entry.uid).toBe(2n ** 60n);
    const ttl = await redis.pttl(`${prefix}k:slot`);
    expect(ttl).toBeGreaterThan(3_500_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000);
  });

  it('shares refusals, classified as the original; a fresh key clears the refusal', async () => {
    const { s } = await store('refusal');
    await s.refuse('slot', badCredentials(), 5000);
    const read = (await s.read('slot')) as { refusal: Error };
    expect(isBadCredentials(read.refusal)).toBe(true);
    expect(isAnsweredFalse(read.refusal)).toBe(true);
    await s.refuse('other', mintRefusal('Too many keys.', 'wizard'), 5000);
    const other = (await s.read('other')) as { refusal: Error };
    expect(other.refusal.message).toMatch(/^legacy-rpc-gateway could not mint an API key for this login: Too many keys\. /);
    expect(isBadCredentials(other.refusal)).toBe(false);
    await s.write('slot', entry('k1'));
    expect(await s.read('slot')).toEqual({ entry: entry('k1') });
  });

  it('removes an entry only while it still holds the given key; adds only where none is', async () => {
    const { s } = await store('remove');
    await s.write('slot', entry('k1'));
    expect(await s.remove('slot', 'k0')).toBe('kept');
    expect(await s.add('slot', entry('k2'))).toBe('taken');
    expect(await s.remove('slot', 'k1')).toBe('removed');
    expect(await s.remove('slot', 'k1')).toBe('kept');
    expect(await s.add('slot', entry('k2'))).toBe('added');
    expect(await s.read('slot')).toEqual({ entry: entry('k2') });
  });

  it('a password check that ends after another replica renewed the key leaves the renewed key in the store', async () => {
    // Replica A re-checks the password (slowly); replica B, finding the check lock held, renews the key
    // meanwhile. A's write-back of the check time must not bring the removed key back: before the
    // compare-and-set, A then renewed again and two minted keys stayed alive upstream.
    const { a, b, clock, keyAt, tableOn } = await twoReplicas('check-vs-renewal', 60_000);
    let release!: () => void;
    const slowCheck = new Promise<void>((resolve) => (release = resolve));
    const tableA = tableOn(a, { recheck: () => slowCheck });
    const tableB = tableOn(b, { renew: async () => keyAt('k2') });
    expect((await tableA.get('slot', req)).key).toBe('k1');
    expect((await tableB.get('slot', req)).key).toBe('k1');
    clock.t += 3_100_000; // past the re-check interval and inside the renewal margin
    const checking = tableA.get('slot', req);
    await new Promise((r) => setTimeout(r, 50)); // A holds the check lock
    await tableB.get('slot', req); // B: check held elsewhere, so it renews
    await tableB.settled();
    expect(((await b.s.read('slot')) as { entry: PasswordKey }).entry.key).toBe('k2');
    release();
    await checking;
    await tableA.settled();
    expect(((await a.s.read('slot')) as { entry: PasswordKey }).entry.key).toBe('k2');
    expect((await tableA.get('slot', req)).key).toBe('k2');
  });

  it('a 401 on the old key while another replica renews it waits for the renewal instead of emptying the store', async () => {
    // Replica B renews: it removes the old key upstream, then stores the new one. Replica A's call with
    // the old key gets a 401 in between. Emptying the store then made A's retry mint a second key.
    const { a, b, clock, keyAt, tableOn } = await twoReplicas('evict-vs-renewal', 3_600_000);
    let removedUpstream!: () => void;
    const renewing = new Promise<void>((resolve) => (removedUpstream = resolve));
    let finishRenewal!: () => void;
    const renewalHeld = new Promise<void>((resolve) => (finishRenewal = resolve));
    let resolvedA = 0;
    const tableA = tableOn(a, { obtain: async () => keyAt(`k-minted-${++resolvedA}`) });
    const tableB = tableOn(b, {
      renew: async () => {
        removedUpstream();
        await renewalHeld;
        return keyAt('k2');
      },
    });
    expect((await tableB.get('slot', req)).key).toBe('k1');
    const old = await tableA.get('slot', req);
    expect(old.key).toBe('k1');
    clock.t += 3_100_000; // inside the renewal margin: B renews
    await tableB.get('slot', req);
    await renewing; // k1 is gone upstream, k2 not yet stored
    // A's call: evict the refused key, then retry at once (what credentials/index.ts does on a 401)
    const retried = tableA.evict('slot', old).then(() => tableA.get('slot', req));
    await new Promise((r) => setTimeout(r, 50));
    finishRenewal();
    expect((await retried).key).toBe('k2');
    await tableB.settled();
    expect(resolvedA).toBe(0);
    expect(((await a.s.read('slot')) as { entry: PasswordKey }).entry.key).toBe('k2');
  });

  it('keeps at most max entries: a write pushing out the least recently used hands them back', async () => {
    const { s, prefix } = await store('bound', 2);
    await s.write('a', entry('ka'));
    await new Promise((r) => setTimeout(r, 5));
    await s.write('b', entry('kb'));
    await new Promise((r) => setTimeout(r, 5));
    await s.read('a'); // a is now more recent than b
    await new Promise((r) => setTimeout(r, 5));
    expect(await s.write('c', entry('kc'))).toEqual([entry('kb')]);
    expect(await s.read('b')).toEqual({});
    expect((await keysUnder(redis, `${prefix}k:`)).sort()).toEqual([`${prefix}k:a`, `${prefix}k:c`]);
  });

  it('on leaving, the last replica takes every entry; one that is not last takes none', async () => {
    const prefix = testPrefix('leave');
    const a = await store('leave', 100, prefix);
    const b = await store('leave', 100, prefix);
    await new Promise((r) => setTimeout(r, 50)); // both heartbeats written
    for (let i = 0; i < 150; i++) await a.s.write(`slot${i}`, entry(`k${i}`));
    expect(await a.s.leave()).toEqual({ last: false });
    const last = await b.s.leave();
    expect(last !== 'unavailable' && last.last && last.entries.map((e) => e.key).sort()).toEqual(
      Array.from({ length: 100 }, (_, i) => `k${i + 50}`).sort(),
    );
    expect(await keysUnder(redis, `${prefix}k:`)).toEqual([]);
  });

  it('answers unavailable, never fails, while Redis is away', async () => {
    const { s, link } = await store('closed');
    await link.close();
    expect(await s.read('slot')).toBe('unavailable');
    expect(await s.write('slot', entry('k'))).toBe('unavailable');
    expect(await s.add('slot', entry('k'))).toBe('unavailable');
    expect(await s.remove('slot', 'k')).toBe('unavailable');
    expect(await s.exclusive('x', true, async () => 1)).toEqual({ ran: false, why: 'unavailable' });
    expect(await s.leave()).toBe('unavailable');
  });
});
