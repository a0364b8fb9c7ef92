/**
 * A system user's password login through the gateway leaves `web.base.url` and its write date as
 * they were, as a native legacy login does, with and without Odoo's `proxy_mode` (docs/first-run.md).
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const odooAddress = 'https://erp.example.com';

describe('web.base.url after a system user logs in through the gateway', () => {
  for (const proxyMode of [false, true]) {
    it(`is not rewritten to the gateway's address (proxy_mode ${proxyMode ? 'on' : 'off'}, base URL learnt from the service key)`, async () => {
      const base = proxyMode ? odooAddress : 'http://odoo.internal:8069';
      stack = await startStack({
        sim: { proxyMode, configParameters: { 'web.base.url': base } },
        flags: (sim) => ['--service-key', sim.keyFor('demo', 'admin')],
      });
      const { result, error } = await stack.jsonrpc('object', 'execute_kw', ['demo', 2, 'admin', 'res.partner', 'search_count', [[]]]);
      expect(error).toBeUndefined();
      expect(typeof result).toBe('number');
      expect(stack.sim.control.configParameter('demo', 'web.base.url')).toEqual({ value: base, writtenAt: undefined });
    });
  }

  it('keeps the base URL a first login stated for the next ones, without a service key', async () => {
    stack = await startStack({ sim: { configParameters: { 'web.base.url': 'http://odoo.internal:8069' } } });
    // a non-system user's login writes nothing and tells the gateway the current base URL
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'demo', 'demo', {}])).result).toBe(5);
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', 'admin', {}])).result).toBe(2);
    expect(stack.sim.control.configParameter('demo', 'web.base.url')).toEqual({ value: 'http://odoo.internal:8069', writtenAt: undefined });
  });

  it("never takes the client's Host for the URL root when the base URL has a path (no login can be made at it)", async () => {
    stack = await startStack({
      sim: { proxyMode: true, configParameters: { 'web.base.url': `${odooAddress}/odoo` } },
      flags: (sim) => ['--service-key', sim.keyFor('demo', 'admin')],
    });
    const res = await request(`${stack.gateway.url}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: 'client.example.net' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        method: 'call',
        params: { service: 'common', method: 'login', args: ['demo', 'admin', 'admin'] },
      }),
    });
    expect(((await res.body.json()) as { result?: unknown }).result).toBe(2);
    // the root of the base URL Odoo has, which is what the gateway knows: never the caller's Host
    expect(stack.sim.control.configParameter('demo', 'web.base.url').value).toBe(odooAddress);
  });

  it('is written by the simulator when a system user logs in at another address (the rule the gateway avoids)', async () => {
    stack = await startStack();
    const res = await request(`${stack.sim.url}/web/session/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: 'gateway.example.com:8070' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { db: 'demo', login: 'admin', password: 'admin' } }),
    });
    expect(res.statusCode).toBe(200);
    await res.body.text();
    const after = stack.sim.control.configParameter('demo', 'web.base.url');
    expect(after.value).toBe('http://gateway.example.com:8070');
    expect(after.writtenAt).toBeInstanceOf(Date);
  });
});
