/**
 * A web login that passes through the gateway (`POST /web/session/authenticate`, as OdooRPC logs
 * in) leaves `web.base.url` and its write date as they were when the gateway knows the value Odoo
 * has (read with the service key, or stated by an earlier login's `session_info`): the simulator
 * stores the request's URL root on a system user's login, as Odoo 19's `res.users.authenticate`
 * does, and the gateway here listens at another address than that base URL (a trial beside Odoo).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** OdooRPC's login: POST /web/session/authenticate through the gateway; the uid it answered. */
async function webLogin(s: Stack, login: string, password: string): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { db: 'demo', login, password } });
  const res = await s.post('/web/session/authenticate', body);
  expect(res.status).toBe(200);
  return (JSON.parse(res.text) as { result?: { uid?: unknown } }).result?.uid;
}

describe('web.base.url after a web login passed through the gateway', () => {
  for (const proxyMode of [false, true]) {
    it(`is left as it is when the service key reads it (proxy_mode ${proxyMode ? 'on' : 'off'})`, async () => {
      const base = proxyMode ? 'https://erp.example.com' : 'http://odoo.internal:8069';
      stack = await startStack({
        sim: { proxyMode, configParameters: { 'web.base.url': base } },
        flags: (sim) => ['--service-key', `demo=${sim.keyFor('demo', 'admin')}`],
      });
      expect(await webLogin(stack, 'admin', 'admin')).toBe(2);
      expect(stack.sim.control.configParameter('demo', 'web.base.url')).toEqual({ value: base, writtenAt: undefined });
    });
  }

  it('is left as it is once an earlier login stated it, without a service key', async () => {
    stack = await startStack({ sim: { configParameters: { 'web.base.url': 'http://odoo.internal:8069' } } });
    // a non-system user's login writes nothing, and its session_info states the base URL
    expect(await webLogin(stack, 'demo', 'demo')).toBe(5);
    expect(await webLogin(stack, 'admin', 'admin')).toBe(2);
    expect(stack.sim.control.configParameter('demo', 'web.base.url')).toEqual({ value: 'http://odoo.internal:8069', writtenAt: undefined });
  });

  it('goes as it came while nothing says the base URL: the first system login stores the address the client used', async () => {
    stack = await startStack({ sim: { configParameters: { 'web.base.url': 'http://odoo.internal:8069' } } });
    expect(await webLogin(stack, 'admin', 'admin')).toBe(2);
    const after = stack.sim.control.configParameter('demo', 'web.base.url');
    expect(after.value).toBe(new URL(stack.gateway.url).origin);
    expect(after.writtenAt).toBeInstanceOf(Date);
  });
});
