import { describe, expect, it } from 'vitest';
import { createThrottle } from '../credentials/throttle.ts';
import { createLogger } from '../log.ts';
import { keysUnder, redisTestScope, sharedRedisUrl, testPrefix } from '../../test/support/redis.ts';
import { createFailureStore } from './failure-store.ts';
import { createRedisLink } from './redis-link.ts';

const { redis, links, prefixes } = redisTestScope();

/** Two replicas' throttles over one Redis prefix. */
async function fleet(name: string, n = 2) {
  const prefix = testPrefix(name);
  prefixes.push(prefix);
  return Promise.all(
    Array.from({ length: n }, async () => {
      const link = createRedisLink({ url: sharedRedisUrl(), prefix, timeoutMs: 500, log: createLogger('silent') });
      links.push(link);
      await link.ready(5000);
      return createThrottle({
        failures: 3,
        backoffMs: 60_000,
        maxBackoffMs: 600_000,
        max: 100,
        now: Date.now,
        shared: createFailureStore(link),
      });
    }),
  ).then((throttles) => ({ throttles, prefix }));
}

const outcomes = (all: PromiseSettledResult<unknown>[]) => all.filter((r) => r.status === 'fulfilled').length;

describe('createFailureStore(): reservations', () => {
  it('lets no more attempts in flight than the limit across replicas, and blocks once they failed', async () => {
    const { throttles } = await fleet('reserve');
    const tries = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => throttles[i % 2]!.reserve('k')));
    expect(outcomes(tries)).toBe(3);
    for (const t of tries) if (t.status === 'fulfilled') await t.value.settle('failed');
    await expect(throttles[0]!.reserve('k')).rejects.toThrow(/next attempt in 60 s/);
    await expect(throttles[1]!.reserve('k')).rejects.toThrow(/next attempt in 60 s/);
  });

  it('frees an abandoned attempt, and a success clears the count for every replica', async () => {
    const { throttles } = await fleet('settle');
    const first = await throttles[0]!.reserve('k');
    await first.settle('failed');
    const held = await Promise.all([throttles[0]!.reserve('k'), throttles[1]!.reserve('k')]);
    await expect(throttles[1]!.reserve('k')).rejects.toThrow(/next attempt/);
    await held[0].settle('abandoned');
    await held[1].settle('succeeded');
    const again = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => throttles[i % 2]!.reserve('k')));
    expect(outcomes(again)).toBe(3);
  });

  it('a count deleted in Redis does not reset the throttle of a replica that saw the failures', async () => {
    const { throttles, prefix } = await fleet('deleted');
    for (let i = 0; i < 3; i++) await (await throttles[0]!.reserve('k')).settle('failed');
    for (const key of await keysUnder(redis, prefix)) await redis.del(key);
    await expect(throttles[0]!.reserve('k')).rejects.toThrow(/next attempt in 60 s/);
    await expect(throttles[0]!.check('k')).rejects.toThrow(/next attempt/);
  });
});
