/**
 * Key lifetimes follow Odoo's clock, and mint storms are bounded: with the gateway's clock a day
 * ahead of Odoo's, a key would look expired as soon as it is minted; and keys Odoo keeps refusing
 * cannot make every call mint another.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { captureLog } from '../support/captured-log.ts';
import { createTestClock } from '../support/clock.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const login = (s: Stack) => s.jsonrpc('common', 'login', ['gw', 'demo', 'demo']);
const contextGet = (s: Stack) => s.jsonrpc('object', 'execute_kw', ['gw', 5, 'demo', 'res.users', 'context_get', []]);
// a mint is a key made by the wizard (a web login alone may also be a periodic password re-check)
const mints = (s: Stack) => s.sim.log.filter((r) => r.path === '/web/dataset/call_kw/res.users.apikeys.description/make_key').length;
const day = 24 * 3600 * 1000;

describe("key lifetimes on Odoo's clock", () => {
  it('with the gateway a day ahead of Odoo, seven calls mint one key', async () => {
    const odoo = createTestClock('2026-11-21T12:00:00Z');
    const s = (stack = await startStack({ databases: ['gw'], sim: { now: odoo.date }, gateway: { now: () => odoo.now() + day } }));
    expect((await login(s)).result).toBe(5);
    for (let i = 0; i < 6; i++) {
      expect((await contextGet(s)).error).toBeUndefined();
      odoo.advance(1000);
    }
    await s.gateway.credentials.settled();
    expect(mints(s)).toBe(1);
  });

  it("the key is still renewed before Odoo expires it, by Odoo's midnight", async () => {
    const odoo = createTestClock('2026-11-21T12:00:00Z');
    const s = (stack = await startStack({ databases: ['gw'], sim: { now: odoo.date }, gateway: { now: () => odoo.now() + day } }));
    expect((await login(s)).result).toBe(5);
    // 15 minutes before Odoo's midnight: the key is used as it is
    odoo.set('2026-11-21T23:45:00Z');
    expect((await contextGet(s)).error).toBeUndefined();
    await s.gateway.credentials.settled();
    expect(mints(s)).toBe(1);
    // 5 minutes before: inside the 10-minute renewal margin, renewed in the background
    odoo.set('2026-11-21T23:55:00Z');
    expect((await contextGet(s)).error).toBeUndefined();
    await s.gateway.credentials.settled();
    expect(mints(s)).toBe(2);
  });
});

describe("Odoo's clock behind its database's", () => {
  it('keys born expired: the fault and the log say why and what to fix, and at most two keys are minted per --mint-interval', async () => {
    const db = createTestClock('2026-11-21T12:00:00Z');
    const captured = captureLog('warn');
    // Odoo's host a day behind PostgreSQL: "today + 1 day" is already past by the database's clock
    const s = (stack = await startStack({
      databases: ['gw'],
      log: captured.log,
      sim: { now: () => new Date(db.now() - day), databaseNow: db.date },
      gateway: { now: db.now },
    }));
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await login(s)); // the client logs in again and again
      db.advance(4000);
    }
    expect(mints(s)).toBe(2);
    for (const a of answers.slice(0, 2)) {
      const message = errorData(a.error).message;
      expect(message).toContain("Odoo's clock is behind its database's");
      expect(message).toContain('NTP');
      expect(message).toMatch(/at least \d+\.\d h behind/);
    }
    // then held off by --mint-interval (common.login answers False for it, as for every refusal)
    expect(answers.slice(2).map((a) => a.result)).toEqual([false, false, false]);
    expect(captured.matching("Odoo's clock is behind its database's")).toHaveLength(2);
    // no traceback of a refused key reaches the client
    for (const a of answers) expect(JSON.stringify(a.error ?? null)).not.toContain('Traceback');
  });
});

describe('--mint-interval', () => {
  it('keys Odoo refuses after each call: the credentials are traded twice, then refused until the interval has passed', async () => {
    const clock = createTestClock('2026-11-21T12:00:00Z');
    const s = (stack = await startStack({ databases: ['gw'], sim: { now: clock.date }, gateway: { now: clock.now } }));
    expect((await login(s)).result).toBe(5);
    const answers = [];
    for (let i = 0; i < 7; i++) {
      answers.push(await contextGet(s));
      // whatever the cause, the key is gone upstream after each call
      for (const k of s.sim.keys.list()) if (k.name.startsWith('legacy-rpc-gateway for ')) s.sim.keys.removeKey(k.key);
      clock.advance(1000);
    }
    expect(mints(s)).toBe(2);
    expect(answers.slice(0, 2).map((a) => a.error)).toEqual([undefined, undefined]);
    for (const a of answers.slice(2)) expect(errorData(a.error).message).toContain('see --mint-interval');
    clock.advance(60_000);
    expect((await contextGet(s)).error).toBeUndefined();
    expect(mints(s)).toBe(3);
  });
});
