/**
 * Request ids (hono's request-id middleware): an inbound `X-Request-Id` of at most 128 word
 * characters, `-` and `=` is kept, else a fresh UUID is drawn. Ids that also hold `.` or `:` (as
 * many tracing ids do: `host:pid.seq`) are kept too. The RPC answers echo the id (`respond` in
 * app.ts sets the header: the middleware's own header does not reach a `Response` built by hand).
 */
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { requestId, type RequestIdVariables } from 'hono/request-id';

export const headerRequestId = 'x-request-id';
const maxLength = 128;
const tracingId = /^[\w\-=.:]+$/;

/** Keeps an inbound id hono refused only for a `.` or `:`; else a fresh UUID. */
function keepTracingId(c: Context): string {
  const inbound = c.req.header(headerRequestId);
  return inbound !== undefined && inbound.length <= maxLength && tracingId.test(inbound) ? inbound : randomUUID();
}

/** The middleware that gives each request its id, read back with {@link requestIdOf}. */
export const requestIds = (): MiddlewareHandler =>
  requestId({ headerName: headerRequestId, limitLength: maxLength, generator: keepTracingId });

/** The id the middleware gave the request. */
export const requestIdOf = (c: Context): string => c.get<keyof RequestIdVariables>('requestId');
