/** The work shares of the legacy services' upstream connections, from the settings. */
import type { Config } from '../config.ts';
import { upstreamError } from './errors/index.ts';
import { createWorkShares, type WorkKind, type WorkShareEvents, type WorkShares } from './work-shares.ts';

const shareSetting: Record<WorkKind, string> = { call: '--upstream-connections', keys: '--key-connections', db: '--db-connections' };

/** `--upstream-connections`, `--key-connections`, `--db-connections`, `--slow-call`, `--slow-connections`, `--queue-timeout`. */
export function createUpstreamShares(config: Config, events?: WorkShareEvents): WorkShares {
  const url = new URL(config.upstream);
  return createWorkShares({
    shares: { call: config.upstreamConnections, keys: config.keyConnections, db: config.dbConnections },
    slowAfterMs: config.slowCallMs,
    slowLane: config.slowConnections,
    maxWaitMs: config.queueTimeoutMs,
    waitedTooLong: (kind, waitedMs) =>
      upstreamError('upstream_timeout', `no upstream connection of its share (${shareSetting[kind]}) came free within --queue-timeout: the calls before it still run`, `${url.origin}${url.pathname.replace(/\/+$/, '')}`, waitedMs),
    ...(events === undefined ? {} : { events }),
  });
}
