import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Pool } from 'undici';
import { connectAhead } from './connect-ahead.ts';

/** An HTTP server counting connections and requests; `close: true` answers each with Connection: close, as Odoo does. */
async function server({ close }: { close: boolean }) {
  const sockets: Socket[] = [];
  const requestsBySocket = new Map<Socket, number>();
  const srv: Server = createServer((req, res) => {
    requestsBySocket.set(req.socket, (requestsBySocket.get(req.socket) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'text/plain', ...(close ? { connection: 'close' } : {}) }).end(`answer ${req.url}`);
  });
  srv.on('connection', (s: Socket) => sockets.push(s));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  servers.push(srv);
  return { url: `http://127.0.0.1:${port}`, sockets, requestsBySocket, open: () => sockets.filter((s) => !s.destroyed).length };
}

const servers: Server[] = [];
const pools: Pool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.destroy()));
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

function poolWith(url: string, spareMs: number) {
  const seen: boolean[] = [];
  const connect = connectAhead({ build: { timeout: 1000 }, spareMs, onConnect: (fromSpare) => seen.push(fromSpare) });
  const pool = new Pool(url, { connections: 4, pipelining: 1, connect });
  pools.push(pool);
  const get = async (path: string) => (await pool.request({ method: 'GET', path })).body.text();
  return { pool, connect, seen, get };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits for `done` (polling; a loaded machine is late, so no fixed time is assumed). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await sleep(20);
}

describe('connectAhead()', () => {
  it('serves every call after the first on a connection opened ahead when the server closes each one', async () => {
    const srv = await server({ close: true });
    const { get, seen } = poolWith(srv.url, 1000);
    for (let n = 0; n < 5; n++) {
      expect(await get(`/${n}`)).toBe(`answer /${n}`);
      // the client's next call comes later: once the spare has connected
      await until(() => srv.sockets.length === n + 2);
      await sleep(20);
    }
    expect(seen).toEqual([false, true, true, true, true]);
    // one request per connection, as Odoo serves them, plus the spare readied for a sixth call
    expect([...srv.requestsBySocket.values()]).toEqual([1, 1, 1, 1, 1]);
    expect(srv.sockets).toHaveLength(6);
  });

  it('leaves kept-alive connections to the pool, and closes a spare nobody took after its time', async () => {
    const srv = await server({ close: false });
    const { get } = poolWith(srv.url, 100);
    for (let n = 0; n < 20; n++) expect(await get(`/${n}`)).toBe(`answer /${n}`);
    const used = [...srv.requestsBySocket.values()];
    expect(used.reduce((a, b) => a + b, 0)).toBe(20);
    expect(used.length).toBeLessThanOrEqual(2); // reused, not one connection per call
    await until(() => srv.open() === used.length);
    expect(srv.open()).toBe(used.length); // no idle spare left open
  });

  it('never hands out a spare the server closed meanwhile', async () => {
    const srv = await server({ close: true });
    const { get, seen } = poolWith(srv.url, 60_000);
    expect(await get('/a')).toBe('answer /a');
    // a prefork Odoo drops a connection that sends nothing for a while: the server drops the spare
    // (dropped by hand once it is there, not on a timer a loaded machine would race)
    await until(() => srv.sockets.length === 2);
    srv.sockets[1]?.destroy();
    await sleep(50); // the client's event loop reads the close the server sent
    expect(await get('/b')).toBe('answer /b');
    expect(seen).toEqual([false, false]);
  });

  it('closes its spare when closed, and readies no more', async () => {
    const srv = await server({ close: true });
    const { get, connect } = poolWith(srv.url, 5000);
    await get('/a');
    await until(() => srv.sockets.length === 2);
    await sleep(20);
    expect(srv.open()).toBe(1); // the spare
    connect.close();
    await until(() => srv.open() === 0);
    expect(srv.open()).toBe(0);
  });
});
