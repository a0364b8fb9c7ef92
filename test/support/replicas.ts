/**
 * Several gateways sharing one Redis in this process, in front of one simulator: each a
 * full gateway (its own pools, caches and ports), all with the same --redis-url, --redis-prefix and
 * --state-secret. The process-level test (4 child processes) is test/integration/replica-processes.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../sim/index.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createLogger, type Logger } from '../../src/log.ts';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../src/server/gateway.ts';
import { jsonrpcAt } from './stack.ts';
import { Redis } from 'ioredis';
import { keysUnder, sharedRedisUrl, testPrefix } from './redis.ts';

export interface Replicas {
  sim: Simulator;
  gateways: RunningGateway[];
  configs: Config[];
  prefix: string;
  secret: string;
  /** A /jsonrpc call to replica `i`. */
  call(i: number, service: string, method: string, args: unknown[]): ReturnType<typeof jsonrpcAt>;
  /** Graceful shutdown of replica `i` alone. */
  stop(i: number): Promise<void>;
  /** Stops every replica and the simulator, and deletes the keys the replicas wrote (the report's have no expiry). */
  close(): Promise<void>;
}

export async function startReplicas(
  count: number,
  options: {
    name: string;
    redisUrl?: string;
    flags?: string[] | ((sim: Simulator) => string[]);
    sim?: SimulatorOptions;
    gateway?: GatewayOptions;
    log?: Logger;
  },
): Promise<Replicas> {
  const sim = await startSimulator({ databases: ['gw'], ...options.sim });
  const prefix = testPrefix(options.name);
  const secret = randomBytes(32).toString('base64');
  const given = typeof options.flags === 'function' ? options.flags(sim) : (options.flags ?? []);
  // On a loaded CI machine a Redis reply can take longer than the 500 ms default, which the gateway
  // rightly takes for "Redis away" (each replica then acts alone): tests that are not about outages
  // get a timeout no healthy Redis misses, so they test sharing and not the machine's load.
  const flags = given.includes('--redis-timeout') ? given : ['--redis-timeout', '10000', ...given];
  const redisUrl = options.redisUrl ?? sharedRedisUrl();
  const configs = Array.from({ length: count }, () =>
    loadConfig(
      [
        '--port',
        '0',
        '--admin-port',
        '0',
        '--upstream',
        sim.url,
        '--redis-url',
        redisUrl,
        '--redis-prefix',
        prefix,
        '--state-secret',
        secret,
        ...flags,
      ],
      {},
    ),
  );
  const gateways: RunningGateway[] = [];
  for (const config of configs) gateways.push(await startGateway(config, options.log ?? createLogger('silent'), options.gateway));
  // the start-up checks' own requests are not what a test counts
  await Promise.all(gateways.map((g) => g.startupCheck.start()));
  sim.clearLog();
  const open = new Set(gateways);
  return {
    sim,
    gateways,
    configs,
    prefix,
    secret,
    call: (i, service, method, args) => jsonrpcAt(gateways[i]!.url, service, method, args),
    async stop(i) {
      const g = gateways[i]!;
      if (open.delete(g)) await g.close();
    },
    async close() {
      for (const g of open) await g.close();
      open.clear();
      await sim.close();
      await deleteKeysUnder(redisUrl, prefix);
    },
  };
}

/** Deletes every key under `prefix`; a Redis that is not there (a test stopped it) has none to delete. */
async function deleteKeysUnder(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const keys = await keysUnder(redis, prefix);
    if (keys.length > 0) await redis.del(...keys);
  } catch {
    // nothing reachable to clean
  } finally {
    redis.disconnect();
  }
}
