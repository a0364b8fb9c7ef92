/**
 * Redis on the warm path: warm API-key calls make no Redis command at all (the throttle
 * is cleared only when it counted something); a Redis that hangs (SIGSTOP: connections open,
 * nothing answered) costs a few timeouts, then counts as away on /readyz and /metrics, calls go on
 * without waiting for it, and the link comes back once Redis answers.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayAfterTimeouts } from '../../src/state/redis-link.ts';
import { redisClient, startPrivateRedis, type PrivateRedis } from '../support/redis.ts';
import { startStack, type Stack } from '../support/stack.ts';

const prefix = 'lrg-warm:';
// Short enough that the outage costs seconds, long enough that a gateway starved of CPU for a moment
// (the test run beside a CPU-bound load) does not take its own late timer for a hung Redis: Node runs
// due timers before it reads the reply that came in meanwhile.
const redisTimeoutMs = 1000;
let redis: PrivateRedis;
let stack: Stack;
beforeAll(async () => {
  redis = await startPrivateRedis();
  stack = await startStack({
    databases: ['gw'],
    flags: [
      '--redis-url',
      redis.url,
      '--redis-prefix',
      prefix,
      '--state-secret',
      'x'.repeat(32),
      '--redis-timeout',
      String(redisTimeoutMs),
    ],
  });
});
afterAll(async () => {
  redis?.resume();
  await stack?.close();
  await redis?.stop();
});

/** The timers' own Redis work: the replica heartbeat and the report's flush (by the keys they touch). */
const timerKey = (key: string) => key === `${prefix}replicas` || key.startsWith(`${prefix}report:`);

/**
 * Records the commands the gateway sends Redis while `run` runs (MONITOR), leaving out the timers'
 * work, MULTI/EXEC framing and the commands a script runs inside (its EVALSHA is recorded).
 */
async function commandsDuring(run: () => Promise<void>): Promise<string[]> {
  const client = redisClient(redis.url); // connected before MONITOR starts, so its ready check is not seen
  await client.ping();
  const monitor = await client.duplicate().monitor();
  const seen: string[] = [];
  const marker = `end-of-window-${Math.random()}`;
  let sawMarker!: () => void;
  const ended = new Promise<void>((resolve) => (sawMarker = resolve));
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const [command = '', ...rest] = args.map(String);
    if (rest.includes(marker)) return sawMarker();
    if (source === 'lua' || ['multi', 'exec'].includes(command.toLowerCase())) return;
    if (rest.some(timerKey)) return;
    seen.push(args.join(' '));
  });
  try {
    await run();
    // Redis runs commands in order: once it echoes the marker, every command sent before it is seen
    await client.echo(marker);
    await ended;
    return seen;
  } finally {
    monitor.disconnect();
    client.disconnect();
  }
}

const readyz = async () => (await fetch(`${stack.gateway.adminUrl}/readyz`)).json() as Promise<{ redis?: string }>;
/** Redis commands that failed or timed out so far, every operation together. */
const redisFailures = async () => {
  let total = 0;
  for (const m of (await stack.gateway.metrics.text()).matchAll(/^legacy_rpc_gateway_redis_failures_total\{[^}]*\} (\d+)$/gm))
    total += Number(m[1]);
  return total;
};
const redisUp = async () => /^legacy_rpc_gateway_redis_up (\d)$/m.exec(await stack.gateway.metrics.text())?.[1];

describe('Redis and warm calls', () => {
  it('50 warm API-key calls make no Redis command', async () => {
    for (let i = 0; i < 300 && (await readyz()).redis !== 'up'; i++) await sleep(100);
    const key = stack.sim.keyFor('gw', 'admin');
    const call = () => stack.jsonrpc('object', 'execute_kw', ['gw', 2, key, 'res.partner', 'search_count', [[]]]);
    // cold: the key is checked once, and the throttle touched (the call awaits both)
    expect(await commandsDuring(async () => expect((await call()).error).toBeUndefined())).not.toEqual([]);
    const warm = await commandsDuring(async () => {
      for (let i = 0; i < 50; i++) expect((await call()).error).toBeUndefined();
    });
    expect(warm).toEqual([]);
  });

  it('a hung Redis costs a few timeouts, then shows as away while calls go on without it, and returns', async () => {
    for (let i = 0; i < 300 && (await readyz()).redis !== 'up'; i++) await sleep(100);
    expect(await readyz()).toMatchObject({ redis: 'up' });
    redis.pause();
    // refused logins read the shared throttle counts: each touches Redis while the link is up
    const login = async (i: number) => expect((await stack.jsonrpc('common', 'login', ['gw', `nobody${i}`, 'wrong'])).result).toBe(false);
    for (let i = 0; i < awayAfterTimeouts; i++) await login(i);
    expect(await readyz()).toMatchObject({ redis: 'away' });
    expect(await redisUp()).toBe('0');
    // commands already sent when the link gave up (a timer's, a login's second one) still end with
    // their own timeout; once away, a call waits for no Redis timeout: no more Redis failures are counted
    await sleep(redisTimeoutMs * 1.5);
    const timedOut = await redisFailures();
    expect(timedOut).toBeGreaterThanOrEqual(awayAfterTimeouts);
    for (let i = awayAfterTimeouts; i < awayAfterTimeouts + 3; i++) await login(i);
    expect(await redisFailures()).toBe(timedOut);
    redis.resume();
    for (let i = 0; i < 300 && (await readyz()).redis !== 'up'; i++) await sleep(100);
    expect(await readyz()).toMatchObject({ redis: 'up' });
    expect(await redisUp()).toBe('1');
  }, 90_000);
});
