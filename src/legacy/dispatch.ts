/**
 * `odoo.http.dispatch_rpc`: routes a decoded call to its service. An unknown service is the
 * KeyError Odoo raises from its `rpc_dispatchers` lookup.
 */
import type { CallOrigin, LegacyCall } from '../call.ts';
import { pythonError } from '../errors.ts';
import { pyRepr } from '../python/int-text.ts';
import type { CallResult } from '../value.ts';

/** One legacy service: resolves with the result (streamed for `db.dump`) or rejects with a LegacyError. */
export type ServiceHandler = (call: LegacyCall, origin: CallOrigin) => Promise<CallResult>;

/** The dispatcher every wire handler calls. */
export type Dispatch = ServiceHandler;

export function createDispatch(services: Partial<Record<string, ServiceHandler>>): Dispatch {
  return async function dispatch(call, origin) {
    const service = Object.hasOwn(services, call.service) ? services[call.service] : undefined;
    if (!service) throw pythonError('KeyError', call.service, pyRepr(call.service));
    return service(call, origin);
  };
}
