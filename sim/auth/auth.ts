/**
 * `auth='bearer'` (Odoo: `odoo/addons/base/models/ir_http.py` `_auth_method_bearer`, `ir_http._auth_method_bearer`): the `Authorization`
 * header must match `^bearer\s+(.+)$` case-insensitively and carry a stored, unexpired global/`rpc` key of an active user; passwords are
 * never accepted. Failures are 401 with `WWW-Authenticate: Bearer `.
 */
import type { Database } from '../orm/database.ts';
import { unauthorized } from '../errors.ts';
import type { KeyStore } from './key-store.ts';

const bearerPattern = /^bearer\s+(.+)$/i;

/** The uid of a bearer header; throws werkzeug Unauthorized with Odoo's two messages. */
export function authenticateBearer(header: string | undefined, keys: KeyStore, db: Database): number {
  const match = header === undefined ? null : bearerPattern.exec(header);
  if (match === null) throw unauthorized('User not authenticated, use an API Key with a Bearer Authorization header.');
  const uid = keys.check(match[1] as string, 'rpc', db.name);
  const user = uid === undefined ? undefined : db.model('res.users')?.get(uid);
  if (uid === undefined || user?.v.active !== true) throw unauthorized('Invalid apikey');
  return uid;
}
