/**
 * API keys used as legacy passwords (docs/architecture.md §5 steps 1, 3) and the plain-password basics, through the
 * gateway in front of the simulator, with upstream requests counted at the simulator's HTTP layer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorData, startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let adminKey: string;
let demoKey: string;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  adminKey = stack.sim.keyFor('demo', 'admin');
  demoKey = stack.sim.keyFor('demo', 'demo');
});
afterAll(() => stack.close());
beforeEach(() => stack.sim.clearLog());

const contextGets = () => stack.sim.log.filter((r) => r.path === '/json/2/res.users/context_get').length;

describe('common.authenticate with an API key', () => {
  it("answers the uid of the key's owner", async () => {
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', adminKey, new Map()])).result).toBe(2);
    expect((await stack.jsonrpc('common', 'login', ['demo', 'demo', demoKey])).result).toBe(5);
  });

  it('answers False for a key of another user, an unknown key, or an empty password', async () => {
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', demoKey, new Map()])).result).toBe(false);
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', 'f'.repeat(40), new Map()])).result).toBe(false);
    expect((await stack.jsonrpc('common', 'login', ['demo', 'admin', ''])).result).toBe(false);
  });

  it('answers False for a wrong plain password, but faults on an unknown database', async () => {
    expect((await stack.jsonrpc('common', 'login', ['demo', 'admin', 'not-the-password'])).result).toBe(false);
    const { error } = await stack.jsonrpc('common', 'login', ['nope', 'admin', 'admin']);
    expect(errorData(error).name).toBe('psycopg2.OperationalError');
    expect(errorData(error).message).toContain('database "nope" does not exist');
  });

  it('tries a password of 40 hex characters only as an API key, never on a login form', async () => {
    const hexPassword = 'c0ffee'.padEnd(40, '0');
    stack.sim.control.setPassword('demo', 'demo', hexPassword);
    try {
      expect((await stack.jsonrpc('common', 'login', ['demo', 'demo', hexPassword])).result).toBe(false);
      expect(stack.sim.log.map((r) => r.path)).toEqual(['/json/2/res.users/context_get']);
    } finally {
      stack.sim.control.setPassword('demo', 'demo', 'demo');
    }
  });

  it('sends no password-shaped value that is not a key upstream as a bearer', async () => {
    await stack.jsonrpc('common', 'login', ['demo', 'admin', 'admin']);
    const bearers = stack.sim.log.map((r) => r.headers.authorization).filter(Boolean);
    expect(bearers.every((b) => /^bearer ([0-9a-f]{40}|-)$/.test(String(b)))).toBe(true);
  });
});

describe('object calls with an API key', () => {
  const search = (uid: number, password: string) =>
    stack.jsonrpc('object', 'execute_kw', ['demo', uid, password, 'res.partner.category', 'search_count', [[]]]);

  it("serves the key's owner", async () => {
    expect((await search(2, adminKey)).result).toBeTypeOf('number');
  });

  it('refuses a key for another uid with AccessDenied', async () => {
    expect(errorData((await search(5, adminKey)).error)).toMatchObject({ name: 'odoo.exceptions.AccessDenied', message: 'Access Denied' });
  });

  it('answers a uid that does not exist with MissingError, as Odoo does', async () => {
    expect(errorData((await search(999, adminKey)).error)).toMatchObject({
      name: 'odoo.exceptions.MissingError',
      message: 'Record does not exist or has been deleted.\n(Record: res.users(999,), User: 999)',
    });
  });

  it.each([0, false, '0'])('refuses uid %j with a key with AccessDenied, as Odoo does (no user 0 to miss)', async (uid) => {
    expect(
      errorData((await stack.jsonrpc('object', 'execute_kw', ['demo', uid, adminKey, 'res.partner.category', 'search_count', [[]]])).error),
    ).toMatchObject({
      name: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
    });
  });

  it('refuses a wrong plain password with AccessDenied, whose debug is its last line alone (Odoo suppresses its traceback)', async () => {
    expect(errorData((await search(2, 'not-the-password')).error)).toEqual({
      name: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
      debug: 'odoo.exceptions.AccessDenied: Access Denied\n',
    });
  });

  it('checks a key once, then serves from the cache', async () => {
    const key = stack.sim.keys.add({ uid: 2, name: 'cache test' }).key;
    await search(2, key);
    await search(2, key);
    await search(2, key);
    // the key's check, whose answer also gives the user's language for the call's Accept-Language
    // (docs/architecture.md §3): no second context_get for it
    expect(contextGets()).toBe(1);
    const calls = stack.sim.log.filter((r) => r.path === '/json/2/res.partner.category/search_count');
    expect(calls.map((r) => r.headers['accept-language'])).toEqual(['en-US', 'en-US', 'en-US']);
  });

  it('makes one upstream check for 100 concurrent first calls with the same new key', async () => {
    const key = stack.sim.keys.add({ uid: 2, name: 'single flight' }).key;
    const answers = await Promise.all(Array.from({ length: 100 }, () => search(2, key)));
    expect(answers.every((a) => typeof a.result === 'number')).toBe(true);
    // one check of the key, which also answers its user's language: not one per call
    expect(contextGets()).toBe(1);
  });

  it('refuses a revoked key at once: the 401 evicts it and one re-check fails', async () => {
    const record = stack.sim.keys.add({ uid: 2, name: 'to revoke' });
    expect(typeof (await search(2, record.key)).result).toBe('number');
    stack.sim.keys.removeKey(record.key);
    stack.sim.clearLog();
    expect(errorData((await search(2, record.key)).error)).toMatchObject({
      name: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
    });
    // the model call (401), then exactly one re-check (401), and no retry of the call
    expect(stack.sim.log.map((r) => r.path)).toEqual(['/json/2/res.partner.category/search_count', '/json/2/res.users/context_get']);
  });
});
