/**
 * Refusals an operator can act on (docs/architecture.md §5 steps 3, 4, 5): two-factor users, the key wizard's
 * refusals (group maximum) and access refusals (portal users), bad passwords (False / fault 3),
 * unknown uids, and throttling per (client address, db, login) with backoff.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClock, type TestClock } from '../support/clock.ts';
import { startReplicas, type Replicas } from '../support/replicas.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const contextGet = (s: Stack, uid: number, password: string, headers?: Record<string, string>) =>
  s.jsonrpc('object', 'execute_kw', ['gw', uid, password, 'res.users', 'context_get', []], headers);
const count = (s: Stack, path: string) => s.sim.log.filter((r) => r.path === path).length;
const authPath = '/web/session/authenticate';

const twoFactorText =
  'legacy-rpc-gateway cannot use the password of this user: two-factor authentication is enabled, so Odoo refuses the web login ' +
  'the gateway mints API keys with. Map this login to one of its API keys in the credential map (--credentials-file), or let the ' +
  'client send the API key as its password.';

describe('refusals with a reason', () => {
  it('refuses a two-factor user with AccessDenied naming the credential map, from authenticate and object calls alike', async () => {
    stack = await startStack({
      databases: ['gw'],
      sim: { totpLogins: ['demo'] },
      flags: (sim) => ['--service-key', sim.keyFor('gw', 'admin')],
    });
    const s = stack;
    for (const answer of [await s.jsonrpc('common', 'authenticate', ['gw', 'demo', 'demo', {}]), await contextGet(s, 5, 'demo')]) {
      expect(errorData(answer.error)).toMatchObject({ name: 'odoo.exceptions.AccessDenied', message: twoFactorText });
    }
    // the refusal is cached: one web login (ended), no wizard
    expect(s.sim.log.map((r) => r.path).filter((p) => p.startsWith('/web/'))).toEqual([authPath, '/web/session/destroy']);
  });

  it("answers the wizard's group maximum with fault 3 and Odoo's reason", async () => {
    stack = await startStack({ databases: ['gw'], flags: ['--key-duration', '180'] });
    const post = await stack.post(
      '/xmlrpc/2/common',
      "<?xml version='1.0'?>\n<methodCall><methodName>login</methodName><params><param><value><string>gw</string></value></param><param><value><string>demo</string></value></param><param><value><string>demo</string></value></param></params></methodCall>",
      'text/xml',
    );
    expect(post.text).toContain('<name>faultCode</name>\n<value><int>3</int></value>');
    expect(post.text).toContain(
      "<value><string>legacy-rpc-gateway could not mint an API key for this login: You cannot exceed 90.0 days. Lower --key-duration to what the user's groups allow, or map this login to an API key in the credential map (--credentials-file).</string></value>",
    );
    // a system user is exempt from the maximum
    expect((await stack.jsonrpc('common', 'login', ['gw', 'admin', 'admin'])).result).toBe(2);
  });

  it("answers the access refusal for a portal user (403) with fault 3 and Odoo's reason", async () => {
    stack = await startStack({ databases: ['gw'] });
    expect(errorData((await stack.jsonrpc('common', 'login', ['gw', 'portal', 'portal'])).error)).toMatchObject({
      name: 'odoo.exceptions.AccessDenied',
      message:
        'legacy-rpc-gateway could not mint an API key for this login: Only internal users can create API keys. Map this login to one of its API keys in the credential map (--credentials-file), or let the client send an API key as its password.',
    });
  });

  it('answers a bad password with False from authenticate and fault 3 "Access Denied" from object calls', async () => {
    stack = await startStack({ databases: ['gw'], flags: (sim) => ['--service-key', sim.keyFor('gw', 'admin')] });
    expect((await stack.jsonrpc('common', 'authenticate', ['gw', 'demo', 'nope', {}])).result).toBe(false);
    expect(errorData((await contextGet(stack, 5, 'nope')).error)).toMatchObject({
      name: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
    });
  });

  it('explains an unknown uid without a service key, and answers a uid that does not exist with MissingError with one', async () => {
    stack = await startStack({ databases: ['gw'] });
    expect(errorData((await contextGet(stack, 5, 'demo')).error)).toMatchObject({
      name: 'odoo.exceptions.AccessDenied',
      message:
        'legacy-rpc-gateway does not know the login of uid 5, which it needs to trade the password for an API key: it has not seen this uid log in, and no --service-key is configured. ' +
        'Call common.login or common.authenticate with this password first, or configure --service-key so the gateway can look the login up.',
    });
    expect((await stack.jsonrpc('common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5);
    expect((await contextGet(stack, 5, 'demo')).error).toBeUndefined();
    await stack.close();
    stack = await startStack({ databases: ['gw'], flags: (sim) => ['--service-key', sim.keyFor('gw', 'admin')] });
    expect(errorData((await contextGet(stack, 999, 'demo')).error)).toMatchObject({
      name: 'odoo.exceptions.MissingError',
      message: 'Record does not exist or has been deleted.\n(Record: res.users(999,), User: 999)',
    });
    expect((await contextGet(stack, 5, 'demo')).error).toBeUndefined();
  });
});

describe('unknown databases', () => {
  it("answer psycopg2's fault before anything about the uid's login, as Registry(db) opens first", async () => {
    stack = await startStack({ databases: ['gw'] });
    const answer = await stack.jsonrpc('object', 'execute_kw', ['nope', 5, 'demo', 'res.users', 'context_get', []]);
    expect(errorData(answer.error)).toMatchObject({
      name: 'psycopg2.OperationalError',
      message: 'connection to server failed: FATAL:  database "nope" does not exist\n',
    });
  });
});

describe('throttling per (client address, db, login)', () => {
  const throttledText = (seconds: number) =>
    `Too many login failures, please wait a bit before trying again. (legacy-rpc-gateway: repeated failed logins for this login from this address; next attempt in ${seconds} s)`;
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  let clock: TestClock;

  async function throttledStack(): Promise<Stack> {
    clock = createTestClock('2026-11-21T12:00:00Z');
    stack = await startStack({
      databases: ['gw'],
      sim: { now: clock.date },
      gateway: { now: clock.now },
      flags: (sim) => [
        '--throttle-failures',
        '3',
        '--throttle-backoff',
        '60000',
        '--trusted-proxies',
        'loopback',
        '--service-key',
        sim.keyFor('gw', 'admin'),
      ],
    });
    return stack;
  }

  it('refuses further attempts after the failures, answering False from authenticate and the reason from object calls', async () => {
    const s = await throttledStack();
    for (const pw of ['wrong-1', 'wrong-2', 'wrong-3'])
      expect((await s.jsonrpc('common', 'login', ['gw', 'demo', pw], from('10.0.0.1'))).result).toBe(false);
    expect(count(s, authPath)).toBe(3);
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo'], from('10.0.0.1'))).result).toBe(false);
    expect(errorData((await contextGet(s, 5, 'demo', from('10.0.0.1'))).error)).toMatchObject({
      name: 'odoo.exceptions.AccessDenied',
      message: throttledText(60),
    });
    expect(count(s, authPath)).toBe(3);
    // another address, and another login from the same address, are not affected
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo'], from('10.0.0.2'))).result).toBe(5);
    expect((await s.jsonrpc('common', 'login', ['gw', 'admin', 'admin'], from('10.0.0.1'))).result).toBe(2);
  });

  it('lets the address try again after the backoff, doubling it for each further failure, and forgets after a success', async () => {
    const s = await throttledStack();
    for (const pw of ['wrong-1', 'wrong-2', 'wrong-3']) await s.jsonrpc('common', 'login', ['gw', 'demo', pw], from('10.0.0.1'));
    clock.advance(60_001);
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'wrong-4'], from('10.0.0.1'))).result).toBe(false);
    expect(errorData((await contextGet(s, 5, 'demo', from('10.0.0.1'))).error).message).toBe(throttledText(120));
    clock.advance(120_001);
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo'], from('10.0.0.1'))).result).toBe(5);
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'wrong-5'], from('10.0.0.1'))).result).toBe(false);
    expect((await contextGet(s, 5, 'demo', from('10.0.0.1'))).error).toBeUndefined();
  });

  it('counts an IPv6 client by its /64: rotating through addresses in it gets no fresh attempts', async () => {
    const s = await throttledStack();
    for (let i = 1; i <= 6; i++)
      expect((await s.jsonrpc('common', 'login', ['gw', 'demo', `wrong-${i}`], from(`2001:db8:1:2::${i.toString(16)}`))).result).toBe(
        false,
      );
    expect(count(s, authPath)).toBe(3);
    // another /64 is another client
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo'], from('2001:db8:1:3::1'))).result).toBe(5);
  });

  it('40 parallel wrong guesses make no more upstream logins than the limit: attempts in flight are reserved', async () => {
    const s = await throttledStack();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => s.jsonrpc('common', 'login', ['gw', 'demo', `wrong-${i}`], from('10.0.0.1'))),
    );
    expect(answers.every((a) => a.result === false)).toBe(true);
    expect(count(s, authPath)).toBe(3);
    // the same address for another login, and the right password from another address, still log in
    expect((await s.jsonrpc('common', 'login', ['gw', 'admin', 'admin'], from('10.0.0.1'))).result).toBe(2);
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo'], from('10.0.0.2'))).result).toBe(5);
  });
});

describe('throttling across replicas', () => {
  let replicas: Replicas | undefined;
  afterEach(async () => {
    await replicas?.close();
    replicas = undefined;
  });

  it('40 parallel wrong guesses spread over two replicas make no more upstream logins than the limit', async () => {
    replicas = await startReplicas(2, { name: 'throttle-in-flight', flags: ['--throttle-failures', '3', '--throttle-backoff', '60000'] });
    const r = replicas;
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => r.call(i % 2, 'common', 'login', ['gw', 'demo', `wrong-${i}`])));
    expect(answers.every((a) => a.result === false)).toBe(true);
    expect(r.sim.log.filter((q) => q.path === authPath).length).toBe(3);
    expect((await r.call(0, 'common', 'login', ['gw', 'admin', 'admin'])).result).toBe(2);
  });
});
