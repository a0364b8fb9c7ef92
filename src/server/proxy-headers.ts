/**
 * Headers across the passthrough, in hono's `helper/proxy` way: hop-by-hop headers (RFC 7230
 * §6.1) and the headers a `Connection` header names are dropped in both directions; the client's
 * own `X-Forwarded-*` are replaced by the gateway's view of the client (trusted proxies resolved),
 * the same one legacy calls carry upstream; `Host` follows `--upstream-host`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../config.ts';
import type { ClientAddress } from './client-address.ts';

/** RFC 7230 §6.1 plus the non-standard `proxy-connection`; never forwarded as they are. */
export const hopByHopHeaders: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Replaced with the gateway's own values. `expect`: Node's server already answered 100-continue. */
const replacedRequestHeaders: ReadonlySet<string> = new Set(['host', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'expect']);

/** A header token (RFC 7230 §3.2.6): what a `Connection` header may name. */
const tokenPattern = /^[!#$%&'*+\-.0-9A-Z^_`a-z|~]+$/;

/** The header names a `Connection` value lists (only valid tokens, lower-cased). */
export function connectionTokens(value: string | string[] | undefined): Set<string> {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    joined
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter((t) => tokenPattern.test(t)),
  );
}

/** What the forwarded headers describe. */
export interface ForwardedFor {
  address: ClientAddress;
  /** The client's `Host` header ('' when absent). */
  clientHost: string;
}

/**
 * The request headers to send upstream: the client's, minus hop-by-hop and `Connection`-named ones,
 * plus `X-Forwarded-For/-Proto/-Host` and `Host` per `--upstream-host` (`client`, and any template
 * with `{db}` as no database is known here: the client's Host; `upstream`: left to the HTTP client; a
 * fixed name: that name). `keep` names hop-by-hop headers to keep (`upgrade` for a websocket).
 */
export function requestHeadersToUpstream(
  headers: IncomingHttpHeaders,
  forwarded: ForwardedFor,
  upstreamHost: Config['upstreamHost'],
  keep: ReadonlySet<string> = new Set(),
): Record<string, string | string[]> {
  const named = connectionTokens(headers.connection);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || replacedRequestHeaders.has(lower)) continue;
    if ((hopByHopHeaders.has(lower) || named.has(lower)) && !keep.has(lower)) continue;
    out[lower] = value;
  }
  out['x-forwarded-for'] = forwarded.address.ip;
  out['x-forwarded-proto'] = forwarded.address.proto;
  if (forwarded.clientHost !== '') out['x-forwarded-host'] = forwarded.clientHost;
  const host =
    upstreamHost === 'upstream'
      ? undefined
      : upstreamHost === 'client' || upstreamHost.includes('{db}')
        ? forwarded.clientHost
        : upstreamHost;
  if (host) out.host = host;
  return out;
}

/** The response headers to send the client: the upstream's, minus hop-by-hop and `Connection`-named ones. */
export function responseHeadersToClient(headers: IncomingHttpHeaders): Headers {
  const named = connectionTokens(headers.connection);
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || hopByHopHeaders.has(lower) || named.has(lower)) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(lower, v);
  }
  return out;
}
