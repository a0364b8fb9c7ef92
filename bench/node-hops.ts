/**
 * Two more yardsticks for `npm run bench:odoo`, between the bare-socket relay and the
 * gateway, so the gateway's extra time can be split between Node's HTTP server, undici and the
 * gateway's own work:
 *
 *   http-socket  Node's `http` server in front; the upstream side is a bare socket connected before
 *                the call (as in bench/socket-relay.ts), the answer read until the upstream closes.
 *   http-undici  Node's `http` server in front; the upstream side is an undici Pool with the
 *                gateway's own connect-ahead connector and the same dispatch handler shape as
 *                src/upstream/pool.ts (the whole answer collected, no stream).
 *
 * Neither parses, checks or logs anything: what each costs per call is what that layer costs.
 * Like the relay, they understand only what the benchmark sends (JSON-2 POSTs to an upstream that
 * closes after each answer): yardsticks, not proxies.
 *
 *   node --import tsx bench/node-hops.ts http-socket|http-undici <upstream port> <port>
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { connectAhead } from '../src/upstream/connect-ahead.ts';
import { spareSockets } from './spare-socket.ts';

const [mode, upstreamPort, port] = process.argv.slice(2) as [string, string, string];
if (mode !== 'http-socket' && mode !== 'http-undici') throw new Error(`unknown mode ${mode}`);

const upstreamSockets = spareSockets(Number(upstreamPort));

const pool = new Pool(`http://127.0.0.1:${upstreamPort}`, {
  connections: 32,
  pipelining: 1,
  connect: connectAhead({ build: {}, spareMs: 1000 }),
});

const forwarded = ['authorization', 'content-type', 'x-odoo-database'];

/** The upstream's status and body, over a bare socket: the answer ends when the upstream closes. */
async function overSocket(path: string, headers: Record<string, string>, body: Buffer): Promise<[number, Buffer]> {
  const s = await upstreamSockets.take();
  const chunks: Buffer[] = [];
  s.on('data', (c: Buffer) => chunks.push(c));
  const closed = new Promise<void>((resolve) => s.once('close', () => resolve()));
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  s.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${upstreamPort}\r\n${head}content-length: ${body.length}\r\n\r\n`);
  s.write(body);
  await closed;
  const all = Buffer.concat(chunks);
  const end = all.indexOf('\r\n\r\n');
  return [Number(all.subarray(9, 12).toString('latin1')), all.subarray(end + 4)];
}

/** The same through undici's dispatch handler. */
function overUndici(path: string, headers: Record<string, string>, body: Buffer): Promise<[number, Buffer]> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const chunks: Buffer[] = [];
    pool.dispatch(
      { method: 'POST', path, headers, body },
      {
        onRequestStart() {},
        onResponseStart(_c, statusCode) {
          status = statusCode;
        },
        onResponseData(_c, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          resolve([status, Buffer.concat(chunks)]);
        },
        onResponseError(_c, err) {
          reject(err);
        },
      },
    );
  });
}

// the handler's promise is dropped on purpose: a failed call ends in its own 502
createServer(
  (req, res) =>
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      for (const name of forwarded) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      try {
        const [status, body] = await (mode === 'http-socket' ? overSocket : overUndici)(req.url ?? '/', headers, Buffer.concat(chunks));
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body);
      } catch {
        res.writeHead(502).end();
      }
    })(),
).listen(Number(port), '127.0.0.1', () => {
  if (mode === 'http-socket') upstreamSockets.warm();
  console.log('listening');
});
