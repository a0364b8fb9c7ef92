/**
 * `GET /web/health` (Odoo's load-balancer probe, `{"status": "pass"}`): whether the upstream
 * answers at all, for the admin port's `/readyz`. The probe has connections of its own, outside the
 * legacy-call pool: slow calls filling that pool must not make a replica look unready.
 */
import type { Config } from '../config.ts';
import { forwardedHeaders } from './forwarded-headers.ts';
import { createUpstreamPool } from './pool.ts';
import { errorFromTransport, upstreamError } from './errors/index.ts';

/** The probe and its own connections. */
export interface HealthCheck {
  /** Resolves when the upstream answers 200; rejects with a LegacyError (unreachable, timeout, other status). Aborted by `signal`. */
  check(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** Probes run seconds apart; two connections let one start while a timed-out one is still closing. */
const probeConnections = 2;

/** Creates the probe. `signal` bounds it whole, from the moment `check` is called (connecting included). */
export function createHealthCheck(config: Config): HealthCheck {
  const { pool, prefix, url } = createUpstreamPool(config, probeConnections);
  const headers = forwardedHeaders(
    config,
    { host: '', ip: '127.0.0.1', proto: 'http', userAgent: '', requestId: 'readyz', signal: new AbortController().signal },
    undefined,
  );
  return {
    async check(signal) {
      const started = performance.now();
      let status: number;
      try {
        const res = await pool.request({ method: 'GET', path: `${prefix}/web/health`, headers, signal });
        status = res.statusCode;
        await res.body.dump();
      } catch (err) {
        throw errorFromTransport(err, url, performance.now() - started, signal.aborted);
      }
      if (status !== 200)
        throw upstreamError('upstream_invalid', `upstream /web/health answered ${status}`, url, performance.now() - started);
    },
    close: () => pool.close(),
  };
}
