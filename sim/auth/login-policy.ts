/**
 * What Odoo decides around a password login besides the password itself:
 * - `res.users.authenticate`: a system user's interactive login stores the request's URL root as
 *   `web.base.url` unless `web.base.url.freeze` is set (`set_param` writes only a changed value);
 * - the second factor (auth_totp, auth_totp_mail): a user with TOTP, or one the `auth_totp.policy`
 *   parameter covers (`all_required`, or `employee_required` for internal users), gets no session
 *   from a password alone (`_mfa_url`), and RPC refuses that user's password (`_rpc_api_keys_only`).
 */
import { isSystem } from '../orm/access.ts';
import { configParameters, setParam } from '../orm/config-parameters.ts';
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

/** The `web.base.url` guess of `res.users.authenticate` after a successful interactive login. */
export function guessBaseUrl(env: Env, req: RequestHeaders, proxyMode: boolean, now: Date): void {
  if (!isSystem(env)) return;
  // `if not ICP.get_param('web.base.url.freeze')`: any non-empty text freezes it ("False" too)
  const freeze = configParameters(env.db).get('web.base.url.freeze');
  if (freeze !== undefined && freeze !== '') return;
  setParam(env.db, 'web.base.url', urlRoot(req, proxyMode), now);
}

/** `_mfa_type()` is set: a TOTP user, or one the `auth_totp.policy` parameter covers. */
export function needsSecondFactor(db: Database, login: string, internal: boolean, totpLogins: ReadonlySet<string>): boolean {
  if (totpLogins.has(login)) return true;
  const policy = configParameters(db).get('auth_totp.policy');
  return policy === 'all_required' || (policy === 'employee_required' && internal);
}
