/**
 * An upstream without the legacy endpoints: a 404 for the path (Odoo without the `rpc` module, or a
 * later Odoo that removed them) or a KeyError for the service (Odoo 20 drops `db` from
 * `rpc_dispatchers`, 22 the rest). Shadow mode says so once — in the log and in the report — and
 * stops shadowing that service; there is no error per call.
 */
import type { Logger } from '../log.ts';
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
  if (status === 404) return `the upstream answers HTTP 404 for POST ${path}: it serves no legacy endpoint there`;
  if (answer.kind === 'fault' && answer.text.trimEnd().endsWith(`KeyError: '${service}'`)) {
    return `the upstream's legacy endpoint has no "${service}" service any more (KeyError: '${service}')`;
  }
  return undefined;
}

/** The services found gone since start (per replica, until it restarts). */
export function createGoneServices(log: Logger, now: () => number = Date.now) {
  const gone = new Map<string, GoneService>();
  return {
    has: (service: string): boolean => gone.has(service),
    /** Records a service as gone; logs it the first time only. */
    mark(service: string, reason: string): void {
      if (gone.has(service)) return;
      gone.set(service, { service, since: new Date(now()).toISOString(), reason });
      log.warn({ service, reason }, `shadow mode stops for the legacy ${service} service: the upstream no longer serves it`);
    },
    list: (): GoneService[] => [...gone.values()],
  };
}
