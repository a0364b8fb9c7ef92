/**
 * When the upstream itself fails (docs/architecture.md §2): refused connections, timeouts and non-Odoo answers
 * become a fault in the caller's dialect — never an HTTP 5xx on /xmlrpc — naming the upstream.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';

let gateway: RunningGateway | undefined;
let upstream: Server | undefined;
afterEach(async () => {
  await gateway?.close();
  upstream?.closeAllConnections();
  upstream?.close();
  gateway = upstream = undefined;
});

async function fakeUpstream(handler: Parameters<typeof createServer>[1]): Promise<string> {
  upstream = createServer(handler).listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

async function versionThrough(upstreamUrl: string, flags: string[] = []) {
  gateway = await startGateway(
    loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstreamUrl, ...flags], {}),
    createLogger('silent'),
  );
  const res = await fetch(`${gateway.url}/xmlrpc/2/common`, {
    method: 'POST',
    body: "<?xml version='1.0'?>\n<methodCall>\n<methodName>version</methodName>\n<params>\n</params>\n</methodCall>\n",
  });
  const text = await res.text();
  const last = /<name>faultString<\/name>\n<value><string>([\s\S]*?)<\/string>/.exec(text)?.[1]?.trimEnd().split('\n').at(-1);
  return { status: res.status, text, last };
}

describe('upstream failures', () => {
  it('answers a refused connection with fault 1 naming the upstream', async () => {
    const url = await fakeUpstream(() => undefined);
    upstream?.close();
    await once(upstream as Server, 'close');
    const r = await versionThrough(url);
    expect(r.status).toBe(200);
    expect(r.text).toContain('<name>faultCode</name>\n<value><int>1</int></value>');
    expect(r.last).toMatch(new RegExp(`^legacy_rpc_gateway\\.UpstreamError: upstream refused the connection \\(${url}, \\d+ ms\\)$`));
  });

  it('answers a silent upstream with a timeout fault within the call timeout', async () => {
    const url = await fakeUpstream(() => undefined); // never answers
    const started = Date.now();
    const r = await versionThrough(url, ['--call-timeout', '300']);
    expect(r.last).toMatch(/^legacy_rpc_gateway\.UpstreamError: upstream did not answer in time \(.*, \d+ ms\)$/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("answers a proxy's 502 page as a non-Odoo answer", async () => {
    const url = await fakeUpstream((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway</h1>');
    });
    const r = await versionThrough(url);
    expect(r.last).toMatch(/^legacy_rpc_gateway\.UpstreamError: upstream answered HTTP 502 text\/html \(.*, \d+ ms\)$/);
  });

  it('answers truncated JSON as a non-Odoo answer', async () => {
    const url = await fakeUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc": "2.0", "result": {"server_ver');
    });
    const r = await versionThrough(url);
    expect(r.last).toMatch(/^legacy_rpc_gateway\.UpstreamError: upstream answered HTTP 200 with malformed JSON/);
  });
});
