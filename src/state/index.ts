/**
 * State shared by replicas through Redis, built from `--redis-url`, `--state-secret`
 * and `--redis-*`. Without `--redis-url` there is none and every table stays in the process. With
 * it, the credentials layer gets its shared stores (minted keys, uid logins, refusals, throttle
 * counts) and the migration report its shared counters; all of them go on in-process while Redis is
 * away and catch up when it returns.
 */
import type { Config } from '../config.ts';
import type { SharedCredentials } from '../credentials/index.ts';
import { createCacheKeyer } from '../credentials/cache-key.ts';
import type { Logger } from '../log.ts';
import { createFailureStore } from './failure-store.ts';
import { createSharedLocks } from './lock.ts';
import { createLoginStore } from './login-store.ts';
import { createPasswordKeyStore } from './password-key-store.ts';
import { createRedisLink, redisEndpoint, type RedisLink, type RedisLinkEvents } from './redis-link.ts';
import { createReplicas } from './replicas.ts';
import type { ReportStore } from '../report/shared-report.ts';
import { createReportStore } from './report-store.ts';
import { createSealer, reportClientSecret, slotSecret } from './sealed.ts';

export { redisEndpoint } from './redis-link.ts';
export type { RedisLink, RedisLinkEvents } from './redis-link.ts';

/** The shared state of one replica. */
export interface SharedState {
  link: RedisLink;
  /** Where Redis is (without its password), for log lines and /readyz. */
  endpoint: string;
  credentials: SharedCredentials;
  /** The migration report's shared counters. */
  report: ReportStore;
  /** Closes the connection (after the credentials left and the report was flushed). */
  close(): Promise<void>;
}

/** The shared state `config` asks for, or `undefined` without `--redis-url`. */
export function createSharedState(
  config: Config,
  log: Logger,
  options: { events?: RedisLinkEvents; now?: () => number } = {},
): SharedState | undefined {
  if (config.redisUrl === undefined) return undefined;
  if (config.stateSecret === undefined) throw new Error('--state-secret is required with --redis-url');
  const link = createRedisLink({
    url: config.redisUrl,
    prefix: config.redisPrefix,
    timeoutMs: config.redisTimeoutMs,
    log,
    ...(options.events === undefined ? {} : { events: options.events }),
  });
  const sealer = createSealer(config.stateSecret);
  const slots = slotSecret(config.stateSecret);
  const locks = createSharedLocks(link, { timeoutMs: config.redisLockTimeoutMs });
  const replicas = createReplicas(link);
  return {
    link,
    endpoint: redisEndpoint(config.redisUrl),
    credentials: {
      passwordKeys: createPasswordKeyStore({ link, sealer, locks, replicas, max: config.keyCacheSize, now: options.now ?? Date.now, log }),
      logins: createLoginStore({ link, sealer, name: createCacheKeyer(slots) }),
      failures: createFailureStore(link),
      slotSecret: slots,
      localTtlMs: config.redisLocalTtlMs,
    },
    report: createReportStore(link, { maxClients: config.reportSize, sealer, idKey: reportClientSecret(config.stateSecret) }),
    close: () => link.close(),
  };
}
