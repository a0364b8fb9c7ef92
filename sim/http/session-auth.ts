/**
 * Sessions on the HTTP side of every route (Odoo: `odoo/http.py` `_get_session_and_dbname`, `odoo/addons/base/models/ir_http.py`
 * `_auth_method_bearer`): which database a request runs in when it carries a `session_id` cookie (a different `X-Odoo-Database` is a 403
 * page), and how JSON-2 accepts a cookie session besides a bearer key — only with the browser's four `Sec-Fetch-*` navigation headers, and
 * never for a key of another user than the session's.
 */
import { authenticateBearer } from '../auth/auth.ts';
import type { Database } from '../orm/database.ts';
import { OdooError, unauthorized } from '../errors.ts';
import { htmlResponse, type SimRequest, type SimResponse } from './http-types.ts';
import { werkzeugPage } from './html-pages.ts';
import type { KeyStore } from '../auth/key-store.ts';
import { throwawaySession, type SessionStore, type SimSession } from '../auth/sessions.ts';

/** What the lookup needs from the running simulator. */
export interface SessionLookupState {
  databases: Map<string, Database>;
  sessions: SessionStore;
}

/** The cookie's session and the request's database (`_get_session_and_dbname`), or the 403 page. */
export function sessionAndDatabase(
  state: SessionLookupState,
  req: SimRequest,
): { session: SimSession | undefined; db: Database | undefined } | SimResponse {
  const session = state.sessions.fromCookie(req.headers.cookie);
  const header = req.headers['x-odoo-database'];
  if (session?.db !== undefined) {
    if (header !== undefined && header !== '' && header !== session.db) {
      return htmlResponse(403, werkzeugPage(403, 'Cannot use both the session_id cookie and the x-odoo-database header.'));
    }
    return { session, db: state.databases.get(session.db) };
  }
  if (header !== undefined && header !== '') return { session, db: state.databases.get(header) };
  return { session, db: state.databases.size === 1 ? [...state.databases.values()][0] : undefined };
}

/** The CSRF heuristic of `_auth_method_bearer` for top-level browser navigation. */
function isInteractive(headers: Record<string, string>): boolean {
  return (
    headers['sec-fetch-dest'] === 'document' &&
    headers['sec-fetch-mode'] === 'navigate' &&
    ['none', 'same-origin'].includes(headers['sec-fetch-site'] ?? '') &&
    headers['sec-fetch-user'] === '?1'
  );
}

/**
 * `auth='bearer'`: the user of the bearer key (the session is then not saved, so a throwaway one is
 * returned), else the cookie session's user for interactive requests. Throws Odoo's 401s and 403.
 */
export function authenticateJson2(
  req: SimRequest,
  keys: KeyStore,
  db: Database,
  session: SimSession | undefined,
): { uid: number; session: SimSession } {
  const loggedIn = session?.uid !== undefined && session.db === db.name ? session : undefined;
  const header = req.headers.authorization;
  if (loggedIn !== undefined && (header === undefined || !/^bearer\s+(.+)$/i.test(header))) {
    if (isInteractive(req.headers)) return { uid: loggedIn.uid as number, session: loggedIn };
    throw unauthorized('Missing "Authorization" or Sec-headers for interactive usage.');
  }
  const uid = authenticateBearer(header, keys, db);
  if (loggedIn !== undefined && loggedIn.uid !== uid) {
    throw new OdooError('odoo.exceptions.AccessDenied', 'Session user does not match the used apikey.', 403);
  }
  return { uid, session: throwawaySession() };
}
