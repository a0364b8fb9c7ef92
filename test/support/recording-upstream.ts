/**
 * A fake JSON-2 upstream that keeps the headers of every request it gets, for tests about what the
 * gateway sends Odoo besides the call (request id, trace context). `context_get` says uid 2; every
 * other call answers `[]`.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

export async function startRecordingUpstream(): Promise<{ url: string; requests: RecordedRequest[]; close(): void }> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      // /web/health as Odoo answers it: /readyz and upstream_up want Odoo's own health answer
      const body = req.url === '/json/2/res.users/context_get' ? '{"uid": 2}' : req.url === '/web/health' ? '{"status": "pass"}' : '[]';
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** An OTLP/HTTP receiver: keeps each export request's path, content type and body. */
export async function startOtlpReceiver(): Promise<{
  url: string;
  exports: { path: string; contentType: string; body: Buffer }[];
  close(): void;
}> {
  const exports: { path: string; contentType: string; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      const json = (req.headers['content-type'] ?? '').includes('json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : '');
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
