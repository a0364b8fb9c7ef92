/**
 * A 2FA policy switched on (`auth_totp.policy` = `employee_required`) changes no field the session
 * token covers, so a session check keeps passing: a real password login is made at least every
 * `--login-recheck-interval`, and the password is refused through the gateway from then on, as Odoo
 * refuses it on RPC at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClock, minutes } from '../support/clock.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('a password refused by a 2FA policy', () => {
  it('is refused through the gateway once the last real login is older than --login-recheck-interval', async () => {
    const clock = createTestClock('2026-11-21T12:00:00Z');
    stack = await startStack({
      databases: ['gw'],
      sim: { now: clock.date },
      gateway: { now: clock.now },
      flags: ['--revalidate-interval', '5000', '--login-recheck-interval', String(minutes(10))],
    });
    const call = () => stack!.jsonrpc('object', 'execute_kw', ['gw', 5, 'demo', 'res.users', 'context_get', []]);
    expect((await stack.jsonrpc('common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5);
    expect((await call()).error).toBeUndefined();
    // a new key's first check logs in once (it reads the user's write_date before that login)
    clock.advance(3000);
    expect((await call()).error).toBeUndefined();
    await stack.gateway.credentials.settled();
    stack.sim.control.setConfigParameter('gw', 'auth_totp.policy', 'employee_required');
    // within the bound the session check stands in for a login (it cannot see the policy)
    clock.advance(minutes(5));
    expect((await call()).error).toBeUndefined();
    clock.advance(minutes(5) + 1000);
    const { error } = await call();
    expect(errorData(error).name).toBe('odoo.exceptions.AccessDenied');
    // API keys keep working under the policy (JSON-2 with the user's own key)
    expect(
      (
        await fetch(`${stack.sim.url}/json/2/res.users/context_get`, {
          method: 'POST',
          headers: {
            authorization: `bearer ${stack.sim.keyFor('gw', 'demo')}`,
            'content-type': 'application/json',
            'x-odoo-database': 'gw',
          },
          body: '{}',
        })
      ).status,
    ).toBe(200);
  });
});
