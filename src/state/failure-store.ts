/**
 * Failed-login counts shared by the replicas (issue #10): a hash (count, last) per throttle key
 * (already an HMAC of address, db and login), expiring `forgetMs` after the last failure.
 */
import type { SharedFailures } from '../credentials/throttle.ts';
import type { RedisLink } from './redis-link.ts';

export function createFailureStore(link: RedisLink): SharedFailures {
  const keyOf = (key: string) => link.key('t', key);
  return {
    async read(key) {
      const got = await link.attempt('throttle-read', (r) => r.hmget(keyOf(key), 'count', 'last'));
      if (got === undefined) return undefined;
      const [count, last] = got;
      return count === null || last === null ? null : { count: Number(count), last: Number(last) };
    },
    async add(key, at, forgetMs) {
      const name = keyOf(key);
      const out = await link.attempt('throttle-add', async (r) => {
        const results = await r.multi().hincrby(name, 'count', 1).hset(name, 'last', at).pexpire(name, Math.max(1, forgetMs)).exec();
        if (results === null) throw new Error('transaction aborted');
        for (const [err] of results) if (err) throw err;
        return Number(results[0]![1]);
      });
      return out === undefined ? undefined : { count: out, last: at };
    },
    async clear(key) {
      await link.attempt('throttle-clear', (r) => r.del(keyOf(key)));
    },
  };
}
