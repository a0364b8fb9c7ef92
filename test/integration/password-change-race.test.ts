/**
 * A changed password or a new second factor stops within `--revalidate-interval` every time
 * (docs/security.md "The session-check race"): Odoo 19.0 clears its session-token cache inside the
 * writing transaction, before the commit, so a `/web/session/check` that runs in that window caches
 * the old token and the session keeps passing. The simulator plays that race (`racedByCheck`): the
 * new password, the second factor and the user's `write_date` are visible, the session check still
 * passes. The gateway pairs every passing session check with the user's `write_date`, read in the
 * same request, and logs in afresh when it moved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClock, type TestClock } from '../support/clock.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';

const authPath = '/web/session/authenticate';
const stampPath = '/web/dataset/call_kw/res.users/read';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(clock: TestClock): Promise<Stack> {
  stack = await startStack({ databases: ['gw'], sim: { now: clock.date }, gateway: { now: clock.now } });
  return stack;
}

const paths = (s: Stack) => s.sim.log.map((r) => r.path).filter((p) => !p.startsWith('/doc-bearer/'));
const contextGet = (s: Stack, uid: number, password: string) =>
  s.jsonrpc('object', 'execute_kw', ['gw', uid, password, 'res.users', 'context_get', []]);

/** A credential in steady use: minted, then confirmed by a few checks. */
async function inUse(s: Stack, clock: TestClock): Promise<void> {
  expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5);
  expect((await contextGet(s, 5, 'demo')).error).toBeUndefined();
  for (let i = 0; i < 4; i++) {
    clock.advance(3000);
    expect((await contextGet(s, 5, 'demo')).error).toBeUndefined();
    await s.gateway.credentials.settled();
  }
}

describe('a change that races a session check', () => {
  for (const kind of ['password', 'second factor'] as const) {
    it(`refuses the old password within --revalidate-interval after a ${kind} change whose session check Odoo answered from a stale cache`, async () => {
      const clock = createTestClock('2026-12-01T12:00:00Z');
      const s = await start(clock);
      await inUse(s, clock);
      clock.advance(1000); // write_date has a second's resolution: the change lands in a later second
      if (kind === 'password') s.sim.control.setPassword('gw', 'demo', 'changed', { racedByCheck: true });
      else s.sim.control.enableTotp('demo', { racedByCheck: true });
      s.sim.clearLog();
      // the race holds: Odoo still says the session is valid
      clock.advance(5000);
      const { error } = await contextGet(s, 5, 'demo');
      expect(errorData(error)).toMatchObject({ name: 'odoo.exceptions.AccessDenied' });
      // the session check passed, the moved write_date asked for a fresh login, which Odoo refused
      expect(paths(s).slice(0, 2)).toEqual([stampPath, authPath]);
      expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo'])).result).not.toBe(5);
    });
  }

  it('checks a credential in steady use with one request (the session and the write_date together), with no password hash', async () => {
    const clock = createTestClock('2026-12-01T12:00:00Z');
    const s = await start(clock);
    await inUse(s, clock);
    s.sim.clearLog();
    clock.advance(3000);
    expect((await contextGet(s, 5, 'demo')).error).toBeUndefined();
    await s.gateway.credentials.settled();
    expect(paths(s).sort()).toEqual(['/json/2/res.users/context_get', stampPath]);
  });

  it('logs in afresh once when another change moved the write_date (a preference), and goes on with the session check', async () => {
    const clock = createTestClock('2026-12-01T12:00:00Z');
    const s = await start(clock);
    await inUse(s, clock);
    clock.advance(1000);
    // a write to the user that is no session-token field: the sessions stay valid, write_date moves
    const key = s.sim.keyFor('gw', 'admin');
    const wrote = await fetch(`${s.sim.url}/json/2/res.users/write`, {
      method: 'POST',
      headers: { authorization: `bearer ${key}`, 'content-type': 'application/json', 'x-odoo-database': 'gw' },
      body: JSON.stringify({ ids: [5], vals: { tz: 'Europe/Brussels' } }),
    });
    expect(wrote.status).toBe(200);
    s.sim.clearLog();
    clock.advance(5000);
    expect((await contextGet(s, 5, 'demo')).error).toBeUndefined();
    expect(paths(s).slice(0, 2)).toEqual([stampPath, authPath]);
    s.sim.clearLog();
    clock.advance(5000);
    expect((await contextGet(s, 5, 'demo')).error).toBeUndefined();
    expect(paths(s)).toEqual([stampPath, '/json/2/res.users/context_get']);
  });
});
