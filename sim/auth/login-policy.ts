/**
 * What Odoo decides around a password login besides the password itself:
 * - `res.users.authenticate`: a system user's interactive login stores the request's URL root as
 *   `web.base.url` unless `web.base.url.freeze` is set (`set_param` writes only a changed value, as
 *   the login's transaction sees it: its snapshot, taken when it starts). Odoo runs it under
 *   REPEATABLE READ, where updating a row another transaction changed and committed since that
 *   snapshot fails (`SerializationFailure`) and the whole login is rolled back: two such logins at
 *   once, both seeing the old value, both write it, and the later one is refused;
 * - the second factor (auth_totp, auth_totp_mail): a user with TOTP, or one the `auth_totp.policy`
 *   parameter covers (`all_required`, or `employee_required` for internal users), gets no session
 *   from a password alone (`_mfa_url`), and RPC refuses that user's password (`_rpc_api_keys_only`).
 */
import { isSystem } from '../orm/access.ts';
import { configParameters, parameterVersion, setParam } from '../orm/config-parameters.ts';
import { OdooError } from '../errors.ts';
import type { Database } from '../orm/database.ts';
import type { Env } from '../orm/env.ts';

/** What a login reads of its HTTP request: the headers, with lower-cased names. */
export interface RequestHeaders {
  headers: Record<string, string>;
}

/**
 * `request.httprequest.url_root` without its trailing slash: the plain-HTTP scheme and the Host
 * header; with `proxy_mode`, a request carrying X-Forwarded-Host goes through werkzeug's ProxyFix
 * (x_proto, x_host), which takes X-Forwarded-Proto and X-Forwarded-Host instead.
 */
export function urlRoot(req: RequestHeaders, proxyMode: boolean): string {
  const forwardedHost = req.headers['x-forwarded-host'];
  if (proxyMode && forwardedHost !== undefined && forwardedHost !== '') {
    const proto = (req.headers['x-forwarded-proto'] ?? 'http').split(',')[0]?.trim() || 'http';
    return `${proto}://${forwardedHost.split(',')[0]?.trim()}`;
  }
  return `http://${req.headers.host ?? ''}`;
}

/** What a login's transaction sees of the base URL parameters: their values and versions when it started. */
export interface BaseUrlSnapshot {
  value: string | undefined;
  freeze: string | undefined;
  version: number;
}

/** The snapshot a login takes when its transaction starts (its first query: the user's search). */
export function baseUrlSnapshot(db: Database): BaseUrlSnapshot {
  const params = configParameters(db);
  return { value: params.get('web.base.url'), freeze: params.get('web.base.url.freeze'), version: parameterVersion(db, 'web.base.url') };
}

/** PostgreSQL's refusal of an update to a row a concurrent transaction changed since this one's snapshot. */
export function serializationFailure(): OdooError {
  return new OdooError('psycopg2.errors.SerializationFailure', 'could not serialize access due to concurrent update\n', 500);
}

/**
 * The `web.base.url` guess of `res.users.authenticate` after a successful interactive login, decided
 * on what the login's transaction saw (`seen`, default: now). Throws {@link serializationFailure}
 * when it writes a parameter another login wrote since `seen`.
 */
export function guessBaseUrl(env: Env, req: RequestHeaders, proxyMode: boolean, now: Date, seen = baseUrlSnapshot(env.db)): void {
  if (!isSystem(env)) return;
  // `if not ICP.get_param('web.base.url.freeze')`: any non-empty text freezes it ("False" too)
  if (seen.freeze !== undefined && seen.freeze !== '') return;
  const root = urlRoot(req, proxyMode);
  if (seen.value === root) return; // set_param: the value it reads is the one it would write
  if (parameterVersion(env.db, 'web.base.url') !== seen.version) throw serializationFailure();
  setParam(env.db, 'web.base.url', root, now);
}

/** `_mfa_type()` is set: a TOTP user, or one the `auth_totp.policy` parameter covers. */
export function needsSecondFactor(db: Database, login: string, internal: boolean, totpLogins: ReadonlySet<string>): boolean {
  if (totpLogins.has(login)) return true;
  const policy = configParameters(db).get('auth_totp.policy');
  return policy === 'all_required' || (policy === 'employee_required' && internal);
}
