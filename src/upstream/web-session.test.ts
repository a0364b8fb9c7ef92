import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import type { UpstreamHttp, UpstreamRequest, UpstreamResponse } from './pool.ts';
import { createWebSessionClient, loginTries } from './web-session.ts';
import { createCallValues } from '../call.ts';

const origin = {
  host: 'gateway:8070',
  ip: '10.0.0.7',
  proto: 'http',
  userAgent: 'client/1',
  requestId: 'r',
  values: createCallValues(),
  signal: new AbortController().signal,
};
const json = (body: string, headers: Record<string, string | string[]> = {}): UpstreamResponse => ({
  status: 200,
  contentType: 'application/json; charset=utf-8',
  headers,
  text: body,
  elapsedMs: 3,
});

function fakeHttp(answers: UpstreamResponse[]) {
  const sent: UpstreamRequest[] = [];
  const http: UpstreamHttp = {
    url: 'http://odoo:8069',
    async send(request) {
      sent.push(request);
      return answers.shift() as UpstreamResponse;
    },
    close: async () => {},
  };
  return { client: createWebSessionClient(http, loadConfig([], {})), sent };
}

describe('createWebSessionClient()', () => {
  it('logs in, calls call_kw with the session cookie and no database header, follows a rotated cookie, and logs out', async () => {
    const { client, sent } = fakeHttp([
      json('{"jsonrpc": "2.0", "id": null, "result": {"uid": 5, "name": "Marc Demo"}}', {
        'set-cookie': ['session_id=first; HttpOnly; Path=/'],
      }),
      json('{"jsonrpc": "2.0", "id": null, "result": 23}', { 'set-cookie': 'session_id=rotated; Path=/' }),
      json('{"jsonrpc": "2.0", "id": null}'),
    ]);
    const login = await client.authenticate({ db: 'gw', login: 'demo', password: 'demo' }, origin);
    expect(login).toEqual({ uid: 5, session: { db: 'gw', cookie: 'first' } });
    expect(
      await client.callKw(
        login.session,
        { model: 'res.users.apikeys.description', method: 'create', args: [new Map([['name', 'x']])], kwargs: new Map() },
        origin,
      ),
    ).toBe(23);
    await client.destroy(login.session, origin);
    expect(sent.map((r) => [r.path, r.headers.cookie, r.headers['x-odoo-database']])).toEqual([
      ['/web/session/authenticate', undefined, undefined],
      ['/web/dataset/call_kw/res.users.apikeys.description/create', 'session_id=first', undefined],
      ['/web/session/destroy', 'session_id=rotated', undefined],
    ]);
    expect(sent[0]?.body).toBe('{"jsonrpc":"2.0","method":"call","params":{"db":"gw","login":"demo","password":"demo"},"id":null}');
    expect(sent[0]?.headers['x-forwarded-for']).toBe('10.0.0.7');
  });

  it('answers {"uid": null} (a second factor is due) with a null uid', async () => {
    const { client } = fakeHttp([
      json('{"jsonrpc": "2.0", "id": null, "result": {"uid": null}}', { 'set-cookie': 'session_id=pre; Path=/' }),
    ]);
    expect((await client.authenticate({ db: 'gw', login: 'demo', password: 'demo' }, origin)).uid).toBeNull();
  });

  it.each([
    [
      'AccessDenied',
      '{"name": "odoo.exceptions.AccessDenied", "message": "Access Denied", "arguments": ["Access Denied"], "context": {}, "debug": ""}',
      { kind: 'access_denied', name: 'odoo.exceptions.AccessDenied', message: 'Access Denied' },
    ],
    [
      'a missing database',
      '{"name": "psycopg2.OperationalError", "message": "connection to server at \\"db\\" (10.0.0.9), port 5432 failed: FATAL:  database \\"nope\\" does not exist\\n", "arguments": [], "context": {}, "debug": ""}',
      { name: 'psycopg2.OperationalError', message: 'connection to server failed: FATAL:  database "gw" does not exist\n' },
    ],
    [
      'a database the dbfilter hides',
      '{"name": "odoo.exceptions.AccessError", "message": "Database not found.", "arguments": [], "context": {}, "debug": ""}',
      { name: 'psycopg2.OperationalError' },
    ],
    [
      'a connection PostgreSQL terminated (a database being duplicated): that error, not an unknown database',
      '{"name": "psycopg2.OperationalError", "message": "terminating connection due to administrator command\\nserver closed the connection unexpectedly\\n", "arguments": [], "context": {}, "debug": ""}',
      {
        name: 'psycopg2.OperationalError',
        message: 'terminating connection due to administrator command\nserver closed the connection unexpectedly\n',
      },
    ],
    [
      'PostgreSQL starting up: that error, not an unknown database',
      '{"name": "psycopg2.OperationalError", "message": "connection to server at \\"db\\" (10.0.0.9), port 5432 failed: FATAL:  the database system is starting up\\n", "arguments": [], "context": {}, "debug": ""}',
      { name: 'psycopg2.OperationalError', message: expect.stringContaining('the database system is starting up') as string },
    ],
    [
      'another psycopg2 error: that error',
      '{"name": "psycopg2.errors.QueryCanceled", "message": "canceling statement due to statement timeout\\n", "arguments": [], "context": {}, "debug": ""}',
      { name: 'psycopg2.errors.QueryCanceled' },
    ],
  ])('maps a login refused with %s', async (_what, data, expected) => {
    const { client } = fakeHttp([
      json(`{"jsonrpc": "2.0", "id": null, "error": {"code": 0, "message": "Odoo Server Error", "data": ${data}}}`),
    ]);
    await expect(client.authenticate({ db: 'gw', login: 'demo', password: 'x' }, origin)).rejects.toMatchObject(expected);
  });

  it('checks a session at /web/session/check with its cookie (answered without a result), following a rotated cookie, and rejects an ended one as Odoo 19 answers it', async () => {
    const { client, sent } = fakeHttp([
      json('{"jsonrpc": "2.0", "id": null}', { 'set-cookie': 'session_id=rotated; Path=/' }),
      json(
        '{"jsonrpc": "2.0", "id": null, "error": {"code": 100, "message": "Odoo Session Expired", "data": {"name": "odoo.http.SessionExpiredException", "message": "Session expired", "arguments": ["Session expired"], "context": {}, "debug": ""}}}',
      ),
    ]);
    const session = { db: 'gw', cookie: 'first' };
    await client.check(session, origin);
    expect(session.cookie).toBe('rotated');
    await expect(client.check(session, origin)).rejects.toMatchObject({ name: 'odoo.http.SessionExpiredException' });
    // with the database header: a session Odoo lost is then Session Expired, not a 404 "No database is selected"
    expect(sent.map((r) => [r.path, r.headers.cookie, r.headers['x-odoo-database'], r.body])).toEqual([
      ['/web/session/check', 'session_id=first', 'gw', '{"jsonrpc":"2.0","method":"call","params":{},"id":null}'],
      ['/web/session/check', 'session_id=rotated', 'gw', '{"jsonrpc":"2.0","method":"call","params":{},"id":null}'],
    ]);
  });

  it('maps code 100 to SessionExpiredException', async () => {
    const { client } = fakeHttp([
      json('{"jsonrpc": "2.0", "id": null, "error": {"code": 100, "message": "Odoo Session Expired", "data": {}}}'),
    ]);
    await expect(client.destroy({ db: 'gw', cookie: 'gone' }, origin)).rejects.toMatchObject({ name: 'odoo.http.SessionExpiredException' });
  });
});

describe('a login Odoo rolled back for a concurrent transaction', () => {
  // what Odoo's JSON-RPC dispatcher answers for a login that lost to a concurrent write (web.base.url)
  const conflict = (name = 'psycopg2.errors.SerializationFailure') =>
    json(
      `{"jsonrpc": "2.0", "id": null, "error": {"code": 200, "message": "Odoo Server Error", "data": {"name": "${name}", "message": "could not serialize access due to concurrent update\\n", "arguments": [], "context": {}, "debug": ""}}}`,
    );
  const ok = json('{"jsonrpc": "2.0", "id": null, "result": {"uid": 2}}', { 'set-cookie': 'session_id=s; Path=/' });

  it("is sent again, as Odoo's retrying runs a db-bound request again, and answers the login that passed", async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    try {
      const { client, sent } = fakeHttp([conflict(), conflict('psycopg2.errors.LockNotAvailable'), ok]);
      expect((await client.authenticate({ db: 'gw', login: 'admin', password: 'admin' }, origin)).uid).toBe(2);
      expect(sent.map((r) => r.path)).toEqual(Array(3).fill('/web/session/authenticate'));
    } finally {
      vi.restoreAllMocks();
    }
  });

  it(`is given up after ${loginTries} tries, with Odoo's error`, async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    try {
      const { client, sent } = fakeHttp(Array.from({ length: loginTries + 1 }, () => conflict()));
      await expect(client.authenticate({ db: 'gw', login: 'admin', password: 'admin' }, origin)).rejects.toMatchObject({
        name: 'psycopg2.errors.SerializationFailure',
      });
      expect(sent).toHaveLength(loginTries);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('is never sent again for a refusal or any other error', async () => {
    const denied = json(
      '{"jsonrpc": "2.0", "id": null, "error": {"code": 200, "message": "Odoo Server Error", "data": {"name": "odoo.exceptions.AccessDenied", "message": "Access Denied", "arguments": ["Access Denied"], "context": {}, "debug": ""}}}',
    );
    const { client, sent } = fakeHttp([denied, ok]);
    await expect(client.authenticate({ db: 'gw', login: 'admin', password: 'x' }, origin)).rejects.toMatchObject({ kind: 'access_denied' });
    expect(sent).toHaveLength(1);
  });
});
