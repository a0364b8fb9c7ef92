import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../index.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ databases: ['gw'], legacyEndpoints: true });
});
afterAll(() => sim.close());

async function rpc(path: string, params: unknown): Promise<{ result?: unknown; error?: unknown }> {
  const res = await fetch(sim.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params }),
  });
  return (await res.json()) as { result?: unknown; error?: unknown };
}
const legacyLogin = (password: string) => rpc('/jsonrpc', { service: 'common', method: 'login', args: ['gw', 'demo', password] });

describe('the 2FA policy (auth_totp.policy)', () => {
  it("employee_required: an internal user's password is refused on RPC at once (API keys only) and a web login waits for the second factor", async () => {
    expect((await legacyLogin('demo')).result).toBe(5);
    sim.control.setConfigParameter('gw', 'auth_totp.policy', 'employee_required');
    try {
      expect((await legacyLogin('demo')).result).toBe(false);
      expect((await legacyLogin(sim.keyFor('gw', 'demo'))).result).toBe(5);
      expect((await rpc('/web/session/authenticate', { db: 'gw', login: 'demo', password: 'demo' })).result).toEqual({ uid: null });
    } finally {
      sim.control.setConfigParameter('gw', 'auth_totp.policy', undefined);
    }
    expect((await legacyLogin('demo')).result).toBe(5);
  });
});

describe('web.base.url under concurrent logins (REPEATABLE READ)', () => {
  // each login's transaction stays open over its password check, so two started together overlap
  let slow: Simulator;
  beforeAll(async () => {
    slow = await startSimulator({ databases: ['gw'], legacyEndpoints: true, passwordCheckMs: 150 });
  });
  afterAll(() => slow.close());

  const adminPassword = () => slow.users('gw').find((u) => u.login === 'admin')?.password as string;
  async function post(path: string, params: unknown): Promise<{ result?: unknown; error?: { data: { name: string; message: string } } }> {
    const res = await fetch(slow.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params }),
    });
    return (await res.json()) as { result?: unknown; error?: { data: { name: string; message: string } } };
  }
  const webLogin = () => post('/web/session/authenticate', { db: 'gw', login: 'admin', password: adminPassword() });
  const root = () => `http://${new URL(slow.url).host}`;

  it("two system users' web logins at a new URL root both write it: the later is refused, rolled back, and the value written once", async () => {
    slow.control.setConfigParameter('gw', 'web.base.url', 'http://localhost:8069');
    const answers = await Promise.all([webLogin(), webLogin()]);
    expect(answers.filter((a) => a.result !== undefined)).toHaveLength(1);
    expect(answers.flatMap((a) => (a.error === undefined ? [] : [{ name: a.error.data.name, message: a.error.data.message }]))).toEqual([
      { name: 'psycopg2.errors.SerializationFailure', message: 'could not serialize access due to concurrent update\n' },
    ]);
    expect(slow.control.configParameter('gw', 'web.base.url').value).toBe(root());
    // once the value is the URL root, logins write nothing and never meet
    const again = await Promise.all([webLogin(), webLogin()]);
    expect(again.every((a) => a.result !== undefined)).toBe(true);
  });

  it('two native legacy logins at once write nothing and are both answered', async () => {
    slow.control.setConfigParameter('gw', 'web.base.url', 'http://localhost:8069');
    const legacy = () => post('/jsonrpc', { service: 'common', method: 'login', args: ['gw', 'admin', adminPassword()] });
    expect((await Promise.all([legacy(), legacy()])).map((a) => a.result)).toEqual([2, 2]);
    expect(slow.control.configParameter('gw', 'web.base.url').value).toBe('http://localhost:8069');
  });
});
