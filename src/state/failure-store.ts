/**
 * Failed-login counts shared by the replicas: a hash (count, last) per throttle key
 * (already an HMAC of address, db and login), expiring `forgetMs` after the last failure; a success
 * leaves count 0 (not a deletion, so a count deleted in Redis is told from one a success cleared).
 * Logins in flight are a sorted set per key (reservation id, scored by when it lapses
 * should its replica die), checked and taken atomically with the count by a script.
 */
import type { SharedFailures } from '../credentials/throttle.ts';
import type { RedisLink } from './redis-link.ts';

const scripts = {
  // KEYS: count hash, in-flight set; ARGV: at, id, failures, backoffMs, maxBackoffMs, holdMs.
  // Answers 0 (reserved), -1 (the attempts in flight fill the allowance) or the ms left blocked.
  gatewayThrottleReserve: {
    keys: 2,
    lua: `
local at = tonumber(ARGV[1])
redis.call('zremrangebyscore', KEYS[2], '-inf', at)
local f = redis.call('hmget', KEYS[1], 'count', 'last')
local count = tonumber(f[1]) or 0
local last = tonumber(f[2]) or 0
local failures, backoff, maxBackoff, hold = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if at - last > maxBackoff then count = 0 end
if count >= failures then
  local untilAt = last + math.min(maxBackoff, backoff * 2 ^ (count - failures))
  if untilAt > at then return math.ceil(untilAt - at) end
end
if redis.call('zcard', KEYS[2]) >= math.max(1, failures - count) then return -1 end
redis.call('zadd', KEYS[2], at + hold, ARGV[2])
redis.call('pexpire', KEYS[2], hold)
return 0`,
  },
  // KEYS: count hash, in-flight set; ARGV: id, outcome, at, forgetMs.
  gatewayThrottleSettle: {
    keys: 2,
    lua: `
redis.call('zrem', KEYS[2], ARGV[1])
if ARGV[2] == 'failed' then
  redis.call('hincrby', KEYS[1], 'count', 1)
  redis.call('hset', KEYS[1], 'last', ARGV[3])
  redis.call('pexpire', KEYS[1], ARGV[4])
elseif ARGV[2] == 'succeeded' then
  redis.call('hset', KEYS[1], 'count', 0, 'last', ARGV[3])
  redis.call('pexpire', KEYS[1], ARGV[4])
end
return 0`,
  },
};

export function createFailureStore(link: RedisLink): SharedFailures {
  link.define(scripts);
  const keyOf = (key: string) => link.key('t', key);
  const flightOf = (key: string) => link.key('tf', key);
  return {
    async reserve(key, id, at, rules) {
      const out = await link.attempt('throttle-reserve', (r) =>
        link.script(
          r,
          'gatewayThrottleReserve',
          [keyOf(key), flightOf(key)],
          [at, id, rules.failures, rules.backoffMs, rules.maxBackoffMs, Math.max(1, rules.holdMs)],
        ),
      );
      if (out === undefined) return undefined;
      const n = Number(out);
      return n === 0 ? { taken: true } : { taken: false, retryAfterMs: n > 0 ? n : 1000 };
    },
    async settle(key, id, outcome, at, forgetMs) {
      await link.attempt('throttle-settle', (r) =>
        link.script(r, 'gatewayThrottleSettle', [keyOf(key), flightOf(key)], [id, outcome, at, Math.max(1, forgetMs)]),
      );
    },
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
    async clear(key, at, forgetMs) {
      const name = keyOf(key);
      await link.attempt('throttle-clear', async (r) => {
        const results = await r.multi().hset(name, 'count', 0, 'last', at).pexpire(name, Math.max(1, forgetMs)).exec();
        if (results === null) throw new Error('transaction aborted');
      });
    },
  };
}
