/**
 * Redis on the warm path (issue #21): warm API-key calls make no Redis command at all (the throttle
 * is cleared only when it counted something); a Redis that hangs (SIGSTOP: connections open,
 * nothing answered) costs a few timeouts, then counts as away on /readyz and /metrics, calls go on
 * without waiting for it, and the link comes back once Redis answers.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayAfterTimeouts } from '../../src/state/redis-link.ts';
import { redisClient, startPrivateRedis, type PrivateRedis } from '../support/redis.ts';
import { startStack, type Stack } from '../support/stack.ts';

let redis: PrivateRedis;
let stack: Stack;
beforeAll(async () => {
  redis = await startPrivateRedis();
  stack = await startStack({ databases: ['gw'], flags: ['--redis-url', redis.url, '--state-secret', 'x'.repeat(32), '--redis-timeout', '200'] });
});
afterAll(async () => {
  redis?.resume();
  await stack?.close();
  await redis?.stop();
});

/** Commands Redis has run so far, INFO itself left out. */
async function commandsRun(): Promise<number> {
  const client = redisClient(redis.url);
  try {
    const info = await client.info('commandstats');
    let total = 0;
    for (const m of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) if (m[1] !== 'info') total += Number(m[2]);
    return total;
  } finally {
    client.disconnect();
  }
}

const readyz = async () => (await fetch(`${stack.gateway.adminUrl}/readyz`)).json() as Promise<{ redis?: string }>;
const redisUp = async () => /^legacy_rpc_gateway_redis_up (\d)$/m.exec(await stack.gateway.metrics.text())?.[1];

describe('Redis and warm calls', () => {
  it('50 warm API-key calls make no Redis command', async () => {
    const key = stack.sim.keyFor('gw', 'admin');
    const call = () => stack.jsonrpc('object', 'execute_kw', ['gw', 2, key, 'res.partner', 'search_count', [[]]]);
    expect((await call()).error).toBeUndefined(); // cold: the key is checked once
    await sleep(100);
    const before = await commandsRun();
    for (let i = 0; i < 50; i++) expect((await call()).error).toBeUndefined();
    expect((await commandsRun()) - before).toBe(0);
  });

  it('a hung Redis costs a few timeouts, then shows as away while calls go on without it, and returns', async () => {
    expect(await readyz()).toMatchObject({ redis: 'up' });
    redis.pause();
    const durations: number[] = [];
    // refused logins read the shared throttle counts: each touches Redis while the link is up
    for (let i = 0; i < awayAfterTimeouts + 3; i++) {
      const started = performance.now();
      const answer = await stack.jsonrpc('common', 'login', ['gw', `nobody${i}`, 'wrong']);
      durations.push(performance.now() - started);
      expect(answer.result).toBe(false);
    }
    expect(await readyz()).toMatchObject({ redis: 'away' });
    expect(await redisUp()).toBe('0');
    // once away, a call waits for no Redis timeout
    expect(Math.max(...durations.slice(awayAfterTimeouts))).toBeLessThan(150);
    redis.resume();
    for (let i = 0; i < 100 && (await readyz()).redis !== 'up'; i++) await sleep(100);
    expect(await readyz()).toMatchObject({ redis: 'up' });
    expect(await redisUp()).toBe('1');
  }, 30_000);
});
