/**
 * The web session routes (Odoo: `addons/web/controllers/session.py`, `odoo/addons/base/models/ir_http.py` `_auth_method_bearer`,
 * `odoo/http.py` `_get_session_and_dbname`): /web/session/authenticate (passwords only, a TOTP user stops at {"uid": null}), /destroy,
 * /web/dataset/call_kw for the session's user, and session cookies on JSON-2 (Sec-Fetch-* navigation only; a different X-Odoo-Database is a
 * 403 page).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import type { Struct, Value } from '../../src/value.ts';
import { type Simulator, startSimulator } from '../index.ts';
import { plain, rawCall } from '../test-support.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ databases: ['gw', 'gw2'], totpLogins: ['portal'] });
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

async function rpc(path: string, params: Record<string, unknown>, cookie?: string, headers: Record<string, string> = {}) {
  const answer = await rawCall(sim, path, {
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params, id: 7 }),
    headers: { ...headers, ...(cookie === undefined ? {} : { cookie }) },
  });
  const setCookie = answer.headers.get('set-cookie') ?? undefined;
  return { ...answer, cookie: setCookie === undefined ? undefined : setCookie.split(';')[0], envelope: answer.value as Struct };
}
const login = (db: string, user: string, password: string, cookie?: string) =>
  rpc('/web/session/authenticate', { db, login: user, password }, cookie);
const errorOf = (envelope: Struct) => plain((envelope.get('error') as Struct).get('data')) as Record<string, unknown>;

describe('/web/session/authenticate', () => {
  it('opens a session for a password and answers session_info with the session cookie', async () => {
    const a = await login('gw', 'demo', 'demo');
    expect(a.status).toBe(200);
    expect(a.headers.get('set-cookie')).toMatch(/^session_id=[\w-]{84}; Expires=[^;]+; Max-Age=604800; HttpOnly; Path=\/$/);
    expect(plain(a.envelope.get('result') as Value)).toMatchObject({
      uid: 5,
      is_system: false,
      is_internal_user: true,
      db: 'gw',
      username: 'demo',
      user_context: { lang: 'en_US', tz: 'Europe/Brussels', uid: 5 },
    });
    expect(a.envelope.get('id')).toBe(7);
  });

  it.each([
    ['a wrong password', 'gw', 'demo', 'wrong'],
    ['an API key (interactive login takes passwords only)', 'gw', 'demo', 'KEY'],
    ['an unknown login', 'gw', 'nobody', 'nobody'],
  ])('refuses %s with AccessDenied and no cookie', async (_what, db, user, password) => {
    const a = await login(db, user, password === 'KEY' ? sim.keyFor('gw', 'demo') : password);
    expect(a.cookie).toBeUndefined();
    expect(errorOf(a.envelope)).toEqual({
      name: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
      arguments: ['Access Denied'],
      context: {},
      debug: 'odoo.exceptions.AccessDenied: Access Denied\n',
    });
  });

  it('answers {"uid": null} for a two-factor user', async () => {
    const a = await login('gw', 'portal', 'portal');
    expect(plain(a.envelope.get('result') as Value)).toEqual({ uid: null });
    expect(
      (await rpc('/web/dataset/call_kw', { model: 'res.users', method: 'context_get', args: [], kwargs: {} }, a.cookie)).envelope.get(
        'error',
      ),
    ).toBeInstanceOf(Map);
  });

  it('answers an unknown database with psycopg2.OperationalError', async () => {
    expect(errorOf((await login('nope', 'demo', 'demo')).envelope)).toMatchObject({ name: 'psycopg2.OperationalError' });
  });
});

describe('/web/dataset/call_kw and /web/session/destroy', () => {
  it('runs call_kw as the session user with positional args, then destroy ends the session', async () => {
    const { cookie } = await login('gw', 'demo', 'demo');
    const got = await rpc(
      '/web/dataset/call_kw/res.partner.category/search_count',
      { model: 'res.partner.category', method: 'search_count', args: [[]], kwargs: {} },
      cookie,
    );
    expect(got.envelope.get('result')).toBeTypeOf('number');
    const created = await rpc(
      '/web/dataset/call_kw',
      { model: 'res.partner.category', method: 'create', args: [{ name: 'via call_kw' }], kwargs: {} },
      cookie,
    );
    expect(created.envelope.get('result')).toBeTypeOf('number');
    const destroyed = await rpc('/web/session/destroy', {}, cookie);
    expect(destroyed.text).toBe('{"jsonrpc": "2.0", "id": 7}');
    expect(destroyed.cookie).not.toBe(cookie);
    const after = await rpc('/web/dataset/call_kw', { model: 'res.users', method: 'context_get', args: [], kwargs: {} }, cookie, {
      'x-odoo-database': 'gw',
    });
    expect((after.envelope.get('error') as Struct).get('code')).toBe(100);
  });

  it('answers a call without a session and without a database with the no-database page', async () => {
    const a = await rpc('/web/dataset/call_kw', { model: 'res.users', method: 'context_get', args: [], kwargs: {} });
    expect(a.status).toBe(404);
    expect(a.text).toContain('No database is selected');
  });
});

describe('session cookies on JSON-2', () => {
  const navigation = {
    'sec-fetch-dest': 'document',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-site': 'same-origin',
    'sec-fetch-user': '?1',
  };
  /** node:http, because fetch rewrites Sec-Fetch-Mode to "cors". */
  const contextGet = (headers: Record<string, string>) =>
    new Promise<{ status: number; text: string; value: Value }>((resolve, reject) => {
      const r = request(
        `${sim.url}/json/2/res.users/context_get`,
        { method: 'POST', headers: { ...headers, 'content-length': '0' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, text, value: /json/.test(res.headers['content-type'] ?? '') ? parseJson(text) : text });
          });
        },
      );
      r.on('error', reject);
      r.end();
    });

  it('accepts a session cookie with the Sec-Fetch-* navigation headers, and refuses it without them', async () => {
    const { cookie } = await login('gw', 'admin', 'admin');
    expect(((await contextGet({ cookie: cookie as string, ...navigation })).value as Struct).get('uid')).toBe(2);
    const bare = await contextGet({ cookie: cookie as string });
    expect(bare.status).toBe(401);
    expect((bare.value as Struct).get('message')).toBe('Missing "Authorization" or Sec-headers for interactive usage.');
  });

  it("accepts the session user's own key with the cookie, and refuses a cookie plus another database with a 403 page", async () => {
    const { cookie } = await login('gw', 'admin', 'admin');
    expect((await contextGet({ cookie: cookie as string, authorization: `bearer ${sim.keyFor('gw', 'admin')}` })).status).toBe(200);
    const other = await contextGet({ cookie: cookie as string, authorization: `bearer ${sim.keyFor('gw', 'demo')}` });
    expect([other.status, (other.value as Struct).get('message')]).toEqual([403, 'Session user does not match the used apikey.']);
    const conflict = await contextGet({
      cookie: cookie as string,
      'x-odoo-database': 'gw2',
      authorization: `bearer ${sim.keyFor('gw', 'admin')}`,
    });
    expect(conflict.status).toBe(403);
    expect(conflict.text).toContain('<p>Cannot use both the session_id cookie and the x-odoo-database header.</p>');
  });
});

describe('/web/session/check and the session token', () => {
  it('answers a live session without a result, as Odoo 19 does', async () => {
    const a = await login('gw', 'demo', 'demo');
    const check = await rpc('/web/session/check', {}, a.cookie);
    expect(plain(check.envelope)).toEqual({ jsonrpc: '2.0', id: 7 });
  });

  it("logs a session out once its user's password changed: the check and call_kw answer Odoo Session Expired", async () => {
    const sessions = [await login('gw', 'demo', 'demo'), await login('gw', 'demo', 'demo')];
    const other = await login('gw', 'admin', 'admin');
    sim.control.setPassword('gw', 'demo', 'changed');
    for (const [i, path] of ['/web/session/check', '/web/dataset/call_kw'].entries()) {
      const out = await rpc(path, { model: 'res.users', method: 'context_get', args: [], kwargs: {} }, sessions[i]!.cookie);
      expect(plain(out.envelope.get('error') as Value)).toMatchObject({ code: 100, message: 'Odoo Session Expired' });
    }
    // another user's session is not affected, and a login with the new password opens a working one
    expect((await rpc('/web/session/check', {}, other.cookie)).envelope.get('error')).toBeUndefined();
    const again = await login('gw', 'demo', 'changed');
    expect((await rpc('/web/session/check', {}, again.cookie)).envelope.get('error')).toBeUndefined();
  });
});
