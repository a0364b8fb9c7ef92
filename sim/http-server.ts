/**
 * The simulator's node:http server (keep-alive on): records every request, routes it, and writes the
 * answer. Routing is by path only; each handler returns a framework-free {@link SimResponse}.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleDocBearer, type DocBearerState } from './http/doc-bearer-route.ts';
import { werkzeugPage, notFoundDescription } from './http/html-pages.ts';
import { htmlResponse, type SimRequest, type SimResponse } from './http/http-types.ts';
import { handleJson2, type Json2State } from './http/json2-route.ts';
import { handleModulesDbManager } from './manager/web-database-next.ts';
import { handleWebDatabase, isWebDatabasePath, type DatabaseManagerState } from './manager/web-database-routes.ts';
import { handleWebSession, isWebSessionPath } from './http/web-session-routes.ts';
import { webclientVersionInfo, webHealth, webVersion } from './http/version-routes.ts';
import { handleTransfer, isTransferRoute, type TransferState } from './http/transfer-routes.ts';
import { handleWebsocketUpgrade } from './http/websocket-echo.ts';
import { drainedOrClosed } from './http/drain.ts';
import { handleLegacy, isLegacyPath, type LegacyEndpointSettings } from './legacy/route.ts';

/** One HTTP request as the simulator received it. */
export interface RecordedRequest {
  method: string;
  /** The raw request target: path and query string. */
  path: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

export interface ServerState extends Json2State, DocBearerState, DatabaseManagerState, TransferState {
  log: RecordedRequest[];
  /** Most entries kept in `log`. */
  logLimit: number;
  /** The legacy endpoints (`/xmlrpc*`, `/jsonrpc`): off unless a test turns them on. */
  legacy: LegacyEndpointSettings;
}

/** Appends to the log, dropping the oldest entries in batches once it is over its limit. */
function record(state: ServerState, entry: RecordedRequest): void {
  if (state.logLimit === 0) return;
  state.log.push(entry);
  if (state.log.length > state.logLimit + Math.ceil(state.logLimit / 10)) state.log.splice(0, state.log.length - state.logLimit);
}

function route(state: ServerState, req: SimRequest): SimResponse {
  const { path } = req;
  if (path === '/json/2' || path.startsWith('/json/2/')) return handleJson2(state, req);
  if (path === '/web/version' || path === '/json/version') return webVersion(state.persona.release);
  if (path === '/web/webclient/version_info') return webclientVersionInfo(req, state.persona.release);
  if (path === '/web/health') return webHealth();
  if (isWebSessionPath(path)) return handleWebSession(state, req);
  if (path.startsWith('/doc-bearer/')) return handleDocBearer(state, req);
  if (isWebDatabasePath(path)) {
    return state.persona.databaseManager === 'modules-db' ? handleModulesDbManager(state, req) : handleWebDatabase(state, req);
  }
  if (state.legacy.enabled && isLegacyPath(path)) return handleLegacy(state, state.legacy, req);
  return htmlResponse(404, werkzeugPage(404, notFoundDescription));
}

function headersOf(msg: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(msg.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function decodePath(target: string): string {
  const raw = target.split('?')[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Starts listening; resolves once the port is bound. */
export async function listen(state: ServerState, host: string, port: number): Promise<Server> {
  const server = createServer({ keepAlive: true }, (msg, res) => {
    // streamed routes (passthrough tests) read the body themselves
    if (isTransferRoute(msg.method ?? 'GET', decodePath(msg.url ?? '/'))) {
      record(state, { method: msg.method ?? 'GET', path: msg.url ?? '/', headers: headersOf(msg), body: '' });
      return handleTransfer(state, msg, res);
    }
    const chunks: Buffer[] = [];
    msg.on('data', (c: Buffer) => chunks.push(c));
    msg.on('end', () => {
      const target = msg.url ?? '/';
      const headers = headersOf(msg);
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      const method = msg.method ?? 'GET';
      record(state, { method, path: target, headers, body });
      let response: SimResponse;
      try {
        response = route(state, { method, path: decodePath(target), headers, body, raw });
      } catch (err) {
        response = htmlResponse(500, werkzeugPage(500, `odoo simulator internal error: ${String(err)}`));
      }
      if (response.deferred !== undefined) {
        response.deferred.then(
          (ready) => send(res, method, ready),
          (err: unknown) => send(res, method, htmlResponse(500, werkzeugPage(500, `odoo simulator internal error: ${String(err)}`))),
        );
        return;
      }
      send(res, method, response);
    });
  });
  server.on('upgrade', (msg: IncomingMessage, socket, head: Buffer) => {
    record(state, { method: msg.method ?? 'GET', path: msg.url ?? '/', headers: headersOf(msg), body: '' });
    state.transfers.trackUpgraded(socket);
    handleWebsocketUpgrade(msg, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** Writes a response: whole, or streamed. */
function send(res: ServerResponse, method: string, response: SimResponse): void {
  if (response.stream !== undefined) {
    res.writeHead(response.status, response.headers);
    void sendStream(res, response.stream);
    return;
  }
  const payload = Buffer.from(response.body, 'utf8');
  res.writeHead(response.status, { ...response.headers, 'Content-Length': String(payload.length) });
  res.end(method === 'HEAD' ? undefined : payload);
}

/**
 * Writes a streamed body chunked, waiting for the socket to drain; a failing stream cuts the
 * connection without the final chunk, as a worker that dies mid-backup does.
 */
async function sendStream(res: ServerResponse, stream: AsyncIterable<Uint8Array>): Promise<void> {
  // What was written before a failure reaches the client before the connection is cut.
  let written: Promise<void> = Promise.resolve();
  try {
    for await (const chunk of stream) {
      if (res.destroyed) return;
      let ok = true;
      written = new Promise<void>((resolve) => {
        ok = res.write(chunk, () => resolve());
      });
      if (!ok) await drainedOrClosed(res);
    }
    res.end();
  } catch {
    await written;
    res.destroy();
  }
}

/** The bound port of a listening server. */
export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}
