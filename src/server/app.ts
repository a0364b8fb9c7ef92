/**
 * The Hono app: the legacy endpoints, `/livez`, and what the gateway answers for the rest.
 * `createApp(deps)` builds it without sockets, so tests can call `app.request()`.
 */
import { Hono, type Context } from 'hono';
import { getPath } from 'hono/utils/url';
import type { HttpBindings } from '@hono/node-server';
import { besideCall, createCallValues, type CallOrigin, type Dialect } from '../call.ts';
import type { Config } from '../config.ts';
import { LegacyError } from '../errors.ts';
import type { Dispatch } from '../legacy/dispatch.ts';
import type { Logger } from '../log.ts';
import type { Shadow } from '../cutover/index.ts';
import type { Routing } from './routing.ts';
import { callSpan, clientTraceContext, type CallTracer } from '../tracing/call-tracer.ts';
import { createJsonRpcHandler, encodeError } from '../wire/jsonrpc/index.ts';
import type { CallOutcome, WireResponse } from '../wire/response.ts';
import { createXmlRpcHandler, encodeFault, formLimit, formTooLargePage } from '../wire/xmlrpc/index.ts';
import { logCall } from './access-log.ts';
import { refusedBeforeContinue } from './expect-continue.ts';
import { clientAddress } from './client-address.ts';
import { nodeClientPresence, signalClientPresence, type ClientPresence } from './client-presence.ts';
import { createDeadlines } from './deadline.ts';
import { legacyRoute, rawPathOf } from './legacy-route.ts';
import { lingeringAnswer } from './linger.ts';
import { readBody, readIncomingBody } from './read-body.ts';
import { headerRequestId, requestIdFor } from './request-id.ts';
import { streamResponseBody, type StreamTarget } from './stream-body.ts';

export interface AppDeps {
  config: Config;
  log: Logger;
  dispatch: Dispatch;
  /** Serves every path the gateway does not own (docs/architecture.md §6, `passthrough.ts`); without it they get a 404. */
  passthrough?: (c: Context<Env>) => Promise<Response>;
  /** Hears each finished legacy call besides the access log (metrics, migration report). */
  onCall?: (dialect: Dialect, origin: CallOrigin, outcome: CallOutcome, seconds: number) => void;
  /** The database and user a call ran as, once its credentials were handed over (the access log names them). */
  identityOf?: (origin: CallOrigin) => { database: string; user: string } | undefined;
  /** Shadow mode (`--shadow-sample`): offered each answered call once its answer is built. */
  shadow?: Shadow | undefined;
  /**
   * Route modes (`--routes-file`, `--default-mode`; `routing.ts`): asked first whether a call is
   * served natively, verified or denied. Absent: every call is translated, as always.
   */
  routing?: Routing | undefined;
  /** Aborted (with a LegacyError) when the shutdown grace period is over: running calls answer that fault. */
  shutdown?: AbortSignal;
  /** Traces (OpenTelemetry), when the `OTEL_*` variables ask for them: a span per legacy call. */
  tracer?: CallTracer | undefined;
}

/**
 * The paths the client port answers itself (the rest is passed through): `/livez`, and every
 * spelling Odoo would route to `/xmlrpc*` or `/jsonrpc` (`legacy-route.ts`). `path` is raw.
 */
export function isGatewayPath(path: string): boolean {
  return path === '/livez' || legacyRoute(path) !== undefined;
}

/**
 * Hono's path, except that a spelling of a legacy endpoint is routed as werkzeug would route it,
 * and a path that reaches one only once its dot segments are resolved (`/xmlrpc/2/./object`,
 * `/web/../jsonrpc`: the URL parser resolves them, werkzeug does not) goes to the passthrough.
 */
function routedPath(req: Request, options?: { env?: Env['Bindings'] }): string {
  const target = options?.env?.incoming?.url;
  const raw = target?.startsWith('/') ? rawPathOf(`http://h${target}`) : rawPathOf(req.url);
  const route = legacyRoute(raw);
  if (route !== undefined) return route;
  const path = getPath(req);
  return legacyRoute(path) !== undefined || path === '/livez' ? raw : path;
}

type Env = { Bindings: Partial<HttpBindings> };

const contentTypeHtml = 'text/html; charset=utf-8';
const methodNotAllowedPage =
  '<!doctype html>\n<html lang=en>\n<title>405 Method Not Allowed</title>\n<h1>Method Not Allowed</h1>\n' +
  '<p>The method is not allowed for the requested URL.</p>\n';

export function createApp({
  config,
  log,
  dispatch,
  passthrough,
  onCall,
  identityOf,
  shadow,
  routing,
  shutdown,
  tracer,
}: AppDeps): Hono<Env> {
  const app = new Hono<Env>({ getPath: routedPath });
  const marshal = { nullAs: config.marshalNone, bigIntAs: config.marshalBigInt };
  // db calls run under --db-timeout, the others under --call-timeout.
  const deadlines = createDeadlines({
    callTimeoutMs: config.callTimeoutMs,
    dbTimeoutMs: config.dbTimeoutMs,
    ...(shutdown === undefined ? {} : { shutdown }),
  });
  const handleXmlRpc = createXmlRpcHandler({
    dispatch: deadlines.dispatch(dispatch),
    maxDepth: config.maxDepth,
    marshal,
    strictBase64: config.strictBase64,
  });
  const handleJsonRpc = createJsonRpcHandler({ dispatch: deadlines.dispatch(dispatch), maxDepth: config.maxDepth });

  /** Per-request facts, the deadline, and the access-log hook. */
  function begin(c: Context<Env>, dialect: Dialect) {
    const startedAt = performance.now();
    const socketIp = c.env?.incoming?.socket.remoteAddress ?? '127.0.0.1';
    const address = clientAddress(socketIp, c.req.header('x-forwarded-for'), c.req.header('x-forwarded-proto'), config.trustedProxies);
    const traceContext = clientTraceContext(c.req.header('traceparent'), c.req.header('tracestate'));
    const span = tracer?.startCall(dialect, traceContext);
    const values = createCallValues();
    if (span !== undefined) values.set(callSpan, span);
    const origin: CallOrigin = deadlines.origin(
      {
        host: c.req.header('host') ?? '',
        ip: address.ip,
        proto: address.proto,
        userAgent: c.req.header('user-agent') ?? '',
        requestId: requestIdFor(c.req.header(headerRequestId)),
        traceContext,
        values,
      },
      clientPresence(c),
    );
    let last: CallOutcome | undefined;
    const onOutcome = (outcome: CallOutcome) => {
      last = outcome;
      span?.end(outcome);
      deadlines.finish(origin);
      // The access log, metrics and migration report wait until the answer is written (the
      // response goes out in the microtasks that follow; setImmediate runs after them): at
      // concurrency 1 the caller would otherwise wait for them.
      const finishedAt = performance.now();
      setImmediate(() => {
        logCall(log, dialect, origin, outcome, startedAt, finishedAt, identityOf?.(origin));
        onCall?.(dialect, origin, outcome, (finishedAt - startedAt) / 1000);
      });
    };
    return { origin, onOutcome, outcome: () => last };
  }

  /**
   * Hands an answered call to shadow mode, which runs once the answer is out (the Node response
   * closed; without one, on the next turn of the event loop). The re-check replays the body through
   * the same handler, uncounted, under a fresh deadline.
   */
  function offerShadow(
    c: Context<Env>,
    dialect: Dialect,
    body: Uint8Array,
    origin: CallOrigin,
    outcome: () => CallOutcome | undefined,
    answer: WireResponse,
    replay: (origin: CallOrigin) => Promise<WireResponse>,
  ): WireResponse {
    if (shadow === undefined) return answer;
    const exchange = {
      dialect,
      path: c.req.path,
      contentType: c.req.header('content-type'),
      body,
      origin,
      outcome,
      answer,
      replay: () => replay(besideCall(origin, 'shadow', AbortSignal.timeout(config.callTimeoutMs))),
    };
    return shadow.offer(exchange, whenSent(c));
  }

  /** Runs side work once the answer is out (the Node response closed; without one, on the next turn). */
  const whenSent = (c: Context<Env>) => (run: () => void) => {
    const outgoing = c.env?.outgoing;
    if (outgoing === undefined) setImmediate(run);
    else if (outgoing.closed) run();
    else outgoing.once('close', run);
  };

  /** The call's route, when it is not translate: Odoo's own answer, or the deny fault (`routing.ts`). */
  async function routed(
    c: Context<Env>,
    dialect: Dialect,
    service: string | undefined,
    body: Uint8Array,
    origin: CallOrigin,
    onOutcome: (outcome: CallOutcome) => void,
    translate: (origin: CallOrigin) => Promise<WireResponse>,
  ): Promise<Response | undefined> {
    if (routing === undefined) return undefined;
    const answer = await routing.serve({
      dialect,
      path: c.req.path,
      service,
      contentType: c.req.header('content-type'),
      body,
      origin,
      onOutcome,
      translate,
      whenSent: whenSent(c),
    });
    return answer === undefined ? undefined : respond(answer, origin, false, streamTarget(c, origin), isHttp10(c));
  }

  /**
   * Where a streamed answer (`db.dump`) goes: text to a Node response, bytes to a Web consumer; when
   * its source fails midway, the client connection is closed without the closing tags (docs/architecture.md §2)
   * and the cut is logged.
   */
  const streamTarget = (c: Context<Env>, origin: CallOrigin): StreamTarget => ({
    text: c.env?.outgoing !== undefined,
    cut(err) {
      const detail = err instanceof Error ? err.message : String(err);
      log.warn({ requestId: origin.requestId, detail }, 'streamed answer cut short: connection closed without the closing tags');
      const outgoing = c.env?.outgoing;
      if (outgoing === undefined) return false;
      outgoing.destroy();
      return true;
    },
  });

  const xmlrpc = (dialect: 'xmlrpc1' | 'xmlrpc2') =>
    async function xmlrpcRoute(c: Context<Env>) {
      const service = c.req.param('service') ?? '';
      const { origin, onOutcome, outcome } = begin(c, dialect);
      const contentType = c.req.header('content-type');
      const formMax = formLimit(contentType, config.maxBodyBytes);
      if (formMax !== undefined && Number(c.req.header('content-length') ?? 0) > formMax) {
        onOutcome({ service, method: '', error: tooLarge(formMax) });
        return respond(refusedBody(c, 413, contentTypeHtml, formTooLargePage), origin, true);
      }
      const body = await requestBody(c, config.maxBodyBytes);
      if (body === undefined) {
        const err = tooLarge(config.maxBodyBytes);
        onOutcome({ service, method: '', error: err });
        return respond(refusedBody(c, 200, 'text/xml; charset=utf-8', encodeFault(err, dialect)), origin, true);
      }
      // A form body went to werkzeug's request.form: Odoo's XML-RPC reads none (content-type.ts).
      const xml = formMax === undefined ? body : new Uint8Array(0);
      const routedAnswer = await routed(c, dialect, service, body, origin, onOutcome, (again) =>
        handleXmlRpc(dialect, service, xml, again, () => {}),
      );
      if (routedAnswer !== undefined) return routedAnswer;
      const answer = await handleXmlRpc(dialect, service, xml, origin, onOutcome);
      const sent =
        shadow === undefined
          ? answer
          : offerShadow(c, dialect, body, origin, outcome, answer, (again) => handleXmlRpc(dialect, service, xml, again, () => {}));
      return respond(sent, origin, false, streamTarget(c, origin), isHttp10(c));
    };

  app.on(['POST', 'OPTIONS'], '/xmlrpc/2/:service', xmlrpc('xmlrpc2'));
  app.on(['POST', 'OPTIONS'], '/xmlrpc/:service', xmlrpc('xmlrpc1'));
  // werkzeug's 405 for another method on a route that exists; a path naming no service is no route
  app.all('/xmlrpc/*', (c, next) =>
    legacyRoute(c.req.path) === undefined
      ? next()
      : new Response(methodNotAllowedPage, { status: 405, headers: { 'content-type': contentTypeHtml, allow: 'POST, OPTIONS' } }),
  );

  app.all('/jsonrpc', async (c) => {
    const { origin, onOutcome, outcome } = begin(c, 'jsonrpc');
    const body = await requestBody(c, config.maxBodyBytes);
    if (body === undefined) {
      const err = tooLarge(config.maxBodyBytes);
      onOutcome({ service: '', method: '', error: err });
      return respond(refusedBody(c, 200, 'application/json; charset=utf-8', encodeError(null, err)), origin, true);
    }
    const contentType = c.req.header('content-type');
    const routedAnswer = await routed(c, 'jsonrpc', undefined, body, origin, onOutcome, (again) =>
      handleJsonRpc(contentType, body, again, () => {}),
    );
    if (routedAnswer !== undefined) return routedAnswer;
    const answer = await handleJsonRpc(contentType, body, origin, onOutcome);
    const sent =
      shadow === undefined
        ? answer
        : offerShadow(c, 'jsonrpc', body, origin, outcome, answer, (again) => handleJsonRpc(contentType, body, again, () => {}));
    return respond(sent, origin, false, streamTarget(c, origin), isHttp10(c));
  });

  app.get('/livez', (c) => c.json({ status: 'ok' }));

  // Everything else goes to Odoo unchanged, so the gateway's URL can replace Odoo's (docs/architecture.md §6).
  if (passthrough !== undefined) app.all('*', passthrough);

  app.notFound(
    () =>
      new Response('Not Found: legacy-rpc-gateway serves /xmlrpc, /xmlrpc/2, /jsonrpc and /livez.\n', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      }),
  );

  // Last net: a bug must still answer in the caller's dialect, never a bare 500 on RPC routes.
  app.onError((err, c) => {
    const incoming = c.env?.incoming;
    if (incoming !== undefined && incoming.destroyed && !incoming.complete) {
      // The client closed its connection before sending its whole request (a truncated body):
      // nobody is left to answer, and it is not a gateway bug to log as one.
      log.info({ path: c.req.path }, 'client closed the connection before sending its whole request');
      return new Response(null, { status: 400, headers: { connection: 'close' } });
    }
    log.error({ err: { name: err.name, stack: err.stack } }, 'unhandled error');
    const error = LegacyError.from(err);
    if (c.req.path.startsWith('/xmlrpc')) {
      const dialect = c.req.path.startsWith('/xmlrpc/2/') ? 'xmlrpc2' : 'xmlrpc1';
      return new Response(encodeFault(error, dialect), { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } });
    }
    if (c.req.path === '/jsonrpc') {
      return new Response(encodeError(null, error), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    return new Response('Internal Server Error\n', { status: 500 });
  });

  return app;
}

/** The client behind the request: heard from the Node response when there is one (client-presence.ts). */
function clientPresence(c: Context<Env>): ClientPresence {
  const incoming = c.env?.incoming;
  const outgoing = c.env?.outgoing;
  return incoming !== undefined && outgoing !== undefined ? nodeClientPresence(incoming, outgoing) : signalClientPresence(c.req.raw.signal);
}

/** True for an HTTP/1.0 request, which cannot read a chunked answer (RFC 9112 §6.1). */
function isHttp10(c: Context<Env>): boolean {
  return c.env?.incoming?.httpVersion === '1.0';
}

function respond(
  res: WireResponse,
  origin: CallOrigin,
  closeConnection = false,
  target: StreamTarget = { text: false, cut: () => false },
  http10 = false,
): Response {
  const headers: Record<string, string> = { 'content-type': res.contentType, [headerRequestId]: origin.requestId, ...res.headers };
  if (closeConnection) headers.connection = 'close';
  if (typeof res.body !== 'string' && !(res.body instanceof Uint8Array)) {
    // Streamed: with the length the dialect announced (transcoded XML-RPC answers), else chunked
    // (db.dump), so nothing is read ahead to compute one. An HTTP/1.0 client gets no chunked
    // framing: the end of the answer is the end of the connection.
    if (headers['content-length'] === undefined) {
      if (http10) headers.connection = 'close';
      else headers['transfer-encoding'] = 'chunked';
    }
    return new Response(streamResponseBody(res.body, target), { status: res.status, headers });
  }
  return new Response(res.body as ConstructorParameters<typeof Response>[0], { status: res.status, headers });
}

/**
 * The request body, straight from Node's request when there is one: going through `c.req.raw.body`
 * builds a fetch Request, its Headers and a web stream per call (~8 % of a small call's
 * CPU), and cancelling that stream past the cap would destroy the socket before the fault is sent.
 * Without a Node request (`app.request()` in tests), through the web stream.
 */
function requestBody(c: Context<Env>, maxBytes: number): Promise<Uint8Array | undefined> {
  const incoming = c.env?.incoming;
  // not invited to send its body (expect-continue.ts): refused on its declared length, unread
  if (incoming !== undefined && refusedBeforeContinue(incoming.headers, maxBytes)) return Promise.resolve(undefined);
  if (incoming === undefined || incoming.readableDidRead) return readBody(c.req.raw.body, maxBytes);
  return readIncomingBody(incoming, maxBytes);
}

/**
 * The answer to a body refused for its size. With a Node request, the rest of the body is read and
 * dropped before the answer ends (linger.ts), so a client still sending it reads the answer instead
 * of a reset.
 */
function refusedBody(c: Context<Env>, status: number, contentType: string, answer: string | Uint8Array): WireResponse {
  const incoming = c.env?.incoming;
  if (incoming === undefined) return { status, contentType, body: answer };
  const bytes = typeof answer === 'string' ? Buffer.from(answer, 'utf8') : answer;
  return { status, contentType, body: lingeringAnswer(bytes, incoming), headers: { 'content-length': String(bytes.byteLength) } };
}

function tooLarge(max: number): LegacyError {
  return new LegacyError('internal', {
    name: 'werkzeug.exceptions.RequestEntityTooLarge',
    message: `413 Request Entity Too Large: the request body exceeds ${max} bytes (--max-body)`,
  });
}
