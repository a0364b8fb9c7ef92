/**
 * The call model: what a wire dialect decodes a request into and what the legacy services receive.
 * This is the only product type the wire codecs share with the rest of the gateway.
 */
import type { CallSpan, ClientTraceContext } from './tracing/call-tracer.ts';
import type { Value } from './value.ts';

/** `/xmlrpc/<service>` (string faultCodes), `/xmlrpc/2/<service>` (int faultCodes), `/jsonrpc`. */
export type Dialect = 'xmlrpc1' | 'xmlrpc2' | 'jsonrpc';

/** The three legacy services Odoo dispatches (`odoo.http.dispatch_rpc`). */
export const legacyServices = ['common', 'db', 'object'] as const;

/** One decoded legacy call. `service` is whatever the client named; dispatch decides if it exists. */
export interface LegacyCall {
  dialect: Dialect;
  service: string;
  method: string;
  params: Value[];
  /**
   * `/jsonrpc` only: an `args` Python cannot iterate (null, a number, a bool). `params` is then
   * empty, and each service raises the TypeError its own `dispatch` raises unpacking it.
   */
  argsNotIterable?: Value;
}

/** Where a call comes from: the facts upstream headers, logs and throttles need. Never secrets. */
export interface CallOrigin {
  /** The client's `Host` header (may be empty). */
  host: string;
  /** The client's address, after trusted-proxy resolution. */
  ip: string;
  /** `http` or `https` as the client used it. */
  proto: string;
  /** The client's `User-Agent` (may be empty). */
  userAgent: string;
  /** The request id bound to this call's log lines. */
  requestId: string;
  /** Aborted when the client goes away or the call deadline passes. */
  signal: AbortSignal;
  /** The client's W3C trace context (`traceparent`, `tracestate`), passed on upstream. */
  traceContext?: ClientTraceContext | undefined;
  /** The call's span, when traces are exported: each upstream request becomes its child. */
  span?: CallSpan | undefined;
}

/**
 * A login refused without a fault: `common.login` and `common.authenticate` answer False where
 * `res.users.authenticate` raised AccessDenied (`exp_authenticate` catches it). The same event as
 * fault 3 on an `object` call, so metrics, the access log and the report count both as `access_denied`.
 */
export function isRefusedLogin(call: LegacyCall, result: unknown): boolean {
  return call.service === 'common' && (call.method === 'login' || call.method === 'authenticate') && result === false;
}

/**
 * The model method an `object` call targets (its fourth and fifth parameters), for logs and
 * metrics; `undefined` members for other services or malformed calls.
 */
export function targetOf(call: LegacyCall): { model: string | undefined; modelMethod: string | undefined } {
  if (call.service !== 'object') return { model: undefined, modelMethod: undefined };
  const [, , , model, method] = call.params;
  return {
    model: typeof model === 'string' ? model : undefined,
    modelMethod: typeof method === 'string' ? method : undefined,
  };
}
