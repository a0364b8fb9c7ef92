/**
 * HTTP/1.0 clients (Python 2's xmlrpclib, PHP's stream wrapper) cannot decode chunked framing
 * (RFC 9112 §6.1): every streamed answer to an HTTP/1.0 request — db.dump in both dialects, a large
 * transcoded object answer, a passed-through upstream stream — ends with the connection instead.
 * Read here as a strict HTTP/1.0 client reads (the body is everything up to the close), and by
 * Python's http.client speaking HTTP/1.0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../src/server/gateway.ts';
import { streamAbove } from '../../src/wire/xmlrpc/encode-json.ts';
import { runClientScript } from '../interop/core-session.ts';
import { searchReadCall, startAnsweringGateway } from '../support/answering-upstream.ts';
import { http10Request } from '../support/raw-http.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ databases: ['gw'] });
  stack.sim.databaseManager.backupPadding = 2_000_000;
});
afterAll(() => stack.close());

const param = (v: string) => `<param>\n<value><string>${v}</string></value>\n</param>\n`;
const xmlDump = `<?xml version='1.0'?>\n<methodCall>\n<methodName>dump</methodName>\n<params>\n${param('admin')}${param('gw')}${param('zip')}</params>\n</methodCall>\n`;
const jsonDump = JSON.stringify({
  jsonrpc: '2.0',
  method: 'call',
  params: { service: 'db', method: 'dump', args: ['admin', 'gw', 'zip'] },
  id: 1,
});

describe('streamed answers to an HTTP/1.0 request', () => {
  it('db.dump over XML-RPC: no chunked framing, the connection closes, the base64 decodes to the zip', async () => {
    const answer = await http10Request(stack.gateway.url, 'POST', '/xmlrpc/2/db', xmlDump, { 'Content-Type': 'text/xml' });
    expect(answer.status).toBe(200);
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(answer.headers.connection).toBe('close');
    const text = answer.body.toString('utf8');
    const match =
      /^<\?xml version="1\.0"\?>\n<methodResponse>\n<params>\n<param>\n<value><string>([A-Za-z0-9+/=]+)<\/string><\/value>\n<\/param>\n<\/params>\n\n<\/methodResponse>\n$/.exec(
        text,
      );
    expect(match).not.toBeNull();
    const zip = Buffer.from(match?.[1] ?? '', 'base64');
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(zip.length).toBeGreaterThan(2_000_000);
  });

  it('db.dump over JSON-RPC: no chunked framing, the body parses as JSON', async () => {
    const answer = await http10Request(stack.gateway.url, 'POST', '/jsonrpc', jsonDump, { 'Content-Type': 'application/json' });
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    const envelope = JSON.parse(answer.body.toString('utf8')) as { result: string };
    expect(Buffer.from(envelope.result, 'base64').subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('a passed-through upstream stream (/web/database/backup): no chunked framing', async () => {
    const form = 'master_pwd=admin&name=gw&backup_format=zip';
    const answer = await http10Request(stack.gateway.url, 'POST', '/web/database/backup', form, {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(answer.body.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(answer.body.length).toBeGreaterThan(1_000_000);
  });

  it('an HTTP/1.1 request still gets its dump chunked (no read-ahead, the connection kept)', async () => {
    const res = await fetch(`${stack.gateway.url}/xmlrpc/2/db`, { method: 'POST', body: xmlDump, headers: { 'content-type': 'text/xml' } });
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect((await res.text()).endsWith('</methodResponse>\n')).toBe(true);
  });

  it("Python's http.client speaking HTTP/1.0 decodes both dumps", async () => {
    const script = new URL('../interop/http10_dump.py', import.meta.url).pathname;
    const out = await runClientScript('python3', [script, stack.gateway.url, 'gw']);
    expect(out.xmlrpc).toMatchObject({ framing: 'close', magic: 'PK' });
    expect(out.jsonrpc).toMatchObject({ framing: 'close', magic: 'PK' });
    expect(out.xmlrpc?.bytes).toBeGreaterThan(2_000_000);
  }, 60_000);

  it("PHP's stream wrapper at HTTP/1.0 and xmlrpc_decode read the dump, not chunked", async () => {
    const script = new URL('../interop/http10_dump.php', import.meta.url).pathname;
    const out = await runClientScript('php', [script, stack.gateway.url, 'gw']);
    expect(out.php).toMatchObject({ chunked: false, magic: 'PK' });
    expect(out.php?.bytes).toBeGreaterThan(2_000_000);
  }, 60_000);
});

describe('a large transcoded object answer to an HTTP/1.0 request', () => {
  let gateway: RunningGateway;
  let close: () => Promise<void>;
  const rows = JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ id: i + 1, name: `Partner ${i}` })));
  beforeAll(async () => {
    ({ gateway, close } = await startAnsweringGateway(() => ({ status: 200, body: rows })));
  });
  afterAll(() => close());

  it('is streamed with its exact Content-Length, never chunked', async () => {
    expect(rows.length).toBeGreaterThan(streamAbove);
    const answer = await http10Request(gateway.url, 'POST', '/xmlrpc/2/object', searchReadCall, { 'Content-Type': 'text/xml' });
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(answer.body.length).toBe(Number(answer.headers['content-length']));
    expect(answer.body.toString('utf8').endsWith('</methodResponse>\n')).toBe(true);
    expect(answer.body.toString('utf8')).toContain('<value><string>Partner 39999</string></value>');
  });
});
