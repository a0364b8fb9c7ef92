import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../log.ts';
import { sharedRedisUrl, startPrivateRedis, testPrefix } from '../../test/support/redis.ts';
import { awayAfterTimeouts, createRedisLink, redisEndpoint, type RedisLink } from './redis-link.ts';

const links: RedisLink[] = [];
afterAll(async () => {
  await Promise.all(links.map((l) => l.close()));
});

describe('redisEndpoint()', () => {
  it('never shows the password of the URL', () => {
    expect(redisEndpoint('redis://:s3cret@redis.internal:6380/2')).toBe('redis://redis.internal:6380/2');
    expect(redisEndpoint('rediss://user:s3cret@redis.internal')).toBe('rediss://redis.internal');
  });
});

describe('createRedisLink()', () => {
  it('runs commands while Redis answers, prefixes keys, and reports its state', async () => {
    const states: boolean[] = [];
    const link = createRedisLink({
      url: sharedRedisUrl(),
      prefix: testPrefix('link'),
      timeoutMs: 500,
      log: createLogger('silent'),
      events: { state: (up) => states.push(up), failure: () => undefined },
    });
    links.push(link);
    expect(await link.ready(5000)).toBe(true);
    expect(link.up).toBe(true);
    expect(link.key('a', 'b')).toMatch(/^lrg-test:link:[0-9a-f]{8}:a:b$/);
    const key = link.key('x');
    expect(await link.attempt('test', async (r) => (await r.set(key, 'v', 'PX', 5000), r.get(key)))).toBe('v');
    expect(states).toEqual([false, true]);
  });

  it('answers undefined instead of failing while Redis is away, and comes back by itself', async () => {
    const redis = await startPrivateRedis();
    const failures: string[] = [];
    const ups: number[] = [];
    const link = createRedisLink({
      url: redis.url,
      prefix: testPrefix('away'),
      timeoutMs: 200,
      log: createLogger('silent'),
      events: { state: () => undefined, failure: (op) => failures.push(op) },
    });
    links.push(link);
    link.onUp(() => ups.push(Date.now()));
    expect(await link.ready(5000)).toBe(true);
    await redis.stop();
    for (let i = 0; i < 100 && link.up; i++) await new Promise((r) => setTimeout(r, 20));
    expect(link.up).toBe(false);
    expect(await link.attempt('read', (r) => r.get('k'))).toBeUndefined();
    await redis.start();
    expect(await link.ready(10_000)).toBe(true);
    expect(ups).toHaveLength(2); // the first connection and the return
    expect(await link.attempt('read', (r) => r.get('k'))).toBeNull();
    await link.close();
    await redis.stop();
  });

  it('counts a hung Redis away after a few timeouts in a row, so later calls cost no timeout, and reconnects once it answers', async () => {
    const redis = await startPrivateRedis();
    const states: boolean[] = [];
    const link = createRedisLink({
      url: redis.url,
      prefix: testPrefix('hung'),
      timeoutMs: 100,
      log: createLogger('silent'),
      events: { state: (up) => states.push(up), failure: () => undefined },
    });
    links.push(link);
    try {
      expect(await link.ready(5000)).toBe(true);
      redis.pause();
      for (let i = 0; i < awayAfterTimeouts; i++) {
        const started = performance.now();
        expect(await link.attempt('read', (r) => r.get('k'))).toBeUndefined();
        expect(performance.now() - started).toBeGreaterThanOrEqual(90); // one timeout each
      }
      expect(link.up).toBe(false);
      expect(states.at(-1)).toBe(false);
      const started = performance.now();
      for (let i = 0; i < 20; i++) expect(await link.attempt('read', (r) => r.get('k'))).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(50); // twenty calls, no timeout
      redis.resume();
      expect(await link.ready(10_000)).toBe(true);
      expect(await link.attempt('read', (r) => r.get('k'))).toBeNull();
    } finally {
      redis.resume();
      await link.close();
      await redis.stop();
    }
  });

  it('counts a command that fails, and goes on', async () => {
    const failures: string[] = [];
    const link = createRedisLink({
      url: sharedRedisUrl(),
      prefix: testPrefix('fail'),
      timeoutMs: 500,
      log: createLogger('silent'),
      events: { state: () => undefined, failure: (op) => failures.push(op) },
    });
    links.push(link);
    await link.ready(5000);
    const key = link.key('h');
    await link.attempt('set', (r) => r.set(key, 'text', 'PX', 5000));
    expect(await link.attempt('wrong-type', (r) => r.hget(key, 'f'))).toBeUndefined(); // WRONGTYPE
    expect(failures).toEqual(['wrong-type']);
  });
});
