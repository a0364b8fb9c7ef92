/**
 * @module Passthrough handler for the client port (docs/architecture.md §6), modelled on hono's `helper/proxy`:
 * every request the gateway does not own goes to the upstream unchanged — method, path and query,
 * headers (minus hop-by-hop, plus `X-Forwarded-*`), body read whole before the upstream is contacted
 * (in memory up to `--passthrough-buffer`, on disk beyond, refused with 413 past `--passthrough-max-body`) — and the
 * answer comes back the same way: status, headers (cookies and redirects untouched), body streamed,
 * `Content-Encoding`/`Content-Length` passed as they are since nothing is decoded. A web login's
 * Host headers are the one exception (`passthrough-login.ts`).
 */
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { IncomingHttpHeaders } from 'node:http';
import { createCallValues } from '../call.ts';
import type { Config } from '../config.ts';
import { LegacyError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { PassthroughClient } from '../upstream/index.ts';
import { clientAddress } from './client-address.ts';
import { declaredLength } from './read-body.ts';
import { requestHeadersToUpstream, responseHeadersToClient } from './proxy-headers.ts';
import { spoolBody, SpoolError, type SpooledBody } from './spooled-body.ts';
import { sessionAuthenticatePath, tapSessionLogin, type OnSessionLogin } from './session-login-tap.ts';
import { loginAtBaseUrl, type LoginBaseUrl } from './passthrough-login.ts';

type Env = { Bindings: Partial<HttpBindings> };

/** Statuses whose answers never carry a body (RFC 9110 §6.4.1). */
const bodilessStatuses: ReadonlySet<number> = new Set([204, 205, 304]);

/** What the handler needs. */
export interface PassthroughOptions {
  forward: PassthroughClient['forward'];
  config: Pick<Config, 'upstreamHost' | 'trustedProxies' | 'passthroughBufferBytes' | 'passthroughMaxBodyBytes' | 'passthroughSpoolDir'>;
  log: Logger;
  /** Hears each answer's status (`undefined`: the upstream could not be reached) and its seconds until the headers, for metrics. */
  onAnswer?: (status: number | undefined, seconds: number) => void;
  /** Hears the logins of successful `/web/session/authenticate` calls (uid → login for minting). */
  onSessionLogin?: OnSessionLogin;
  /** The base URL Odoo has in a database, when known: a passed-through web login is made at it (passthrough-login.ts). */
  loginBaseUrl?: LoginBaseUrl;
  /** Hears that a `/web/database/*` form was passed through (answered or not): it may have set a master password. */
  onDatabaseForm?: () => void;
}

/**
 * Creates the handler; mount it last (`app.all('*', passthrough(...))`). Unreachable upstream: 502,
 * no answer in time: 504, both plain text, detail in the log only.
 * @example app.all('*', passthrough({ forward: client.forward, config, log }))
 */
export function passthrough({
  forward,
  config,
  log,
  onAnswer = () => undefined,
  onSessionLogin,
  loginBaseUrl,
  onDatabaseForm,
}: PassthroughOptions) {
  const limits = { memoryBytes: config.passthroughBufferBytes, maxBytes: config.passthroughMaxBodyBytes, dir: config.passthroughSpoolDir };
  return async function passthroughHandler(c: Context<Env>): Promise<Response> {
    const started = performance.now();
    const incoming = c.env?.incoming;
    const headers: IncomingHttpHeaders = incoming?.headers ?? Object.fromEntries(c.req.raw.headers);
    const address = clientAddress(
      incoming?.socket.remoteAddress ?? '127.0.0.1',
      c.req.header('x-forwarded-for'),
      c.req.header('x-forwarded-proto'),
      config.trustedProxies,
    );
    const url = new URL(c.req.url);
    // the raw request target, so the upstream sees the path exactly as the client wrote it
    const target = incoming?.url?.startsWith('/') ? incoming.url : url.pathname + url.search;
    const method = c.req.method;
    const line = { method, path: url.pathname, clientIp: address.ip };
    let spooled: SpooledBody | null = null;
    let forwardedAt = started;
    try {
      const raw = method === 'GET' || method === 'HEAD' ? null : c.req.raw.body;
      // the whole body first, whatever its size: the upstream is not contacted meanwhile
      const read = raw === null ? null : await spoolBody(raw, declaredLength(headers), limits);
      if (read === 'too-large') return tooLarge(config.passthroughMaxBodyBytes);
      spooled = read;
      forwardedAt = performance.now();
      const upstreamHeaders = requestHeadersToUpstream(headers, { address, clientHost: headers.host ?? '' }, config.upstreamHost);
      if (loginBaseUrl !== undefined && spooled !== null && 'bytes' in spooled) {
        const origin = {
          host: headers.host ?? '',
          ...address,
          userAgent: headers['user-agent'] ?? '',
          requestId: typeof headers['x-request-id'] === 'string' ? headers['x-request-id'] : '',
          signal: c.req.raw.signal,
          values: createCallValues(),
        };
        const atRoot = await loginAtBaseUrl({ method, path: url.pathname, body: spooled.bytes }, origin, loginBaseUrl);
        Object.assign(upstreamHeaders, atRoot);
      }
      // a body read from disk is streamed to the upstream: say its length, so it is not sent chunked
      if (spooled !== null && !('bytes' in spooled)) upstreamHeaders['content-length'] = String(spooled.size);
      const res = await forward({
        method,
        target,
        headers: upstreamHeaders,
        body: spooled === null ? null : 'bytes' in spooled ? spooled.bytes : spooled.stream(),
        signal: c.req.raw.signal,
      }).finally(() => {
        // the upstream answered (or failed): its request body is sent or no longer wanted
        if (spooled !== null && !('bytes' in spooled)) void spooled.close();
        if (raw !== null && url.pathname.startsWith('/web/database/')) onDatabaseForm?.();
      });
      onAnswer(res.status, (performance.now() - forwardedAt) / 1000);
      log.debug({ ...line, status: res.status, durationMs: Math.round(performance.now() - started) }, 'passthrough');
      const bodiless = method === 'HEAD' || bodilessStatuses.has(res.status);
      if (bodiless) await res.body.cancel();
      if (res.status < 200 || res.status > 599) return gatewayError(502);
      const tapped = onSessionLogin && method === 'POST' && url.pathname === sessionAuthenticatePath && res.status === 200;
      const body = bodiless ? null : tapped ? tapSessionLogin(res.body, onSessionLogin) : res.body;
      return new Response(body, { status: res.status, headers: responseHeadersToClient(res.headers) });
    } catch (err) {
      if (spooled !== null && !('bytes' in spooled)) void spooled.close();
      if (err instanceof SpoolError) {
        // the gateway's own disk, not Odoo: nginx answers 500 when it cannot write client_body_temp
        log.error({ ...line, code: err.code, detail: err.message }, 'passthrough failed: the request body could not be spooled');
        return new Response(`500 Internal Server Error: the gateway ${err.message}.\n`, {
          status: 500,
          headers: { 'content-type': 'text/plain; charset=utf-8', connection: 'close' },
        });
      }
      if (c.req.raw.signal.aborted) return gatewayError(502); // the client left; nobody reads this
      onAnswer(undefined, (performance.now() - forwardedAt) / 1000);
      const error = LegacyError.from(err);
      log.warn({ ...line, detail: error.message }, 'passthrough failed: the upstream did not answer');
      return gatewayError(error.kind === 'upstream_timeout' ? 504 : 502);
    }
  };
}

/** nginx's answer past client_max_body_size; the connection closes, the rest of the body unread. */
function tooLarge(maxBytes: number): Response {
  const text = `413 Request Entity Too Large: the body exceeds ${maxBytes} bytes (--passthrough-max-body).\n`;
  return new Response(text, { status: 413, headers: { 'content-type': 'text/plain; charset=utf-8', connection: 'close' } });
}

function gatewayError(status: 502 | 504): Response {
  const text =
    status === 504
      ? '504 Gateway Timeout: the Odoo server did not answer in time.\n'
      : '502 Bad Gateway: the Odoo server could not be reached.\n';
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
