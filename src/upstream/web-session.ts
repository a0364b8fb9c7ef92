/**
 * The web session routes the gateway mints and retires keys over (Odoo: `res_users.py` identity check (`res.users.identitycheck`),
 * `addons/web/controllers/session.py`; corpus `sess-mint-*`, `sess-retire-*`): `POST /web/session/authenticate` (db, login, password → the
 * `session_id` cookie), `POST /web/dataset/call_kw/<model>/<method>` with that cookie and no database header (the session names it; a
 * header too would be a 403), `POST /web/session/destroy`.
 *
 * The login is the one request here Odoo serves before a database is bound to it (`_serve_nodb`: no
 * session cookie, no database header), so Odoo's own `retrying` — which runs again every db-bound
 * request its transaction lost to a concurrent one — does not cover it. A system user's login writes
 * `web.base.url` when it differs from the URL root it is made at; two such logins at once both update
 * that row, and PostgreSQL (REPEATABLE READ) refuses the later one: `SerializationFailure`, whole
 * transaction rolled back, nothing stored (docs/cutover.md "Logins racing"). So a login refused for a
 * concurrency error is sent again as `retrying` would (its tries, a random wait growing with each).
 */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { stringifyJson } from '../json/index.ts';
import { isInt, isStruct, struct, type Struct, type Value } from '../value.ts';
import {
  errorFromAnswer,
  errorFromJsonRpc,
  isUnknownDatabaseAnswer,
  jsonFromAnswer,
  unknownDatabase,
  upstreamError,
} from './errors/index.ts';
import { forwardedHeaders } from './forwarded-headers.ts';
import type { UpstreamHttp, UpstreamResponse } from './pool.ts';
import { LegacyError } from '../errors.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** An open web session. Its cookie follows Odoo's rotations (a new `session_id` on any answer). */
export interface WebSession {
  readonly db: string;
  cookie: string;
}

/** What `/web/session/authenticate` answered: the uid, or `null` while a second factor is due. */
export interface WebLogin {
  uid: number | bigint | null;
  session: WebSession;
  /** `web.base.url` as `session_info` states it after the login, when the answer has it. */
  baseUrl: string | undefined;
}

/** A password login: `baseUrl` is the URL root the login is made at (see `baseUrlHeaders`). */
export interface LoginRequest {
  db: string;
  login: string;
  password: string;
  baseUrl?: string | undefined;
}

/**
 * A system user's interactive login stores the request's URL root as `web.base.url` unless
 * `web.base.url.freeze` is set, and writes nothing when the value is unchanged. So the login is
 * made at the URL root Odoo already has: Host for a server without `proxy_mode`, X-Forwarded-Host
 * and -Proto (werkzeug's ProxyFix) for one with it. A root with a path cannot be made; none then.
 */
export function baseUrlHeaders(baseUrl: string): Record<string, string> | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search !== '' ||
    url.username !== ''
  )
    return undefined;
  if (`${url.protocol}//${url.host}` !== baseUrl.replace(/\/$/, '')) return undefined;
  return { host: url.host, 'x-forwarded-host': url.host, 'x-forwarded-proto': url.protocol.slice(0, -1) };
}

/** One `call_kw`: positional `args` and `kwargs` exactly as Odoo's `call_kw` takes them. */
export interface CallKw {
  model: string;
  method: string;
  args: Value[];
  kwargs: Struct;
}

/** The web session client the credentials layer uses. */
export interface WebSessionClient {
  /** Logs in; rejects with AccessDenied for bad credentials, the unknown-database fault for a missing db. */
  authenticate(login: LoginRequest, origin: CallOrigin): Promise<WebLogin>;
  /** Runs `model.method(*args, **kwargs)` as the session's user; rejects with the Odoo error. */
  callKw(session: WebSession, call: CallKw, origin: CallOrigin): Promise<Value>;
  /** Ends the session (logs out). */
  destroy(session: WebSession, origin: CallOrigin): Promise<void>;
  /**
   * `/web/session/check`: resolves while the session is still logged in. Odoo hashes nothing for it,
   * and ends a session whose user's password changed (the session token covers the password hash):
   * rejects with `odoo.http.SessionExpiredException` then.
   */
  check(session: WebSession, origin: CallOrigin): Promise<void>;
  /**
   * The session check and the user's `write_date` in one request (`res.users.read` in the session:
   * Odoo runs `check_session` first). A passing check alone can stem from a session token Odoo
   * cached inside the transaction that changed the password (docs/security.md "The session-check
   * race"); the `write_date` the change wrote cannot. Rejects as `check` does.
   */
  userStamp(session: WebSession, uid: number | bigint, origin: CallOrigin): Promise<string>;
}

/** The `session_id` value a Set-Cookie header (or several) carries. */
function sessionIdFrom(setCookie: string | string[] | undefined): string | undefined {
  for (const header of Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]) {
    const m = /(?:^|[;,]\s*)session_id=([^;,\s]+)/.exec(header);
    if (m) return m[1];
  }
  return undefined;
}

/** The `write_date` of the one row a `res.users.read` answered. */
export function stampOf(value: Value, url: string, elapsedMs: number): string {
  const row = Array.isArray(value) && value.length === 1 ? value[0] : undefined;
  const stamp = row !== undefined && isStruct(row) ? row.get('write_date') : undefined;
  if (typeof stamp !== 'string') throw upstreamError('upstream_invalid', 'upstream res.users.read answered no write_date', url, elapsedMs);
  return stamp;
}

/**
 * The errors `odoo/service/model.py` `retrying` runs a request again for (`PG_CONCURRENCY_EXCEPTIONS_TO_RETRY`
 * and `ConcurrencyError`): the transaction lost to a concurrent one and was rolled back whole.
 */
const concurrencyErrors = new Set([
  'psycopg2.errors.SerializationFailure',
  'psycopg2.errors.LockNotAvailable',
  'psycopg2.errors.DeadlockDetected',
  'odoo.exceptions.ConcurrencyError',
]);

/** True for Odoo's answer to a request whose transaction a concurrent one made it roll back (nothing of it stored). */
export function isRolledBackConflict(err: unknown): boolean {
  return err instanceof LegacyError && concurrencyErrors.has(err.name);
}

/** `MAX_TRIES_ON_CONCURRENCY_FAILURE`: the tries `retrying` gives a request. */
export const loginTries = 5;

/**
 * The wait before try `tryNo + 1`: random up to 100 ms × 2^(tryNo − 1) (`retrying` waits up to 2^tryNo s;
 * the transaction that won has committed by the time the loser is refused, so a short wait does).
 */
export function conflictWaitMs(tryNo: number, random: () => number = Math.random): number {
  return random() * 100 * 2 ** (tryNo - 1);
}

/** Resolves after `ms`, or rejects with the signal's own reason once it aborts (not Node's AbortError). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal }).catch(() => {
    throw signal.reason as Error;
  });
}

/** Creates the client on top of the upstream pool. */
export function createWebSessionClient(http: UpstreamHttp, config: Config): WebSessionClient {
  async function post(
    path: string,
    db: string,
    params: Struct,
    cookie: string | undefined,
    origin: CallOrigin,
    dbHeader = false,
    extra: Record<string, string> = {},
  ): Promise<{ res: UpstreamResponse; value: Value }> {
    const headers = { ...forwardedHeaders(config, origin, db), ...extra };
    headers['content-type'] = 'application/json';
    if (cookie !== undefined) headers.cookie = `session_id=${cookie}`;
    if (dbHeader) headers['x-odoo-database'] = db;
    const body = stringifyJson(struct({ jsonrpc: '2.0', method: 'call', params, id: null }));
    const res = await http.send({ method: 'POST', path, headers, body }, origin);
    if (res.status !== 200 || !res.contentType.startsWith('application/json')) throw errorFromAnswer(res, http.url, db, config.maxDepth);
    const envelope = jsonFromAnswer(res, http.url, config.maxDepth);
    if (!isStruct(envelope))
      throw upstreamError('upstream_invalid', `upstream ${path} answered a non-JSON-RPC body`, http.url, res.elapsedMs);
    const error = envelope.get('error');
    if (error !== undefined && isStruct(error)) {
      throw errorFromJsonRpc(
        error,
        upstreamError('upstream_invalid', `upstream ${path} answered an error without data`, http.url, res.elapsedMs),
      );
    }
    return { res, value: envelope.has('result') ? (envelope.get('result') as Value) : null };
  }

  return {
    async authenticate({ db, login, password, baseUrl }, origin) {
      let answer;
      const atRoot = baseUrl === undefined ? undefined : baseUrlHeaders(baseUrl);
      for (let tryNo = 1; ; tryNo++) {
        try {
          answer = await post('/web/session/authenticate', db, struct({ db, login, password }), undefined, origin, false, atRoot);
          break;
        } catch (err) {
          // A missing database (or one the dbfilter hides) is the legacy unknown-database fault.
          // Only Odoo's own unknown-database answers: any other psycopg2 error (a connection terminated
          // while a database is duplicated, PostgreSQL restarting) is passed on as what it is
          if (isUnknownDatabaseAnswer(err)) throw unknownDatabase(db);
          // rolled back for a concurrent login's write (module comment): what `retrying` would do
          if (!isRolledBackConflict(err) || tryNo >= loginTries) throw err;
          await pause(conflictWaitMs(tryNo), origin.signal);
        }
      }
      const uid = isStruct(answer.value) ? answer.value.get('uid') : undefined;
      const cookie = sessionIdFrom(answer.res.headers['set-cookie']);
      if (cookie === undefined || (uid !== null && (uid === undefined || !isInt(uid)))) {
        throw upstreamError(
          'upstream_invalid',
          'upstream /web/session/authenticate answered without a uid and a session',
          http.url,
          answer.res.elapsedMs,
        );
      }
      const stated = isStruct(answer.value) ? answer.value.get('web.base.url') : undefined;
      return { uid, session: { db, cookie }, baseUrl: typeof stated === 'string' && stated !== '' ? stated : undefined };
    },

    async callKw(session, call, origin) {
      const path = `/web/dataset/call_kw/${encodeURIComponent(call.model)}/${encodeURIComponent(call.method)}`;
      const params = struct({ model: call.model, method: call.method, args: call.args, kwargs: call.kwargs });
      const { res, value } = await post(path, session.db, params, session.cookie, origin);
      session.cookie = sessionIdFrom(res.headers['set-cookie']) ?? session.cookie;
      return value;
    },

    async destroy(session, origin) {
      await post('/web/session/destroy', session.db, new Map(), session.cookie, origin);
    },

    async check(session, origin) {
      // The database header too (Odoo accepts it when it names the session's own database): for a
      // session Odoo no longer has, it answers Session Expired instead of "No database is selected".
      const { res } = await post('/web/session/check', session.db, new Map(), session.cookie, origin, true);
      session.cookie = sessionIdFrom(res.headers['set-cookie']) ?? session.cookie;
    },

    async userStamp(session, uid, origin) {
      // the database header as for `check`: a session Odoo no longer has answers Session Expired
      const params = struct({ model: 'res.users', method: 'read', args: [[uid], ['write_date']], kwargs: new Map() });
      const { res, value } = await post('/web/dataset/call_kw/res.users/read', session.db, params, session.cookie, origin, true);
      session.cookie = sessionIdFrom(res.headers['set-cookie']) ?? session.cookie;
      return stampOf(value, http.url, res.elapsedMs);
    },
  };
}
