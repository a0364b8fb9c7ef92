/**
 * Web sessions (Odoo: `addons/web/controllers/session.py`, `odoo/http.py` Session): a `session_id` cookie naming an in-memory
 * session that holds the database, the logged-in user (or the user waiting for a second factor) and
 * `identity-check-last`. Logging in rotates the id; destroying logs out into a fresh anonymous one.
 */
import { randomBytes } from 'node:crypto';

/** `SESSION_LIFETIME`: 7 days, the cookie's Max-Age. */
export const sessionLifetimeSeconds = 7 * 24 * 3600;

/** One session. Bearer JSON-2 requests get a throwaway one (`session.can_save = False`). */
export interface SimSession {
  sid: string;
  /** The database the session is bound to (set by authenticate). */
  db: string | undefined;
  /** The logged-in user. */
  uid: number | undefined;
  /** A user whose password passed but whose second factor is still due (`pre_uid`). */
  preUid: number | undefined;
  /** `identity-check-last`: when the user last passed `res.users.identitycheck`, epoch ms. */
  identityCheckLast: number | undefined;
  /**
   * `session_token`: a digest of the user's session token fields (id, login, password hash, active)
   * taken at login; a session whose user no longer matches it is logged out (`check_session`).
   */
  token: string | undefined;
}

/** A session that is never saved (bearer requests, no cookie). */
export function throwawaySession(): SimSession {
  return { sid: '', db: undefined, uid: undefined, preUid: undefined, identityCheckLast: undefined, token: undefined };
}

/** `secrets.token_urlsafe`-like ids, as long as Odoo's (84 characters). */
function newSid(): string {
  return randomBytes(63).toString('base64url');
}

/** The sessions of one simulator, by id. */
export class SessionStore {
  #byId = new Map<string, SimSession>();

  /** A new anonymous session. */
  create(): SimSession {
    const session = { ...throwawaySession(), sid: newSid() };
    this.#byId.set(session.sid, session);
    return session;
  }

  /** The session a `Cookie` header names, if it exists. */
  fromCookie(header: string | undefined): SimSession | undefined {
    const sid = sessionIdFromCookie(header);
    return sid === undefined ? undefined : this.#byId.get(sid);
  }

  /** `session.should_rotate`: the same session under a new id (login). */
  rotate(session: SimSession): SimSession {
    this.#byId.delete(session.sid);
    const rotated = { ...session, sid: newSid() };
    this.#byId.set(rotated.sid, rotated);
    return rotated;
  }

  /** `session.logout()`: drops the session; the caller gets a fresh anonymous one. */
  destroy(session: SimSession): SimSession {
    this.#byId.delete(session.sid);
    return this.create();
  }

  /** Forgets every session (simulator reset). */
  clear(): void {
    this.#byId.clear();
    this.#staleTokens.clear();
  }

  /** The logged-in sessions of `uid` in `db`. */
  ofUser(db: string, uid: number): SimSession[] {
    return [...this.#byId.values()].filter((s) => s.db === db && s.uid === uid);
  }

  /**
   * `_compute_session_token` is ormcached on the sid (Odoo: `res_users.py`). The simulator computes
   * the token afresh at every check (a cache every write clears) except where the race below left
   * a stale one: what `check_session` expects for `sid`.
   */
  #staleTokens = new Map<string, string | undefined>();
  expectedToken(sid: string, compute: () => string | undefined): string | undefined {
    return this.#staleTokens.has(sid) ? this.#staleTokens.get(sid) : compute();
  }

  /** `registry.clear_cache()`: what a write to a session-token field does (inside its transaction). */
  clearTokenCache(): void {
    this.#staleTokens.clear();
  }

  /**
   * The race of Odoo 19.0: a write to a session-token field clears the ormcache inside its
   * transaction, before the commit; a `check_session` that runs in that window computes the token
   * from the committed (old) row and caches it, so the session stays valid after the commit.
   */
  cacheStaleToken(sid: string, token: string | undefined): void {
    this.#staleTokens.set(sid, token);
  }
}

/** The `session_id` value of a Cookie header. */
export function sessionIdFromCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === 'session_id' && value.length > 0) return value.join('=');
  }
  return undefined;
}

/** The Set-Cookie Odoo sends for a session (werkzeug's attribute order). */
export function sessionCookie(session: SimSession, now: Date): string {
  const expires = new Date(now.getTime() + sessionLifetimeSeconds * 1000).toUTCString();
  return `session_id=${session.sid}; Expires=${expires}; Max-Age=${sessionLifetimeSeconds}; HttpOnly; Path=/`;
}
