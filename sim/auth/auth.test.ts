/**
 * Bearer authentication (Odoo: `odoo/addons/base/models/ir_http.py` `_auth_method_bearer`): only stored 40-hex keys of active users,
 * unexpired and global or `rpc`-scoped; Odoo's two 401 messages with `WWW-Authenticate: Bearer `.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Struct, Value } from '../../src/value.ts';
import { type Simulator, startSimulator } from '../index.ts';
import { json2, rawCall } from '../test-support.ts';

const missing = 'User not authenticated, use an API Key with a Bearer Authorization header.';
const invalid = 'Invalid apikey';

let sim: Simulator;
let clock = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
beforeAll(async () => {
  sim = await startSimulator({ now: () => clock });
});
beforeEach(() => {
  sim.reset();
  clock = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
});
afterAll(() => sim.close());

async function contextGet(authorization: string | undefined) {
  return rawCall(sim, '/json/2/res.users/context_get', {
    contentType: null,
    headers: authorization === undefined ? {} : { authorization },
  });
}

async function expect401(authorization: string | undefined, message: string) {
  const a = await contextGet(authorization);
  expect(a.status).toBe(401);
  expect(a.headers.get('www-authenticate')).toBe('Bearer ');
  const body = a.value as Struct;
  expect(body.get('name')).toBe('werkzeug.exceptions.Unauthorized');
  expect(body.get('message')).toBe(message);
  expect(body.get('arguments')).toEqual([message, 401]);
  expect(body.get('context')).toEqual(new Map());
  expect(String(body.get('debug')).endsWith(`werkzeug.exceptions.Unauthorized: 401 Unauthorized: ${message}\n`)).toBe(true);
}

describe('bearer header', () => {
  it.each([
    ['bearer <key>', (k: string) => `bearer ${k}`],
    ['Bearer <key>', (k: string) => `Bearer ${k}`],
    ['BEARER  <key>', (k: string) => `BEARER  ${k}`],
  ])('accepts %s', async (_what, header) => {
    const a = await contextGet(header(sim.keyFor('demo', 'admin')));
    expect(a.status).toBe(200);
    expect((a.value as Struct).get('uid')).toBe(2);
  });

  it.each([
    ['no header', undefined],
    ['Basic auth', 'Basic YWRtaW46YWRtaW4='],
    ['a bearer without token', 'bearer '],
    ['a bare key', 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef'],
  ])('refuses %s as not authenticated', async (_what, header) => {
    await expect401(header, missing);
  });

  it.each([
    ['an unknown key', 'bearer deadbeefdeadbeefdeadbeefdeadbeefdeadbeef'],
    ['a password', 'bearer admin'],
    ['an upper-case copy of a key', () => `bearer ${sim.keyFor('demo', 'admin').toUpperCase()}`],
  ])('refuses %s as an invalid apikey', async (_what, header) => {
    await expect401(typeof header === 'function' ? header() : header, invalid);
  });
});

describe('key store', () => {
  it('gives each active user one 40-hex key, valid in every database', () => {
    const users = sim.users('demo');
    expect(users.map((u) => [u.uid, u.login, u.password])).toEqual([
      [2, 'admin', 'admin'],
      [5, 'demo', 'demo'],
      [6, 'portal', 'portal'],
    ]);
    for (const u of users) expect(u.key).toMatch(/^[0-9a-f]{40}$/);
    expect(new Set(users.map((u) => u.key)).size).toBe(3);
  });

  it('refuses expired keys and accepts them until their expiry', async () => {
    const record = sim.keys.add({ uid: 5, name: 'short', expiration: '2026-11-22 00:00:00' });
    expect((await contextGet(`bearer ${record.key}`)).status).toBe(200);
    clock = new Date(Date.UTC(2026, 10, 22, 0, 0, 1));
    await expect401(`bearer ${record.key}`, invalid);
  });

  it('accepts global and rpc keys only', async () => {
    const rpc = sim.keys.add({ uid: 2, name: 'rpc', scope: 'rpc' });
    const other = sim.keys.add({ uid: 2, name: 'other', scope: 'foo' });
    expect((await contextGet(`bearer ${rpc.key}`)).status).toBe(200);
    await expect401(`bearer ${other.key}`, invalid);
  });

  it('refuses a removed key at once', async () => {
    const record = sim.keys.add({ uid: 2, name: 'gone' });
    expect(sim.keys.remove(record.id)).toBe(true);
    await expect401(`bearer ${record.key}`, invalid);
  });

  it('refuses the keys of an archived user', async () => {
    const admin = sim.keyFor('demo', 'admin');
    const archived = await json2(sim, 'res.users', 'action_archive', new Map<string, Value>([['ids', [5]]]), { key: admin });
    expect([archived.status, archived.text]).toEqual([200, 'null']);
    await expect401(`bearer ${sim.keyFor('demo', 'demo')}`, invalid);
  });

  it('restores the initial keys on reset', async () => {
    const key = sim.keyFor('demo', 'admin');
    sim.keys.removeKey(key);
    sim.reset();
    expect((await contextGet(`bearer ${key}`)).status).toBe(200);
  });

  it('refuses keys that are not 40 lowercase hex characters', () => {
    expect(() => sim.keys.add({ uid: 2, name: 'x', key: 'admin' })).toThrow(/40 lowercase hex/);
  });
});

describe('res.users.apikeys', () => {
  const readKeys = (key: string) =>
    json2(
      sim,
      'res.users.apikeys',
      'search_read',
      new Map<string, Value>([
        ['domain', []],
        ['fields', ['name', 'user_id', 'scope']],
      ]),
      { key },
    );

  it('shows a user only their own keys', async () => {
    const a = await readKeys(sim.keyFor('demo', 'demo'));
    expect(a.status).toBe(200);
    const rows = a.value as Struct[];
    expect(rows.map((r) => (r.get('user_id') as Value[])[0])).toEqual([5]);
  });

  it('shows system users every key', async () => {
    const rows = (await readKeys(sim.keyFor('demo', 'admin'))).value as Struct[];
    expect(rows.length).toBe(3);
  });
});
