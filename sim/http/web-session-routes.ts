/**
 * The web session routes a gateway mints keys over (Odoo: `res_users.py` identity check (`res.users.identitycheck`),
 * `addons/web/controllers/session.py`): `/web/session/authenticate` (interactive: passwords only; a TOTP user gets `{"uid": null}`),
 * `/web/session/destroy`, and `/web/dataset/call_kw[/<path>]` for the session's user. The session is found from the `session_id` cookie; a
 * cookie bound to one database plus an `X-Odoo-Database` naming another is a 403 page.
 */
import { createHash } from 'node:crypto';
import { struct, type Value } from '../../src/value.ts';
import { isSystem } from '../orm/access.ts';
import { callKw } from './call-kw.ts';
import type { Database } from '../orm/database.ts';
import { Env } from '../orm/env.ts';
import { errorFrom, OdooError } from '../errors.ts';
import { noDatabasePage, werkzeugPage } from './html-pages.ts';
import { htmlResponse, type SimRequest, type SimResponse } from './http-types.ts';
import type { Json2State } from './json2-route.ts';
import { baseUrlSnapshot, guessBaseUrl, needsSecondFactor, type BaseUrlSnapshot } from '../auth/login-policy.ts';
import { configParameters } from '../orm/config-parameters.ts';
import { jsonRpcError, jsonRpcResult, jsonRpcSessionExpired, readJsonRpc } from './jsonrpc-envelope.ts';
import { sessionAndDatabase } from './session-auth.ts';
import { sessionCookie } from '../auth/sessions.ts';
import { Transaction } from '../orm/transaction.ts';
import type { Release } from '../persona.ts';

/** The paths this module serves. */
export function isWebSessionPath(path: string): boolean {
  return (
    path === '/web/session/authenticate' ||
    path === '/web/session/destroy' ||
    path === '/web/session/check' ||
    path === '/web/dataset/call_kw' ||
    path.startsWith('/web/dataset/call_kw/')
  );
}

/**
 * `res.users._compute_session_token` over `_get_session_token_fields()` (id, login, password, active,
 * and `auth_totp`'s totp_secret): any change to them — a new password, a new second factor — ends
 * the user's sessions at their next request (unless a stale token is cached: `SessionStore.cacheStaleToken`).
 */
export function sessionToken(db: Database, uid: number, totpLogins: ReadonlySet<string>): string | undefined {
  const user = db.model('res.users')?.rows.get(uid);
  if (user === undefined) return undefined;
  const totp = totpLogins.has(String(user.v.login));
  return createHash('sha256')
    .update(JSON.stringify([uid, user.v.login, db.passwords.get(uid) ?? null, user.v.active, totp]))
    .digest('hex');
}

/** `ir.http.session_info()`, the members the simulator can state from its data. */
function sessionInfo(db: Database, uid: number, now: Date, release: Release): Value {
  const env = new Env(db, uid, new Map(), now, new Transaction(db));
  const user = env.userRow();
  const system = isSystem(env);
  const partner = user.v.partner_id;
  return struct({
    uid,
    is_system: system,
    is_admin: system,
    is_public: false,
    is_internal_user: user.v.share !== true,
    user_context: struct({
      lang: typeof user.v.lang === 'string' ? user.v.lang : 'en_US',
      tz: typeof user.v.tz === 'string' ? user.v.tz : false,
      uid,
    }),
    db: db.name,
    server_version: release.version,
    server_version_info: release.versionInfo,
    name: String(user.v.name),
    username: String(user.v.login),
    partner_id: typeof partner === 'number' ? partner : false,
    'web.base.url': configParameters(db).get('web.base.url') ?? '',
  });
}

function unknownDatabaseError(name: string): OdooError {
  return new OdooError(
    'psycopg2.OperationalError',
    `connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: FATAL:  database "${name}" does not exist\n`,
    500,
  );
}

/**
 * `/web/session/authenticate` (`auth='none'`): db, login and password from the params. Its transaction
 * sees the database as it was when it started (the user's search); the password check takes
 * `passwordCheckMs` (pbkdf2) before the login writes anything. Odoo serves this route before a
 * database is bound to the request (`_serve_nodb`), so a concurrency error is not retried (`retrying`
 * wraps db-bound requests only): the login answers it.
 */
function authenticate(state: Json2State, req: SimRequest, id: Value, params: Map<string, Value>): SimResponse {
  const dbName = params.get('db');
  const db = typeof dbName === 'string' ? state.databases.get(dbName) : undefined;
  if (db === undefined) return jsonRpcError(id, unknownDatabaseError(String(dbName)), 'authenticate');
  const seen = baseUrlSnapshot(db);
  const hashing = state.passwordCheckMs ?? 0;
  if (hashing <= 0) return finishLogin(state, req, id, params, db, seen);
  return {
    status: 200,
    headers: {},
    body: '',
    deferred: new Promise((resolve) => setTimeout(resolve, hashing)).then(() => finishLogin(state, req, id, params, db, seen)),
  };
}

/** The login once its password is checked: refused, or the session opened (and `web.base.url` guessed on `seen`). */
function finishLogin(
  state: Json2State,
  req: SimRequest,
  id: Value,
  params: Map<string, Value>,
  db: Database,
  seen: BaseUrlSnapshot,
): SimResponse {
  const now = state.now();
  const login = params.get('login');
  const password = params.get('password');
  const user = [...(db.model('res.users')?.rows.values() ?? [])].find((u) => u.v.login === login && u.v.active === true);
  // interactive login: the stored password only, never an API key (Odoo: `res_users.py` `_check_credentials`)
  if (user === undefined || typeof password !== 'string' || password === '' || db.passwords.get(user.id) !== password) {
    return jsonRpcError(id, new OdooError('odoo.exceptions.AccessDenied', 'Access Denied', 403), 'authenticate');
  }
  const env = new Env(db, user.id, new Map(), now, new Transaction(db));
  try {
    guessBaseUrl(env, req, state.proxyMode, now, seen);
  } catch (err) {
    // rolled back whole: no session, nothing written
    if (err instanceof OdooError) return jsonRpcError(id, err, 'authenticate');
    throw err;
  }
  const current = state.sessions.fromCookie(req.headers.cookie) ?? state.sessions.create();
  const session = state.sessions.rotate(current);
  session.db = db.name;
  session.identityCheckLast = undefined;
  const cookie = { 'Set-Cookie': sessionCookie(session, now) };
  if (needsSecondFactor(db, String(login), user.v.share !== true, state.totpLogins)) {
    session.uid = undefined;
    session.preUid = user.id;
    return jsonRpcResult(id, struct({ uid: null }), cookie);
  }
  session.uid = user.id;
  session.preUid = undefined;
  session.token = sessionToken(db, user.id, state.totpLogins);
  return jsonRpcResult(id, sessionInfo(db, user.id, now, state.persona.release), cookie);
}

/** Serves the session routes. */
export function handleWebSession(state: Json2State, req: SimRequest): SimResponse {
  if (req.method !== 'POST') return htmlResponse(405, werkzeugPage(405, 'The method is not allowed for the requested URL.'));
  const rpc = readJsonRpc(req);
  if ('status' in rpc) return rpc;
  const { id, params } = rpc;
  if (req.path === '/web/session/authenticate') return authenticate(state, req, id, params);
  const found = sessionAndDatabase(state, req);
  if ('status' in found) return found;
  const { session, db } = found;
  if (db === undefined) return htmlResponse(404, noDatabasePage());
  if (session === undefined || session.uid === undefined) return jsonRpcSessionExpired(id);
  // `check_session`: a session whose user's password (or login, or activity) changed is logged out
  const uid = session.uid;
  const expected = state.sessions.expectedToken(session.sid, () => sessionToken(db, uid, state.totpLogins));
  if (session.token === undefined || session.token !== expected) {
    state.sessions.destroy(session);
    return jsonRpcSessionExpired(id);
  }
  // `/web/session/check` (`auth='user'`): nothing more to say for a live session
  if (req.path === '/web/session/check') return jsonRpcResult(id, null);
  if (req.path === '/web/session/destroy') {
    const fresh = state.sessions.destroy(session);
    return jsonRpcResult(id, null, { 'Set-Cookie': sessionCookie(fresh, state.now()) });
  }
  const model = params.get('model');
  const method = params.get('method');
  const args = params.get('args') ?? [];
  const kwargs = params.get('kwargs') ?? new Map();
  const where = `${String(model)}.${String(method)}`;
  try {
    if (typeof model !== 'string' || typeof method !== 'string' || !Array.isArray(args) || !(kwargs instanceof Map)) {
      throw new OdooError('builtins.TypeError', 'call_kw() needs model, method, args (a list) and kwargs (a dict)', 500);
    }
    const now = state.now();
    const request = { session, keys: state.keys, laterBuild: state.laterBuild };
    const result = callKw({ db, uid: session.uid, keys: state.keys, now, methods: state.methods, request }, model, method, args, kwargs);
    return jsonRpcResult(id, result);
  } catch (err) {
    return jsonRpcError(id, errorFrom(err), where);
  }
}
