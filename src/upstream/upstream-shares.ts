/** The work shares of the legacy services' upstream connections, from the settings. */
import type { Config } from '../config.ts';
import { upstreamError } from './errors/index.ts';
import { createWorkShares, type Lane, type WorkShareEvents, type WorkShares } from './work-shares.ts';

const shareSetting: Record<Lane, string> = {
  call: '--upstream-connections',
  keys: '--key-connections',
  db: '--db-connections',
  slow: '--slow-connections',
};

/** `--light-reserve` as set, or its default: a quarter of `--upstream-connections`, at least 2. */
export function lightReserveOf(config: Pick<Config, 'lightReserve' | 'upstreamConnections'>): number {
  return config.lightReserve ?? Math.max(2, Math.ceil(config.upstreamConnections / 4));
}

/**
 * `--upstream-connections`, `--key-connections`, `--db-connections`, `--slow-call`, `--slow-call-samples`, `--slow-connections`,
 * `--light-reserve`, `--queue-timeout`; a call known slow waits at most its `--call-timeout`, not the light
 * calls' `--queue-timeout`: Odoo would have answered it, only slowly (docs/operations.md, sizing).
 */
export function createUpstreamShares(config: Config, events?: WorkShareEvents): WorkShares {
  const url = new URL(config.upstream);
  return createWorkShares({
    shares: { call: config.upstreamConnections, keys: config.keyConnections, db: config.dbConnections },
    slowAfterMs: config.slowCallMs,
    slowSamples: config.slowCallSamples,
    slowLane: config.slowConnections,
    lightReserve: lightReserveOf(config),
    maxWaitMs: config.queueTimeoutMs,
    slowMaxWaitMs: config.callTimeoutMs,
    waitedTooLong: (queue, waitedMs, bound) => {
      const within =
        bound === 'deadline'
          ? "before the call's deadline (--call-timeout; --db-timeout for the db service)"
          : queue === 'slow'
            ? 'within --call-timeout'
            : 'within --queue-timeout';
      const share =
        queue === 'slow' ? `${shareSetting.slow}, or one of --upstream-connections beyond --light-reserve` : shareSetting[queue];
      return upstreamError(
        'upstream_timeout',
        `no upstream connection of its share (${share}) came free ${within}: the calls before it still run`,
        `${url.origin}${url.pathname.replace(/\/+$/, '')}`,
        waitedMs,
      );
    },
    ...(events === undefined ? {} : { events }),
  });
}
