/**
 * A do-nothing HTTP proxy in Node, for `npm run bench`: each request's body is read, sent to the
 * upstream through an undici pool (as the gateway sends its JSON-2 calls), and the answer written
 * back. What it costs per call is the floor of any Node gateway doing two HTTP exchanges per call on
 * this machine, before any XML, credentials or logging. It also holds answers: `PUT /held/<name>`
 * keeps a body, `GET /held/<name>` serves it from memory (what moving a body alone costs).
 *
 *   node --import tsx bench/null-proxy.ts <upstream URL> <port>
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';

const [upstream, port] = process.argv.slice(2) as [string, string];
const pool = new Pool(upstream, { connections: 64, pipelining: 1 });

const held = new Map<string, Buffer>();

// the handler's promise is dropped on purpose: a failed read ends in its own 502 or a reset
createServer(
  (req, res) =>
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.url?.startsWith('/held/')) {
        if (req.method === 'PUT') held.set(req.url, Buffer.concat(chunks));
        const body = held.get(req.url) ?? Buffer.alloc(0);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'x-odoo-database']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      try {
        const answer = await pool.request({ method: 'POST', path: req.url ?? '/', headers, body: Buffer.concat(chunks) });
        const body = Buffer.from(await answer.body.arrayBuffer());
        res
          .writeHead(answer.statusCode, {
            'content-type': String(answer.headers['content-type'] ?? 'application/octet-stream'),
            'content-length': body.length,
          })
          .end(body);
      } catch {
        res.writeHead(502).end();
      }
    })(),
).listen(Number(port), '127.0.0.1', () => console.log('listening'));
