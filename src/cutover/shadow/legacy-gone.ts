/**
 * An upstream without a legacy service: a 404 for the path (Odoo without the `rpc` module, or a
 * service hidden behind the system parameter `rpc.use_deprecated_services`), a `ValueError: Invalid
 * service name: db` (saas-19.1 and later serve only `object` and `common` from `dispatch_rpc`), or a
 * `KeyError` for the service (an Odoo whose `rpc_dispatchers` lacks it). Shadow mode says so once —
 * in the log and in the report — and stops shadowing that service; there is no error per call.
 */
import type { Logger } from '../../log.ts';
import type { AnswerView } from './answer-view.ts';

/** A service shadow mode stopped for. */
export interface GoneService {
  service: string;
  /** ISO 8601. */
  since: string;
  reason: string;
}

/** Why the answer says the service is gone, or undefined when it is a legacy answer like any other. */
export function goneReason(service: string, path: string, status: number, answer: AnswerView): string | undefined {
  if (status === 404) {
    return `the upstream answers HTTP 404 for POST ${path}: it serves no legacy endpoint there (no rpc module, or the service is hidden behind rpc.use_deprecated_services)`;
  }
  if (answer.kind !== 'fault') return undefined;
  const tail = answer.text.trimEnd();
  if (tail.endsWith(`ValueError: Invalid service name: ${service}`)) {
    return `the upstream's legacy endpoint has no "${service}" service any more (ValueError: Invalid service name: ${service}, as Odoo saas-19.1 and later answer)`;
  }
  if (tail.endsWith(`KeyError: '${service}'`))
    return `the upstream's legacy endpoint has no "${service}" service any more (KeyError: '${service}')`;
  return undefined;
}

/**
 * The services found gone since start (per replica, until it restarts). `what` says what stops
 * in the log line (shadow mode's, or the routes' fallback to translate).
 */
export function createGoneServices(log: Logger, now: () => number = Date.now, what = 'shadow mode stops') {
  const gone = new Map<string, GoneService>();
  return {
    has: (service: string): boolean => gone.has(service),
    /** Records a service as gone; logs it the first time only. */
    mark(service: string, reason: string): void {
      if (gone.has(service)) return;
      gone.set(service, { service, since: new Date(now()).toISOString(), reason });
      log.warn({ service, reason }, `${what} for the legacy ${service} service: the upstream no longer serves it`);
    },
    list: (): GoneService[] => [...gone.values()],
  };
}
