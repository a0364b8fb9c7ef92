/**
 * `--max-answer`: an upstream answer to a legacy call is counted as it arrives; past the cap the
 * upstream body is dropped and the call gets a fault naming the setting, in the caller's dialect —
 * whether the answer declared its length or streamed without one. Dumps stream and are not capped.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';
import { startStack } from '../support/stack.ts';

const cap = 1024 * 1024;
let upstream: Server;
let gateway: RunningGateway;
/** How the fake upstream answers search_read: with a Content-Length, or endless chunks until the gateway hangs up. */
let mode: 'declared' | 'endless' | 'small' = 'declared';
/** Bytes the endless answer wrote before its connection closed. */
let written = 0;
let closed: Promise<void> = Promise.resolve();

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/json/2/res.users/context_get')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"uid": 2}');
      if (mode === 'small') return void res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id": 1, "name": "small"}]');
      if (mode === 'declared')
        return void res
          .writeHead(200, { 'content-type': 'application/json', 'content-length': String(4 * cap) })
          .end(`[${'"x",'.repeat(cap - 1)}"x"]`.padEnd(4 * cap, ' '));
      res.writeHead(200, { 'content-type': 'application/json' });
      written = 0;
      const piece = `${'{"id": 1, "name": "row"}, '.repeat(2000)}`;
      res.write('[');
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      const pump = () => {
        while (!res.destroyed && written < 200 * cap) {
          written += piece.length;
          if (!res.write(piece)) return void res.once('drain', pump);
        }
      };
      pump();
    });
  }).listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  gateway = await startGateway(
    loadConfig(['--port', '0', '--admin-port', '0', '--upstream', url, '--max-answer', String(cap)], {}),
    createLogger('silent'),
  );
});

afterAll(async () => {
  await gateway.close();
  upstream.closeAllConnections();
  upstream.close();
});

const key = 'a'.repeat(40);
const xmlCall =
  "<?xml version='1.0'?>\n<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n" +
  [
    '<string>demo</string>',
    '<int>2</int>',
    `<string>${key}</string>`,
    '<string>res.partner</string>',
    '<string>search_read</string>',
    '<array><data>\n</data></array>',
  ]
    .map((v) => `<param>\n<value>${v}</value>\n</param>\n`)
    .join('') +
  '</params>\n</methodCall>\n';
const jsonCall = JSON.stringify({
  jsonrpc: '2.0',
  method: 'call',
  params: { service: 'object', method: 'execute_kw', args: ['demo', 2, key, 'res.partner', 'search_read', []] },
  id: 3,
});
const message = `legacy_rpc_gateway.UpstreamError: upstream answer exceeds ${cap} bytes (--max-answer)`;

async function post(path: string, body: string, contentType: string): Promise<string> {
  const res = await fetch(gateway.url + path, { method: 'POST', body, headers: { 'content-type': contentType } });
  expect(res.status).toBe(200);
  return res.text();
}

describe('--max-answer', () => {
  it('an answer declaring a length over the cap: XML-RPC fault 1 naming the setting', async () => {
    mode = 'declared';
    const text = await post('/xmlrpc/2/object', xmlCall, 'text/xml');
    expect(text).toContain('<name>faultCode</name>\n<value><int>1</int></value>');
    expect(text).toMatch(new RegExp(`${message.replace(/[().]/g, '\\$&')} \\(http://127\\.0\\.0\\.1:\\d+, \\d+ ms\\)\n</string>`));
  });

  it('an answer streaming without a length: cut while reading, JSON-RPC error naming the setting, the upstream connection dropped', async () => {
    mode = 'endless';
    const text = await post('/jsonrpc', jsonCall, 'application/json');
    const envelope = JSON.parse(text) as { id: number; error: { data: { name: string; message: string } } };
    expect(envelope.id).toBe(3);
    expect(envelope.error.data.name).toBe('legacy_rpc_gateway.UpstreamError');
    expect(envelope.error.data.message).toMatch(/^upstream answer exceeds 1048576 bytes \(--max-answer\)/);
    await closed;
    // the gateway stopped reading at the cap (plus what was in flight in the socket buffers)
    expect(written).toBeLessThan(20 * cap);
  });

  it('an answer within the cap is served as before', async () => {
    mode = 'small';
    expect(await post('/xmlrpc/2/object', xmlCall, 'text/xml')).toContain('<string>small</string>');
  });
});

describe('--max-answer and db.dump', () => {
  it('a dump larger than the cap still streams whole', async () => {
    const stack = await startStack({ databases: ['gw'], flags: ['--max-answer', String(cap)] });
    try {
      stack.sim.databaseManager.backupPadding = 3 * cap;
      const dump = await stack.jsonrpc('db', 'dump', ['admin', 'gw', 'zip']);
      expect(Buffer.from(dump.result as string, 'base64').length).toBeGreaterThan(3 * cap);
    } finally {
      await stack.close();
    }
  });
});
