import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../log.ts';
import { redisClient, sharedRedisUrl, testPrefix } from '../../test/support/redis.ts';
import { createSharedLocks } from './lock.ts';
import { createRedisLink } from './redis-link.ts';

const prefix = testPrefix('lock');
const link = createRedisLink({ url: sharedRedisUrl(), prefix, timeoutMs: 500, log: createLogger('silent') });
const redis = redisClient();
afterAll(async () => {
  await link.close();
  await redis.quit();
});

describe('createSharedLocks()', () => {
  it('lets one holder run at a time; without waiting the others are told it is held', async () => {
    await link.ready(5000);
    const locks = createSharedLocks(link, { timeoutMs: 5000 });
    let release!: () => void;
    const first = locks.exclusive('a', false, () => new Promise<string>((resolve) => (release = () => resolve('ran'))));
    await new Promise((r) => setTimeout(r, 50));
    expect(await locks.exclusive('a', false, async () => 'second')).toEqual({ ran: false, why: 'held' });
    expect(await locks.exclusive('b', false, async () => 'other lock')).toEqual({ ran: true, value: 'other lock' });
    release();
    expect(await first).toEqual({ ran: true, value: 'ran' });
    expect(await redis.exists(`${prefix}lock:a`)).toBe(0); // released
    expect(await locks.exclusive('a', false, async () => 'third')).toEqual({ ran: true, value: 'third' });
  });

  it("a waiter returns once the holder lets go; a dead holder's lock expires by itself", async () => {
    const locks = createSharedLocks(link, { timeoutMs: 300 });
    let release!: () => void;
    const first = locks.exclusive('w', false, () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((r) => setTimeout(r, 20));
    const waiter = locks.exclusive('w', true, async () => 'never');
    setTimeout(() => release(), 100);
    expect(await waiter).toEqual({ ran: false, why: 'held' });
    await first;

    await redis.set(`${prefix}lock:dead`, 'a-replica-that-died', 'PX', 300);
    const started = Date.now();
    expect(await locks.exclusive('dead', true, async () => 'x')).toEqual({ ran: false, why: 'held' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(await locks.exclusive('dead', false, async () => 'mine now')).toEqual({ ran: true, value: 'mine now' });
  });

  it('never deletes a lock another holder took after its own expired', async () => {
    const locks = createSharedLocks(link, { timeoutMs: 100 });
    const slow = locks.exclusive('late', false, () => new Promise((r) => setTimeout(r, 250)));
    await new Promise((r) => setTimeout(r, 150)); // its lock expired
    await redis.set(`${prefix}lock:late`, 'someone-else', 'PX', 5000);
    await slow;
    expect(await redis.get(`${prefix}lock:late`)).toBe('someone-else');
  });
});
