/**
 * `/readyz`: ready while the upstream answers its health route and the gateway is not draining.
 * A load balancer stops sending new clients as soon as a shutdown starts.
 */
import { LegacyError } from '../errors.ts';

/** The answer of one readiness check. */
export type Readiness = { ready: true } | { ready: false; reason: string };

/** What the check looks at. */
export interface ReadinessOptions {
  /** True once graceful shutdown started. */
  isDraining: () => boolean;
  /** Resolves when the upstream answers (`GET /web/health`), aborted by `signal`. */
  checkUpstream: (signal: AbortSignal) => Promise<void>;
  /** Longest wait for the upstream's answer. */
  timeoutMs: number;
}

/** Creates the check; each call asks the upstream once (probes are seconds apart). */
export function createReadiness({ isDraining, checkUpstream, timeoutMs }: ReadinessOptions): () => Promise<Readiness> {
  return async function readiness() {
    if (isDraining()) return { ready: false, reason: 'draining: the gateway is shutting down' };
    try {
      await checkUpstream(AbortSignal.timeout(timeoutMs));
      return { ready: true };
    } catch (err) {
      return { ready: false, reason: `upstream unreachable: ${LegacyError.from(err).message}` };
    }
  };
}
