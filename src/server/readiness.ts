/**
 * `/readyz`: ready while the upstream answers its health route and the gateway is not draining.
 * A load balancer stops sending new clients as soon as a shutdown starts. With `--redis-url` the
 * answer also says whether Redis answers; a replica without Redis still serves (with in-process
 * state), so Redis being away does not make it unready.
 */
import { LegacyError } from '../errors.ts';

/** Whether the shared store answers (absent without `--redis-url`). */
export type SharedStoreState = 'up' | 'away';

/** The answer of one readiness check. */
export type Readiness = ({ ready: true } | { ready: false; reason: string }) & { redis?: SharedStoreState };

/** What the check looks at. */
export interface ReadinessOptions {
  /** True once graceful shutdown started. */
  isDraining: () => boolean;
  /** Resolves when the upstream answers (`GET /web/health`), aborted by `signal`. */
  checkUpstream: (signal: AbortSignal) => Promise<void>;
  /** Longest wait for the upstream's answer. */
  timeoutMs: number;
  /** The shared store's state, with `--redis-url`. */
  sharedStore?: () => SharedStoreState;
  /** The start-up check's state: not ready, with its reason, while it found the upstream unusable (no reason yet: the live check decides). */
  startup?: () => { reachable: boolean; reason?: string };
  /** Has the start-up check ask the upstream again now (resolves when that attempt ended), so its reason is never stale. */
  retryStartup?: () => Promise<void>;
}

/** Creates the check; each call asks the upstream once (probes are seconds apart). */
export function createReadiness({
  isDraining,
  checkUpstream,
  timeoutMs,
  sharedStore,
  startup,
  retryStartup,
}: ReadinessOptions): () => Promise<Readiness> {
  async function upstreamReadiness(): Promise<Readiness> {
    if (isDraining()) return { ready: false, reason: 'draining: the gateway is shutting down' };
    let started = startup?.();
    if (started !== undefined && !started.reachable && started.reason !== undefined && retryStartup !== undefined) {
      // the reason may be up to 30 s old (the check's retries back off): ask again now, within the probe's time
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([retryStartup(), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      started = startup?.();
    }
    if (started !== undefined && !started.reachable && started.reason !== undefined) return { ready: false, reason: started.reason };
    try {
      await checkUpstream(AbortSignal.timeout(timeoutMs));
      return { ready: true };
    } catch (err) {
      return { ready: false, reason: `upstream unreachable: ${LegacyError.from(err).message}` };
    }
  }
  return async function readiness() {
    const state = await upstreamReadiness();
    return sharedStore === undefined ? state : { ...state, redis: sharedStore() };
  };
}
