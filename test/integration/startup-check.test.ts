/**
 * The start-up check of the upstream: one block naming what it found, `/readyz` not ready (with the
 * reason) while the upstream cannot be used, and a scheme mismatch named as such.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';
import { captureLog } from '../support/captured-log.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack | undefined;
let sim: Simulator | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await stack?.close();
  await gateway?.close();
  await sim?.close();
  stack = gateway = sim = undefined;
});

async function readyz(adminUrl: string): Promise<{ status: number; body: { status: string; reason?: string } }> {
  const res = await fetch(`${adminUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string; reason?: string } };
}

describe('the start-up check', () => {
  it("says --call-timeout may cut calls Odoo would finish, since Odoo's limit_time_real cannot be read", async () => {
    const capture = captureLog('info');
    stack = await startStack({ databases: ['gw'], log: capture.log, flags: ['--call-timeout', '600000'] });
    await stack.gateway.startupCheck.start();
    const block = capture.lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('upstream '));
    expect(block?.msg).toContain(
      "limit_time_real: not visible over the API; --call-timeout 600 s cuts a legacy call still running after 600 s, which Odoo would finish if its limit_time_real is longer (prefork workers; a threaded Odoo has no limit): set --call-timeout (CALL_TIMEOUT, ms) to Odoo's limit_time_real",
    );
  });

  it("warns without a service key that a system user's first login through the gateway may rewrite web.base.url", async () => {
    const capture = captureLog('info');
    stack = await startStack({ databases: ['gw'], log: capture.log });
    await stack.gateway.startupCheck.start();
    const warned = capture.lines.filter((l) => l.level === 40 && typeof l.msg === 'string' && l.msg.startsWith('web.base.url not known'));
    expect(warned).toHaveLength(1);
    expect(warned[0]?.msg).toContain('web.base.url.freeze');
    await stack.close();
    // with one, the base URL is read and said per database instead
    const withKey = captureLog('info');
    stack = await startStack({ databases: ['gw'], log: withKey.log, flags: (s) => ['--service-key', `gw=${s.keyFor('gw', 'admin')}`] });
    await stack.gateway.startupCheck.start();
    expect(withKey.lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('web.base.url not known'))).toEqual([]);
    expect(
      withKey.lines.some((l) => l.db === 'gw' && typeof l.msg === 'string' && l.msg.startsWith('web.base.url http://localhost:8069')),
    ).toBe(true);
  });

  it('finds the version, JSON-2, api_doc and the base URL parameters with the service key', async () => {
    stack = await startStack({ databases: ['gw'], flags: (s) => ['--service-key', `gw=${s.keyFor('gw', 'admin')}`] });
    await stack.gateway.startupCheck.start();
    const found = stack.gateway.startupCheck.state();
    expect(found).toMatchObject({ reachable: true, version: '19.0', json2: 'yes (database gw)' });
    expect(found.perDatabase?.gw?.baseUrl).toBe('http://localhost:8069');
    expect(found.perDatabase?.gw?.baseUrlFreeze).toBe('not set');
    expect((await readyz(stack.gateway.adminUrl)).status).toBe(200);
  });

  it('probes JSON-2 in a database on an Odoo with several, as calls are made: one it lists, else "unknown", never "no"', async () => {
    // no service key: the database comes from the manager's list
    stack = await startStack({ databases: ['gw', 'gw2'] });
    expect(stack.gateway.startupCheck.state().json2).toBe('yes (database gw)');
    await stack.close();
    // listing off and no database known: Odoo picks none, which says nothing about JSON-2
    stack = await startStack({ databases: ['gw', 'gw2'], sim: { databaseManager: { enabled: false } } });
    expect(stack.gateway.startupCheck.state().json2).toMatch(/^unknown \(Odoo picks no database/);
  });

  it('names a scheme mismatch: an https URL in front of a plain-HTTP Odoo', async () => {
    sim = await startSimulator({ databases: ['gw'] });
    const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url.replace('http:', 'https:')], {});
    gateway = await startGateway(config, createLogger('silent'));
    let answer = await readyz(gateway.adminUrl);
    for (let i = 0; i < 100 && !/scheme/.test(answer.body.reason ?? ''); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await readyz(gateway.adminUrl);
    }
    expect(answer.status).toBe(503);
    expect(answer.body.reason).toContain(`scheme mismatch: --upstream ${config.upstream} says https, but the upstream speaks http there`);
  });

  it('keeps /readyz not ready while the upstream refuses, and ready once it answers', async () => {
    sim = await startSimulator({ databases: ['gw'] });
    const port = sim.port;
    await sim.close();
    const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', `http://127.0.0.1:${port}`], {});
    gateway = await startGateway(config, createLogger('silent'));
    let answer = await readyz(gateway.adminUrl);
    for (let i = 0; i < 100 && !/refused/.test(answer.body.reason ?? ''); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await readyz(gateway.adminUrl);
    }
    expect(answer.status).toBe(503);
    expect(answer.body.reason).toContain('upstream unreachable: upstream refused the connection');
    sim = await startSimulator({ databases: ['gw'], port });
    await gateway.startupCheck.start();
    expect((await readyz(gateway.adminUrl)).status).toBe(200);
  });

  it('/readyz refreshes a stale reason at once when Odoo is back', async () => {
    sim = await startSimulator({ databases: ['gw'] });
    const port = sim.port;
    await sim.close();
    const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', `http://127.0.0.1:${port}`], {});
    gateway = await startGateway(config, createLogger('silent'));
    let answer = await readyz(gateway.adminUrl);
    for (let i = 0; i < 100 && !/refused/.test(answer.body.reason ?? ''); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await readyz(gateway.adminUrl);
    }
    expect(answer.body.reason).toContain('refused');
    // past the second attempt: the check's next retry is 4 s away
    await new Promise((resolve) => setTimeout(resolve, 2500));
    sim = await startSimulator({ databases: ['gw'], port });
    // a probe asks again rather than showing the old reason
    expect(await readyz(gateway.adminUrl)).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it("a legacy call Odoo answers refreshes the start-up check's state", async () => {
    sim = await startSimulator({ databases: ['gw'] });
    const port = sim.port;
    await sim.close();
    const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', `http://127.0.0.1:${port}`], {});
    gateway = await startGateway(config, createLogger('silent'));
    const g = gateway;
    for (let i = 0; i < 100 && g.startupCheck.state().reason === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    sim = await startSimulator({ databases: ['gw'], port });
    const res = await fetch(`${g.url}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service: 'common', method: 'version', args: [] } }),
    });
    expect(((await res.json()) as { result?: unknown }).result).toBeDefined();
    for (let i = 0; i < 20 && !g.startupCheck.state().reachable; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(g.startupCheck.state().reachable).toBe(true);
  });

  it("is not ready when /web/health answers 200 with something that is not Odoo's health answer", async () => {
    const versionInfo =
      '{"jsonrpc": "2.0", "id": null, "result": {"server_version": "19.0", "server_version_info": [19, 0, 0, "final", 0, ""], "server_serie": "19.0", "protocol_version": 1}}';
    const server = createServer((req, res) => {
      req.resume();
      if (req.url === '/web/health') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Maintenance</html>');
      else if (req.url === '/web/webclient/version_info') res.writeHead(200, { 'content-type': 'application/json' }).end(versionInfo);
      else res.writeHead(401, { 'content-type': 'application/json' }).end('{}');
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      gateway = await startGateway(loadConfig(['--port', '0', '--admin-port', '0', '--upstream', url], {}), createLogger('silent'));
      await gateway.startupCheck.start();
      const answer = await readyz(gateway.adminUrl);
      expect(answer.status).toBe(503);
      expect(answer.body.reason).toContain('something other than Odoo\'s {"status": "pass"}');
    } finally {
      await gateway?.close();
      gateway = undefined;
      server.closeAllConnections();
      server.close();
    }
  });
});
