/**
 * The headers every upstream request carries besides its own: Host per the `upstream-host` setting,
 * X-Forwarded-For/-Proto/-Host for Odoo's proxy_mode, a User-Agent naming the gateway and the
 * legacy client (docs/architecture.md §6), the call's X-Request-Id (so a call can be followed into Odoo's log) and
 * the client's W3C trace context (replaced by the gateway's own span context when it exports traces).
 */
import { gatewayVersion } from '../build-info.ts';
import type { CallClient } from '../call.ts';
import type { Config } from '../config.ts';

/** The gateway's product token, with the version of the running build (as in Odoo's log and access logs). */
export const gatewayUserAgent = `legacy-rpc-gateway/${gatewayVersion}`;

/** Builds the common headers for one upstream request on behalf of `origin` for database `db`. */
export function forwardedHeaders(config: Config, origin: CallClient, db: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': origin.userAgent ? `${gatewayUserAgent} (${origin.userAgent})` : gatewayUserAgent,
    'x-forwarded-for': origin.ip,
    'x-forwarded-proto': origin.proto,
  };
  if (origin.host) headers['x-forwarded-host'] = origin.host;
  if (origin.requestId) headers['x-request-id'] = origin.requestId;
  if (origin.traceContext !== undefined) {
    headers.traceparent = origin.traceContext.traceparent;
    if (origin.traceContext.tracestate !== undefined) headers.tracestate = origin.traceContext.tracestate;
  }
  const host = hostFor(config.upstreamHost, origin.host, db);
  if (host) headers.host = host;
  return headers;
}

/**
 * `client` → the client's Host; `upstream` → undici's default; `{db}` templates filled in — or, for
 * a request that names no database (version, database manager), the client's Host.
 */
function hostFor(mode: string, clientHost: string, db: string | undefined): string | undefined {
  if (mode === 'upstream') return undefined;
  if (mode === 'client' || (db === undefined && mode.includes('{db}'))) return clientHost || undefined;
  return mode.replaceAll('{db}', db ?? '');
}
