/**
 * Whose fault a failed call's is, for the migration report: one Odoo's own legacy endpoint would
 * have answered too (Odoo refused the call: the script's own bug, a missing record, a bad password)
 * or the gateway's (the upstream did not answer, a bound or a refusal of the gateway's own). The
 * gateway names itself in every fault it raises that Odoo would not have: its exception names start
 * with `legacy_rpc_gateway.` and its refusals say `legacy-rpc-gateway`.
 */
import type { LegacyError } from '../errors.ts';

const gatewayKinds: ReadonlySet<string> = new Set(['upstream_timeout', 'upstream_unavailable', 'upstream_invalid']);
/** A native route's outcome: Odoo's own legacy endpoint answered that fault (`src/server/routing.ts`). */
const nativeFault = 'legacy_rpc_gateway.NativeFault';

/** True when `error` is the gateway's, not one Odoo 19.0's legacy endpoint would have answered. */
export function isGatewayFault(error: LegacyError): boolean {
  if (error.name === nativeFault) return false;
  return (
    gatewayKinds.has(error.kind) ||
    error.name.startsWith('legacy_rpc_gateway.') ||
    error.message.includes('legacy-rpc-gateway') ||
    error.str.includes('legacy-rpc-gateway')
  );
}
