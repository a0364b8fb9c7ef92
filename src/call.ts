/**
 * The call model: what a wire dialect decodes a request into and what the legacy services receive.
 * This is the only product type the wire codecs share with the rest of the gateway.
 */
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

/** The client's W3C trace context headers, as received (checked by `clientTraceContext`, src/tracing). */
export interface ClientTraceContext {
  traceparent: string;
  tracestate?: string;
}

/**
 * A typed value a call carries, declared by the layer that fills it (connect-es's context values):
 * `values.get(key)` is the key's `initial` until a layer sets it. One call, one set of values: what
 * a layer learns about the call (its caller, the JSON-2 body it bound to, its span) travels with it,
 * not in a side table keyed by the call.
 */
export interface CallKey<T> {
  readonly id: symbol;
  readonly initial: T;
}

/** Declares a key; `description` names it in a debugger. */
export function callKey<T>(description: string, initial: T): CallKey<T> {
  return { id: Symbol(description), initial };
}

/** The values of one call. */
export interface CallValues {
  get<T>(key: CallKey<T>): T;
  set<T>(key: CallKey<T>, value: T): void;
}

/** An empty set of values. */
export function createCallValues(): CallValues {
  const held = new Map<symbol, unknown>();
  return {
    get: <T>(key: CallKey<T>) => (held.has(key.id) ? (held.get(key.id) as T) : key.initial),
    set: (key, value) => void held.set(key.id, value),
  };
}

/**
 * The context of one call, built once by the server (src/server/app.ts): where it comes from — the
 * facts upstream headers, logs and throttles need, never secrets —, its signal, and the values the
 * layers fill as it runs.
 */
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
  /** What the layers learn about this call as it runs ({@link callKey}). */
  values: CallValues;
}

/**
 * Who a call names as its caller: the database it calls (the one its legacy service decoded from the
 * call), and the login (`common`) or uid (`object`) it gives, with the uid a login turned out to be.
 * The legacy service sets it once it has decoded the database name (`{database}` alone), and again
 * with the login or uid before the credentials are checked (or, for a call Odoo's own endpoint
 * served, the route that sent it there sets it); the layers below read the call's database from it
 * ({@link callDatabase}), the migration report reads who the call ran as. Never the password.
 */
export interface CallCaller {
  database: string;
  login?: string;
  uid?: number | bigint;
}
export const callCaller = callKey<CallCaller | undefined>('caller', undefined);

/**
 * The database the call names, as its legacy service decoded it ({@link callCaller}): the one source
 * of that fact for every layer serving the call. Throws where no legacy service named it yet (a
 * request the gateway makes for itself, a call read before its service decoded it): a slip in the
 * code, never an empty name sent upstream.
 */
export function callDatabase(origin: CallOrigin): string {
  const caller = origin.values.get(callCaller);
  if (caller === undefined) throw new Error(`call ${origin.requestId}: its database is read before a legacy service named it`);
  return caller.database;
}

/** Who a call comes from, without its signal or values: what forwarded headers and logs need. */
export type CallClient = Pick<CallOrigin, 'host' | 'ip' | 'proto' | 'userAgent' | 'requestId' | 'traceContext'>;

/**
 * The context of a request the gateway makes for itself (start-up check, readiness probe, key
 * retirement, signature discovery): from this host, no client, `requestId` naming the purpose.
 */
export function ownCallOrigin(requestId: string, signal: AbortSignal = new AbortController().signal): CallOrigin {
  return { host: '', ip: '127.0.0.1', proto: 'http', userAgent: '', requestId, signal, values: createCallValues() };
}

/**
 * A call made beside `origin` (a shadow replay, a verify translation): the same client, its own
 * request id suffix and signal, and values of its own, so nothing it learns is counted as the
 * original call's (its span included: it is not traced).
 */
export function besideCall(origin: CallOrigin, suffix: string, signal: AbortSignal): CallOrigin {
  return { ...origin, requestId: `${origin.requestId}-${suffix}`, signal, values: createCallValues() };
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
