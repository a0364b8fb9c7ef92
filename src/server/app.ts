/**
 * The Hono app: the legacy endpoints, `/livez`, and what the gateway answers for the rest.
 * `createApp(deps)` builds it without sockets, so tests can call `app.request()`.
 */
import { Hono, type Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { CallOrigin, Dialect } from '../call.ts';
import type { Config } from '../config.ts';
import { LegacyError } from '../errors.ts';
import type { Dispatch } from '../legacy/dispatch.ts';
import type { Logger } from '../log.ts';
import { createJsonRpcHandler, encodeError } from '../wire/jsonrpc/index.ts';
import type { CallOutcome, WireResponse } from '../wire/response.ts';
import { createXmlRpcHandler, encodeFault } from '../wire/xmlrpc/index.ts';
import { logCall } from './access-log.ts';
import { clientAddress } from './client-address.ts';
import { readBody } from './read-body.ts';
import { headerRequestId, requestIdFrom } from './request-id.ts';

export interface AppDeps {
  config: Config;
  log: Logger;
  dispatch: Dispatch;
}

type Env = { Bindings: Partial<HttpBindings> };

const contentTypeHtml = 'text/html; charset=utf-8';
const methodNotAllowedPage =
  '<!doctype html>\n<html lang=en>\n<title>405 Method Not Allowed</title>\n<h1>Method Not Allowed</h1>\n' +
  '<p>The method is not allowed for the requested URL.</p>\n';

export function createApp({ config, log, dispatch }: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const marshal = { nullAs: config.marshalNone, bigIntAs: config.marshalBigInt };
  const handleXmlRpc = createXmlRpcHandler({ dispatch, maxDepth: config.maxDepth, marshal, strictBase64: config.strictBase64 });
  const handleJsonRpc = createJsonRpcHandler({ dispatch, maxDepth: config.maxDepth });

  /** Per-request facts, the deadline, and the access-log hook. */
  function begin(c: Context<Env>, dialect: Dialect) {
    const startedAt = performance.now();
    const socketIp = c.env?.incoming?.socket.remoteAddress ?? '127.0.0.1';
    const address = clientAddress(socketIp, c.req.header('x-forwarded-for'), c.req.header('x-forwarded-proto'), config.trustedProxies);
    const origin: CallOrigin = {
      host: c.req.header('host') ?? '',
      ip: address.ip,
      proto: address.proto,
      userAgent: c.req.header('user-agent') ?? '',
      requestId: requestIdFrom(c.req.header(headerRequestId)),
      signal: AbortSignal.any([AbortSignal.timeout(config.callTimeoutMs), c.req.raw.signal]),
    };
    const onOutcome = (outcome: CallOutcome) => logCall(log, dialect, origin, outcome, startedAt);
    return { origin, onOutcome };
  }

  const xmlrpc = (dialect: 'xmlrpc1' | 'xmlrpc2') =>
    async function xmlrpcRoute(c: Context<Env>) {
      const service = c.req.param('service') ?? '';
      const { origin, onOutcome } = begin(c, dialect);
      const body = await readBody(c.req.raw.body, config.maxBodyBytes);
      if (body === undefined) {
        const err = tooLarge(config.maxBodyBytes);
        onOutcome({ service, method: '', error: err });
        return respond({ status: 200, contentType: 'text/xml; charset=utf-8', body: encodeFault(err, dialect) }, origin, true);
      }
      return respond(await handleXmlRpc(dialect, service, body, origin, onOutcome), origin);
    };

  app.on(['POST', 'OPTIONS'], '/xmlrpc/2/:service', xmlrpc('xmlrpc2'));
  app.on(['POST', 'OPTIONS'], '/xmlrpc/:service', xmlrpc('xmlrpc1'));
  app.all('/xmlrpc/*', () => new Response(methodNotAllowedPage, { status: 405, headers: { 'content-type': contentTypeHtml, allow: 'POST, OPTIONS' } }));

  app.all('/jsonrpc', async (c) => {
    const { origin, onOutcome } = begin(c, 'jsonrpc');
    const body = await readBody(c.req.raw.body, config.maxBodyBytes);
    if (body === undefined) {
      const err = tooLarge(config.maxBodyBytes);
      onOutcome({ service: '', method: '', error: err });
      return respond({ status: 200, contentType: 'application/json; charset=utf-8', body: encodeError(null, err) }, origin, true);
    }
    return respond(await handleJsonRpc(c.req.header('content-type'), body, origin, onOutcome), origin);
  });

  app.get('/livez', (c) => c.json({ status: 'ok' }));

  app.notFound(
    () =>
      new Response('Not Found: legacy-rpc-gateway serves /xmlrpc, /xmlrpc/2, /jsonrpc and /livez.\n', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      }),
  );

  // Last net: a bug must still answer in the caller's dialect, never a bare 500 on RPC routes.
  app.onError((err, c) => {
    log.error({ err: { name: (err as Error).name, stack: (err as Error).stack } }, 'unhandled error');
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

function respond(res: WireResponse, origin: CallOrigin, closeConnection = false): Response {
  const headers: Record<string, string> = { 'content-type': res.contentType, [headerRequestId]: origin.requestId, ...res.headers };
  if (closeConnection) headers.connection = 'close';
  return new Response(res.body as ConstructorParameters<typeof Response>[0], { status: res.status, headers });
}

function tooLarge(max: number): LegacyError {
  return new LegacyError('internal', {
    name: 'werkzeug.exceptions.RequestEntityTooLarge',
    message: `413 Request Entity Too Large: the request body exceeds ${max} bytes (--max-body)`,
  });
}
