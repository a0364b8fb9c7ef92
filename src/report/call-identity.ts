/**
 * Who a legacy call ran as, for the migration report: the database and the login its credentials
 * name — never the password. The login is shown as `login:` and a keyed hash of it (an HMAC under
 * `--state-secret`: the same on every replica and after a restart, and `legacy-rpc-gateway login-id`
 * tells an operator a known login's; no dictionary of logins reverses it without the secret, which
 * an unkeyed hash allowed; without a state secret, the key is this process's own), or as `uid:` and
 * the uid when a call names only a uid whose login the gateway has not seen yet.
 *
 * It listens to the credentials layer rather than reading call arguments itself: `callAs` (object
 * calls: database and uid), `authenticate` (`common.login`/`authenticate`: database and login) and
 * `rememberLogin` (a web login that passed through).
 */
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { callKey, type CallOrigin } from '../call.ts';
import type { Credentials } from '../credentials/index.ts';

/** A call's identity as the report keeps it. */
export interface CallIdentity {
  database: string;
  user: string;
}

/** The identity of a call, once its credentials were handed over. */
const callIdentity = callKey<CallIdentity | undefined>('call identity', undefined);

/** Logins remembered per (database, uid): enough for every user of a large fleet. */
const maxKnownLogins = 10_000;

/** The pseudonym key for `stateSecret` (`--state-secret`); without one, a key of this process. */
export function pseudonymKey(stateSecret: string | undefined): Buffer {
  if (stateSecret === undefined) return randomBytes(32);
  return Buffer.from(hkdfSync('sha256', Buffer.from(stateSecret, 'utf8'), 'legacy-rpc-gateway', 'report login pseudonyms v1', 32));
}

/** `login:` and the first 12 hex digits of the login's HMAC-SHA256 under `key` ({@link pseudonymKey}). */
export function keyedLoginId(login: string, key: Buffer): string {
  return `login:${createHmac('sha256', key).update(login, 'utf8').digest('hex').slice(0, 12)}`;
}

export interface IdentityTap {
  /** `credentials`, telling this tap each call's identity as it passes. */
  wrap(credentials: Credentials): Credentials;
  /** The identity of the call of `origin`, once its credentials were handed over. */
  of(origin: CallOrigin): CallIdentity | undefined;
  /** The identity of a call Odoo's own legacy endpoint served (`native`, `verify` routes). */
  note(origin: CallOrigin, db: string, who: { login: string } | { uid: number | bigint }): void;
  /**
   * The login in clear a pseudonym stands for, when this process saw it (`--report-show-logins`,
   * for the report on the admin port only); always undefined without `showLogins`.
   */
  loginOf(user: string): string | undefined;
}

/**
 * `stateSecret` (`--state-secret`) keys the pseudonyms; `showLogins` (`--report-show-logins`):
 * remember, in memory only, the login behind each pseudonym.
 */
export function createIdentityTap({
  stateSecret,
  showLogins = false,
}: { stateSecret?: string | undefined; showLogins?: boolean } = {}): IdentityTap {
  const key = pseudonymKey(stateSecret);
  const loginId = (login: string) => keyedLoginId(login, key);
  const logins = new LRUCache<string, string>({ max: maxKnownLogins });
  const uidKey = (db: string, uid: number | bigint) => `${db}\u0000${uid}`;
  // pseudonym → login, kept only when the operator asked to see logins in clear
  const clear = showLogins ? new LRUCache<string, string>({ max: maxKnownLogins }) : undefined;
  const pseudonym = (login: string): string => {
    const id = loginId(login);
    clear?.set(id, login);
    return id;
  };

  return {
    wrap(credentials) {
      return {
        probeDatabase: (db, origin) => credentials.probeDatabase(db, origin),
        settled: () => credentials.settled(),
        close: () => credentials.close(),
        callAs(db, uid, password, origin, call) {
          origin.values.set(callIdentity, { database: db, user: logins.get(uidKey(db, uid)) ?? `uid:${uid}` });
          return credentials.callAs(db, uid, password, origin, call);
        },
        async authenticate(db, login, password, origin) {
          origin.values.set(callIdentity, { database: db, user: pseudonym(login) });
          const uid = await credentials.authenticate(db, login, password, origin);
          if (uid !== false) logins.set(uidKey(db, uid), pseudonym(login));
          return uid;
        },
        rememberLogin(db, uid, login) {
          logins.set(uidKey(db, uid), pseudonym(login));
          credentials.rememberLogin(db, uid, login);
        },
        ...(credentials.knownLogin === undefined ? {} : { knownLogin: credentials.knownLogin.bind(credentials) }),
      };
    },
    of: (origin) => origin.values.get(callIdentity),
    loginOf: (user) => clear?.get(user),
    note(origin, db, who) {
      origin.values.set(callIdentity, {
        database: db,
        user: 'login' in who ? pseudonym(who.login) : (logins.get(uidKey(db, who.uid)) ?? `uid:${who.uid}`),
      });
    },
  };
}
