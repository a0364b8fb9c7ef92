/**
 * The drop-in URL (docs/architecture.md §6): everything the gateway does not own reaches the simulator unchanged
 * and streamed both ways, websockets included, with forwarded headers and no body cap.
 */
import { createHash } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadByte } from '../../sim/http/transfer-routes.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway } from '../../src/server/gateway.ts';
import { openDownload, openUpload, upgradeStatusLine } from '../support/raw-http.ts';
import { startStack, type Stack } from '../support/stack.ts';

const MiB = 1024 * 1024;
let stack: Stack;
let gatewayHost: string;

beforeAll(async () => {
  // a 1 KiB legacy body cap: the passthrough must not apply it; bodies over 64 KiB stream
  stack = await startStack({ flags: ['--max-body', '1024', '--passthrough-buffer', '65536'] });
  gatewayHost = new URL(stack.gateway.url).host;
});
afterAll(() => stack.close());

async function jsonRpc(path: string, params: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(stack.gateway.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params, id: 1 }),
  });
  return { res, body: (await res.json()) as { result?: Record<string, unknown>; error?: unknown } };
}

describe('passthrough', () => {
  it('serves a session client (odoorpc-style) and legacy calls through one URL', async () => {
    const version = await jsonRpc('/web/webclient/version_info', {});
    expect(version.body.result?.server_serie).toBe('19.0');

    const admin = stack.sim.users('demo').find((u) => u.login === 'admin');
    const login = await jsonRpc('/web/session/authenticate', { db: 'demo', login: 'admin', password: admin?.password });
    expect(login.body.result?.uid).toBe(admin?.uid);
    const [cookie] = login.res.headers.getSetCookie();
    expect(cookie).toMatch(/^session_id=[\w-]+; Expires=[^;]+; Max-Age=604800; HttpOnly; Path=\/$/);

    const sessionId = (cookie as string).split(';')[0] as string;
    const count = await jsonRpc(
      '/web/dataset/call_kw/res.partner/search_count',
      { model: 'res.partner', method: 'search_count', args: [[]], kwargs: {} },
      { cookie: sessionId },
    );
    expect(typeof count.body.result).toBe('number');

    const legacy = await stack.jsonrpc('common', 'version', []);
    expect((legacy.result as Map<string, unknown>).get('server_serie')).toBe('19.0');
  });

  it('replaces forwarded headers and drops hop-by-hop ones', async () => {
    stack.sim.clearLog();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${stack.gateway.url}/web/health?probe=1`, {
        headers: {
          connection: 'keep-alive, x-private',
          'x-private': 'secret',
          'x-forwarded-for': '6.6.6.6',
          'x-forwarded-host': 'evil.example',
          'x-custom': 'kept',
          'user-agent': 'probe/1.0',
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    const seen = stack.sim.log.find((r) => r.path === '/web/health?probe=1');
    expect(seen?.headers).toMatchObject({
      host: gatewayHost,
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': gatewayHost,
      'x-custom': 'kept',
      'user-agent': 'probe/1.0',
    });
    expect(seen?.headers['x-private']).toBeUndefined();
  });

  it('passes redirects through without following them', async () => {
    const res = await fetch(`${stack.gateway.url}/odoo`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/web/login?redirect=%2Fodoo%3F');
  });

  it('passes an upload larger than --max-body and --passthrough-buffer whole, once the client has sent all of it', async () => {
    const first = Buffer.alloc(MiB, 7);
    const rest = Buffer.alloc(7 * MiB, 9);
    const upload = openUpload(`${stack.gateway.url}/sim/upload`);
    await upload.write(first);
    // the body goes to disk first: the simulator has none of it while the client still holds the rest
    let reached = false;
    void stack.sim.transfers.uploadReceived(1).then(() => (reached = true));
    await sleep(300);
    expect(reached).toBe(false);
    await upload.write(rest);
    const answer = await upload.end();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ bytes: 8 * MiB, sha256: createHash('sha256').update(first).update(rest).digest('hex') });
  });

  it('streams a download as it is produced, Content-Length kept', async () => {
    const total = 4 * MiB;
    const res = await openDownload(`${stack.gateway.url}/sim/download?bytes=${total}&hold=${MiB}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(total));
    const hash = createHash('sha256');
    let received = 0;
    await new Promise<void>((resolve, reject) => {
      res.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        received += chunk.length;
        // the simulator holds the rest until the client has the first MiB through the gateway
        if (received === MiB) stack.sim.transfers.releaseDownloads();
      });
      res.on('end', resolve);
      res.on('error', reject);
    });
    const expected = createHash('sha256');
    const bytes = Buffer.alloc(total);
    for (let i = 0; i < total; i++) bytes[i] = downloadByte(i);
    expect(received).toBe(total);
    expect(hash.digest('hex')).toBe(expected.update(bytes).digest('hex'));
  });

  it('tunnels a websocket to the upstream and echoes text and binary messages', async () => {
    stack.sim.clearLog();
    const ws = new WebSocket(`${stack.gateway.url.replace('http', 'ws')}/websocket?version=19.0`);
    ws.binaryType = 'arraybuffer';
    const messages: Array<string | ArrayBuffer> = [];
    const received = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (messages.length >= n ? resolve() : setImmediate(check));
        check();
      });
    ws.addEventListener('message', (e) => messages.push(e.data as string | ArrayBuffer));
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve());
      ws.addEventListener('error', () => reject(new Error('websocket failed')));
    });
    ws.send('{"event_name":"subscribe","data":{"channels":[]}}');
    const binary = new Uint8Array(70_000).map((_, i) => i % 251);
    ws.send(binary);
    await received(2);
    expect(messages[0]).toBe('{"event_name":"subscribe","data":{"channels":[]}}');
    expect(new Uint8Array(messages[1] as ArrayBuffer)).toEqual(binary);
    const closed = new Promise<number>((resolve) => ws.addEventListener('close', (e) => resolve(e.code)));
    ws.close(1000);
    expect(await closed).toBe(1000);
    const handshake = stack.sim.log.find((r) => r.path === '/websocket?version=19.0');
    expect(handshake?.headers).toMatchObject({
      upgrade: 'websocket',
      connection: 'Upgrade',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-host': gatewayHost,
    });
  });

  it('refuses an upgrade on a path the gateway owns', async () => {
    const { hostname, port } = new URL(stack.gateway.url);
    expect(await upgradeStatusLine(hostname, Number(port), '/jsonrpc')).toBe('HTTP/1.1 400 Bad Request');
  });
});

describe('passthrough to an unreachable upstream', () => {
  it('answers 502 to requests and upgrades', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port: deadPort } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gateway = await startGateway(
      loadConfig(['--port', '0', '--admin-port', '0', '--upstream', `http://127.0.0.1:${deadPort}`], {}),
      createLogger('silent'),
    );
    try {
      const res = await fetch(`${gateway.url}/web/login`);
      expect(res.status).toBe(502);
      expect(await res.text()).toBe('502 Bad Gateway: the Odoo server could not be reached.\n');
      expect(await upgradeStatusLine('127.0.0.1', gateway.port, '/websocket')).toBe('HTTP/1.1 502 Bad Gateway');
    } finally {
      await gateway.close();
    }
  });
});
