/**
 * Passthrough request buffering (nginx's `proxy_request_buffering`): every body is read whole before
 * the upstream is contacted, so a client trickling its body holds no Odoo thread or worker: within
 * `--passthrough-buffer` in memory, beyond in an unlinked temporary file in `--passthrough-spool-dir`,
 * past `--passthrough-max-body` refused with 413. At most
 * `--passthrough-connections` exchanges reach the upstream at once; the others wait in the gateway.
 */
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';
import { openUpload } from '../support/raw-http.ts';

const cap = 4096;
const maxBody = 64 * 1024;
const spoolDir = mkdtempSync(join(tmpdir(), 'i30-spool-'));
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
    // the gateway's own start-up check is answered as Odoo would, and is not a passed-through request
    if (req.url === '/web/webclient/version_info') {
      const result = { server_version: '19.0', server_version_info: [19, 0, 0, 'final', 0, ''], server_serie: '19.0', protocol_version: 1 };
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, result }));
    }
    if (req.url === '/web/database/list')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc": "2.0", "id": null, "result": ["gw"]}');
    if (req.url?.startsWith('/json/2/'))
      return void res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"name": "werkzeug.exceptions.Unauthorized", "message": "401 Unauthorized"}');
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
  const flags = [
    '--port',
    '0',
    '--admin-port',
    '0',
    '--upstream',
    url,
    '--passthrough-buffer',
    String(cap),
    '--passthrough-max-body',
    String(maxBody),
    '--passthrough-spool-dir',
    spoolDir,
    '--passthrough-connections',
    '2',
  ];
  gateway = await startGateway(loadConfig(flags, {}), createLogger('silent'));
});

afterAll(async () => {
  await gateway.close();
  upstream.closeAllConnections();
  upstream.close();
  rmSync(spoolDir, { recursive: true, force: true });
});

/** This process's open descriptors on files in the spool directory (unlinked ones included). */
function spoolDescriptors(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(spoolDir) ? [target] : [];
    } catch {
      return [];
    }
  });
}

/** Waits until `condition` holds (at most ~5 s). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !condition(); i++) await sleep(20);
}

describe('passthrough request buffering', () => {
  // a test counts the spool's descriptors: each starts with none left by the one before (a busy machine
  // may still be closing the last answer's file when the next test begins, which made the count lie)
  beforeEach(async () => {
    await until(() => spoolDescriptors().length === 0);
    expect(spoolDescriptors()).toEqual([]);
  });

  it('a login body trickled byte by byte: the upstream is not contacted until the body is complete', async () => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { db: 'gw', login: 'admin', password: 'admin' } }));
    heads = 0;
    const upload = openUpload(`${gateway.url}/web/session/authenticate`, {
      'content-type': 'application/json',
      'content-length': String(body.length),
    });
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

  it('a body declared over the memory cap is spooled to disk: the upstream has no head until the body is complete', async () => {
    heads = 0;
    const upload = openUpload(`${gateway.url}/web/binary/upload`, { 'content-length': String(3 * cap) });
    await upload.write(Buffer.alloc(cap, 1));
    await upload.write(Buffer.alloc(cap, 2));
    await until(() => spoolDescriptors().length > 0);
    await sleep(100);
    expect(heads).toBe(0);
    // the temporary file is unlinked at once: nothing in the directory, only an open descriptor
    expect(readdirSync(spoolDir)).toEqual([]);
    expect(spoolDescriptors().length).toBe(1);
    await upload.write(Buffer.alloc(cap, 3));
    expect(JSON.parse((await upload.end()).text)).toEqual({ bytes: 3 * cap });
    expect(received.at(-1)?.headers['content-length']).toBe(String(3 * cap));
    await until(() => spoolDescriptors().length === 0);
    expect(spoolDescriptors()).toEqual([]);
  });

  it('a chunked body that grows past the memory cap is spooled too, and reaches the upstream whole with its length', async () => {
    heads = 0;
    const upload = openUpload(`${gateway.url}/web/binary/upload`);
    await upload.write(Buffer.alloc(cap + 1, 1));
    await until(() => spoolDescriptors().length > 0);
    await sleep(100);
    expect(heads).toBe(0);
    await upload.write(Buffer.alloc(5000, 2));
    expect(JSON.parse((await upload.end()).text)).toEqual({ bytes: cap + 1 + 5000 });
    expect(received.at(-1)?.headers['content-length']).toBe(String(cap + 1 + 5000));
    expect(received.at(-1)?.headers['transfer-encoding']).toBeUndefined();
    await until(() => spoolDescriptors().length === 0);
    expect(spoolDescriptors()).toEqual([]);
  });

  it('a client that leaves while its body is spooled leaves no file and no descriptor behind', async () => {
    heads = 0;
    const upload = openUpload(`${gateway.url}/web/binary/upload`, { 'content-length': String(8 * cap) });
    try {
      await upload.write(Buffer.alloc(2 * cap, 1));
      await until(() => spoolDescriptors().length > 0);
      expect(spoolDescriptors().length).toBe(1);
    } finally {
      upload.abort(); // a failure here must not leave its file open for the next test to count
    }
    await until(() => spoolDescriptors().length === 0);
    expect(spoolDescriptors()).toEqual([]);
    expect(readdirSync(spoolDir)).toEqual([]);
    expect(heads).toBe(0);
  });

  it('a body declared over --passthrough-max-body gets 413 without reaching the upstream', async () => {
    heads = 0;
    const upload = openUpload(`${gateway.url}/web/binary/upload`, { 'content-length': String(maxBody + 1) });
    const answer = await upload.end();
    expect(answer.status).toBe(413);
    expect(answer.text).toContain('--passthrough-max-body');
    expect(heads).toBe(0);
  });

  it('a chunked body found over --passthrough-max-body gets 413, its temporary file gone', async () => {
    heads = 0;
    const upload = openUpload(`${gateway.url}/web/binary/upload`);
    await upload.write(Buffer.alloc(maxBody + 10, 1)).catch(() => undefined);
    const answer = await upload.end();
    expect(answer.status).toBe(413);
    expect(heads).toBe(0);
    await until(() => spoolDescriptors().length === 0);
    expect(spoolDescriptors()).toEqual([]);
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
