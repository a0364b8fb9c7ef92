/**
 * Redis for tests. `sharedRedisUrl()` is the run's shared Redis (`REDIS_URL`, else the machine's
 * on 127.0.0.1:6379, else one the run starts and stops: redis-global-setup.ts); each test isolates itself with its own key
 * prefix (`testPrefix()`). `startPrivateRedis()` spawns a throw-away `redis-server` on a free port
 * for tests that stop and restart Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, inject } from 'vitest';
import { freePort } from '../../bench/free-port.ts';
import type { RedisLink } from '../../src/state/redis-link.ts';

/** The run's shared Redis (test/support/redis-global-setup.ts: `REDIS_URL`, the machine's, or the run's own). */
export const sharedRedisUrl = (): string => inject('redisUrl') ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test uses. */
export const testPrefix = (name: string): string => `lrg-test:${name}:${randomBytes(4).toString('hex')}:`;

/** A plain client for assertions (keys, values); `quit()` it. */
export const redisClient = (url = sharedRedisUrl()): Redis => new Redis(url, { maxRetriesPerRequest: 1 });

/**
 * What a test file that uses the shared Redis keeps, and cleans up after its last test: the links it
 * opened (closed), the prefixes it wrote under (emptied) and a plain client for assertions (quit).
 */
export function redisTestScope(): { redis: Redis; links: RedisLink[]; prefixes: string[] } {
  const scope = { redis: redisClient(), links: [] as RedisLink[], prefixes: [] as string[] };
  afterAll(async () => {
    await Promise.all(scope.links.map((l) => l.close()));
    for (const prefix of scope.prefixes) {
      const keys = await keysUnder(scope.redis, prefix);
      if (keys.length > 0) await scope.redis.del(...keys);
    }
    await scope.redis.quit();
  });
  return scope;
}

/** Every key under `prefix`. */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    out.push(...keys);
  } while (cursor !== '0');
  return out;
}

/** A redis-server of the test's own, stopped and started at will on the same port. */
export interface PrivateRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered — a hung Redis. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
}

/** `password`: the server requires it (`--requirepass`), and `url` carries it. */
export async function startPrivateRedis({ password }: { password?: string } = {}): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const auth = password === undefined ? [] : ['--requirepass', password];
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...auth], {
      stdio: 'ignore',
    });
    const probe = new Redis(port, '127.0.0.1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      ...(password === undefined ? {} : { password }),
    });
    probe.on('error', () => undefined);
    for (let i = 0; i < 100; i++) {
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        await sleep(50);
      }
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  await start();
  return {
    url: password === undefined ? `redis://127.0.0.1:${port}` : `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    port,
    start,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    async stop() {
      if (child === undefined || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
