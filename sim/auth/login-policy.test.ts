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
