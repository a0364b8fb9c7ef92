/**
 * The failed-login throttle refuses attempts that would log in upstream, never credentials already
 * traded for a cached key: a client hammering a wrong password for `admin` must not lock out the
 * integration that uses admin's right password (or key) from the same address. Odoo's own login
 * cooldown does not apply to execute_kw with a correct password either.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { errorData, startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
const searchAs = (password: string, uid = 2) =>
  stack.jsonrpc('object', 'execute_kw', ['demo', uid, password, 'res.partner.category', 'search_count', [[]]]);

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'], flags: ['--throttle-failures', '2', '--negative-cache-ttl', '0'] });
  await stack.jsonrpc('common', 'login', ['demo', 'admin', 'admin']); // uid 2 → login admin
});
afterAll(() => stack.close());

describe('throttle', () => {
  it('keeps serving a cached right password while a wrong one is throttled', async () => {
    expect(typeof (await searchAs('admin')).result).toBe('number'); // minted and cached
    for (let i = 0; i < 4; i++) expect(errorData((await searchAs(`wrong-${i}`)).error).name).toBe('odoo.exceptions.AccessDenied');
    const throttled = errorData((await searchAs('wrong-again')).error);
    expect(throttled.message).toMatch(/^Too many login failures, please wait a bit before trying again\./);
    stack.sim.clearLog();
    expect(typeof (await searchAs('admin')).result).toBe('number');
    // served from the cache: no login upstream
    expect(stack.sim.log.filter((r) => r.path === '/web/session/authenticate')).toHaveLength(0);
  });

  it('keeps serving a checked API key while wrong keys are throttled', async () => {
    const key = stack.sim.keyFor('demo', 'demo');
    expect(typeof (await searchAs(key, 5)).result).toBe('number'); // checked and cached
    for (let i = 0; i < 4; i++) await searchAs(String(i).repeat(40), 5);
    expect(errorData((await searchAs('9'.repeat(40), 5)).error).message).toMatch(/^Too many login failures/);
    expect(typeof (await searchAs(key, 5)).result).toBe('number');
  });

  it("a right key clears the failures counted against its uid's keys, as a right password clears its login's", async () => {
    // a stack of its own: the tests above throttled admin and demo from this address
    const own = await startStack({ databases: ['demo'], flags: ['--throttle-failures', '2', '--negative-cache-ttl', '0'] });
    onTestFinished(() => own.close());
    const searchAs = (password: string, uid: number) =>
      own.jsonrpc('object', 'execute_kw', ['demo', uid, password, 'res.partner.category', 'search_count', [[]]]);
    const key = own.sim.keyFor('demo', 'admin');
    const wrong = async (i: number) => errorData((await searchAs(String(i).repeat(40), 2)).error).message;
    expect(await wrong(1)).not.toMatch(/^Too many login failures/); // one failure of the two allowed
    expect(typeof (await searchAs(key, 2)).result).toBe('number'); // clears it
    expect(await wrong(2)).not.toMatch(/^Too many login failures/); // one failure again, not two
    expect(await wrong(3)).not.toMatch(/^Too many login failures/);
    expect(await wrong(4)).toMatch(/^Too many login failures/);
  });
});
