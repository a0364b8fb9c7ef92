/** The work shares of the legacy services' upstream connections, from the settings. */
import type { Config } from '../config.ts';
import { upstreamError } from './errors/index.ts';
import { createWorkShares, type Lane, type WorkShareEvents, type WorkShares } from './work-shares.ts';

const shareSetting: Record<Lane, string> = { call: '--upstream-connections', keys: '--key-connections', db: '--db-connections', slow: '--slow-connections' };

/** `--upstream-connections`, `--key-connections`, `--db-connections`, `--slow-call`, `--slow-connections`, `--queue-timeout`. */
export function createUpstreamShares(config: Config, events?: WorkShareEvents): WorkShares {
  const url = new URL(config.upstream);
  return createWorkShares({
    shares: { call: config.upstreamConnections, keys: config.keyConnections, db: config.dbConnections },
    slowAfterMs: config.slowCallMs,
    slowLane: config.slowConnections,
    maxWaitMs: config.queueTimeoutMs,
    waitedTooLong: (queue, waitedMs) =>
      upstreamError('upstream_timeout', `no upstream connection of its share (${shareSetting[queue]}) came free within --queue-timeout: the calls before it still run`, `${url.origin}${url.pathname.replace(/\/+$/, '')}`, waitedMs),
    ...(events === undefined ? {} : { events }),
  });
}
