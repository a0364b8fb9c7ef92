/**
 * An upstream double that behaves like a real Odoo 19 on the wire, for `npm run bench:odoo`: it
 * forwards every request to the simulator (kept-alive undici pool) and answers with
 * `Connection: close`, as Odoo's werkzeug server closes the connection after every answer; it holds
 * each answer `delay` ms, as Odoo takes its time, so a caller at concurrency 1 idles between calls as
 * it does in front of Odoo. What the gateway costs in front of it is what it costs in front of
 * Odoo, without Odoo's noise.
 *
 *   node --import tsx bench/closing-upstream.ts <simulator URL> <port> [delay ms]
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';

const [upstream, port, delay = '0'] = process.argv.slice(2) as [string, string, string?];
const pool = new Pool(upstream, { connections: 64 });
const holdMs = Number(delay);

// the handler's promise is dropped on purpose: a failed call ends in its own 502
createServer(
  (req, res) =>
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && name !== 'connection' && name !== 'host' && name !== 'keep-alive') headers[name] = value;
      try {
        const answer = await pool.request({
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers,
          body: chunks.length > 0 ? Buffer.concat(chunks) : null,
        });
        const body = Buffer.from(await answer.body.arrayBuffer());
        if (holdMs > 0) await new Promise((r) => setTimeout(r, holdMs));
        const out: Record<string, string | string[]> = { connection: 'close', 'content-length': String(body.length) };
        for (const [name, value] of Object.entries(answer.headers))
          if (value !== undefined && !['connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) out[name] = value;
        res.writeHead(answer.statusCode, out).end(body);
      } catch {
        res.writeHead(502, { connection: 'close' }).end();
      }
    })(),
).listen(Number(port), '127.0.0.1', () => console.log('listening'));
