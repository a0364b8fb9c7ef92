import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { freePort } from '../../bench/free-port.ts';
import { runRedis } from './redis-global-setup.ts';

describe('runRedis()', () => {
  it('takes REDIS_URL as given, and starts a Redis of its own (stopped after) when none answers', async () => {
    await expect(runRedis('redis://elsewhere:6390', 'redis://127.0.0.1:1')).resolves.toEqual({ url: 'redis://elsewhere:6390' });
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    const own = await runRedis(undefined, nobody);
    expect(own.url).not.toBe(nobody);
    expect(own.stop).toBeDefined();
    const client = new Redis(own.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    expect(await client.ping()).toBe('PONG');
    client.disconnect();
    await own.stop?.();
    const after = new Redis(own.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    after.on('error', () => undefined);
    await expect(after.connect()).rejects.toThrow();
    after.disconnect();
  });
});
