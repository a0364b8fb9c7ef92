/**
 * The Redis the replica tests share (`sharedRedisUrl()`), owned by the test run: `REDIS_URL` when
 * set, else the machine's own on 127.0.0.1:6379 when one answers, else a `redis-server` of the run's
 * own on a free port, stopped when the run ends — no daemon is left behind (vitest `globalSetup`).
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../bench/free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

async function answers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * The Redis URL the run shares, and how to stop it when the run started it: `given` (REDIS_URL),
 * else `machine` when it answers, else a `redis-server` of the run's own on a free port.
 */
export async function runRedis(given: string | undefined, machine: string): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (given !== undefined && given !== '') return { url: given };
  if (await answers(machine)) return { url: machine };
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  child.on('error', () => undefined); // no redis-server here: the replica tests say so when they connect
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50 && !(await answers(url)); i++) await sleep(100);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
    },
  };
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const redis = await runRedis(process.env.REDIS_URL, 'redis://127.0.0.1:6379');
  project.provide('redisUrl', redis.url);
  return redis.stop;
}
