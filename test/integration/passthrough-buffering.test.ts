/**
 * Passthrough request buffering (issue #21, nginx's `proxy_request_buffering`): a body within
 * `--passthrough-buffer` is read whole before the upstream is contacted, so a client trickling its
 * body holds no Odoo thread or worker; a larger body streams as it arrives. At most
 * `--passthrough-connections` exchanges reach the upstream at once; the others wait in the gateway.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';
import { openUpload } from '../support/raw-http.ts';

const cap = 4096;
let upstream: Server;
let gateway: RunningGateway;
/** Requests whose head reached the upstream, and what each carried once complete. */
let heads = 0;
const received: { path: string; headers: IncomingHttpHeaders; bytes: number }[] = [];
/** `/hold` answers wait here until released. */
const held: ServerResponse[] = [];
let inUpstream = 0;
let mostInUpstream = 0;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    heads++;
    inUpstream++;
    mostInUpstream = Math.max(mostInUpstream, inUpstream);
    res.on('close', () => inUpstream--);
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, bytes });
      if (req.url === '/hold') held.push(res);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes }));
    });
  }).listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const flags = ['--port', '0', '--admin-port', '0', '--upstream', url, '--passthrough-buffer', String(cap), '--passthrough-connections', '2'];
  gateway = await startGateway(loadConfig(flags, {}), createLogger('silent'));
});

afterAll(async () => {
  await gateway.close();
  upstream.closeAllConnections();
  upstream.close();
});

describe('passthrough request buffering', () => {
  it('a login body trickled byte by byte: the upstream is not contacted until the body is complete', async () => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { db: 'gw', login: 'admin', password: 'admin' } }));
    heads = 0;
    const upload = openUpload(`${gateway.url}/web/session/authenticate`, { 'content-type': 'application/json', 'content-length': String(body.length) });
    for (let i = 0; i < 12; i++) {
      await upload.write(body.subarray(i, i + 1));
      await sleep(20);
    }
    expect(heads).toBe(0);
    await upload.write(body.subarray(12));
    const answer = await upload.end();
    expect(heads).toBe(1);
    expect(JSON.parse(answer.text)).toEqual({ bytes: body.length });
  });

  it('a chunked body within the cap reaches the upstream whole, with its length', async () => {
    heads = 0;
    const upload = openUpload(`${gateway.url}/web/dataset/call_kw`);
    await upload.write(Buffer.alloc(1000, 1));
    await sleep(50);
    expect(heads).toBe(0);
    await upload.write(Buffer.alloc(1000, 2));
    const answer = await upload.end();
    expect(JSON.parse(answer.text)).toEqual({ bytes: 2000 });
    expect(received.at(-1)?.headers['content-length']).toBe('2000');
    expect(received.at(-1)?.headers['transfer-encoding']).toBeUndefined();
  });

  it('a body declared over the cap streams: the upstream has its head while the client still writes', async () => {
    heads = 0;
    const upload = openUpload(`${gateway.url}/web/binary/upload`, { 'content-length': String(3 * cap) });
    await upload.write(Buffer.alloc(cap, 1));
    for (let i = 0; i < 50 && heads === 0; i++) await sleep(20);
    expect(heads).toBe(1);
    await upload.write(Buffer.alloc(2 * cap, 2));
    expect(JSON.parse((await upload.end()).text)).toEqual({ bytes: 3 * cap });
  });

  it('a chunked body that grows past the cap streams from there, nothing lost', async () => {
    heads = 0;
    const upload = openUpload(`${gateway.url}/web/binary/upload`);
    await upload.write(Buffer.alloc(cap + 1, 1));
    for (let i = 0; i < 50 && heads === 0; i++) await sleep(20);
    expect(heads).toBe(1);
    await upload.write(Buffer.alloc(5000, 2));
    expect(JSON.parse((await upload.end()).text)).toEqual({ bytes: cap + 1 + 5000 });
  });
});

describe('--passthrough-connections', () => {
  it('keeps at most that many exchanges at the upstream; the others wait and are served', async () => {
    mostInUpstream = 0;
    const answers = Array.from({ length: 5 }, () => fetch(`${gateway.url}/hold`, { method: 'POST', body: 'x' }));
    for (let i = 0; i < 50 && held.length < 2; i++) await sleep(20);
    await sleep(200);
    expect(held.length).toBe(2);
    expect(mostInUpstream).toBe(2);
    // release answers as they come until all five are served
    let served = 0;
    while (served < 5) {
      const res = held.shift();
      if (res === undefined) {
        await sleep(10);
        continue;
      }
      res.writeHead(200).end('ok');
      served++;
    }
    expect((await Promise.all(answers)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(mostInUpstream).toBe(2);
  });
});
