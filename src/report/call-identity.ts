/**
 * Who a legacy call ran as, for the migration report: the database and the login its credentials
 * name — never the password. The login is shown as `login:` and a keyed hash of it (an HMAC under
 * `--state-secret`: the same on every replica and after a restart, and `legacy-rpc-gateway login-id`
 * tells an operator a known login's; no dictionary of logins reverses it without the secret, which
 * an unkeyed hash allowed; without a state secret, the key is this process's own), or as `uid:` and
 * the uid when a call names only a uid whose login the gateway has not seen yet.
 *
 * It reads who a call named from the call itself ({@link callCaller}, set by the legacy services:
 * database and uid for `object`, database and login for `common.login`/`authenticate`) and learns
 * each uid's login from the logins that succeeded and the web logins that passed through.
 */
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { callCaller, type CallOrigin } from '../call.ts';

/** A call's identity as the report keeps it. */
export interface CallIdentity {
  database: string;
  user: string;
}

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

export interface CallIdentities {
  /** The identity of the call of `origin`, from the caller its legacy service named ({@link callCaller}). */
  of(origin: CallOrigin): CallIdentity | undefined;
  /** A login Odoo accepted outside a legacy call (a web login passed through): its uid is named by it from now on. */
  learn(db: string, uid: number | bigint, login: string): void;
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
export function createCallIdentities({
  stateSecret,
  showLogins = false,
}: { stateSecret?: string | undefined; showLogins?: boolean } = {}): CallIdentities {
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
    of(origin) {
      const caller = origin.values.get(callCaller);
      if (caller === undefined) return undefined;
      const { database, login, uid } = caller;
      if (login !== undefined) {
        const user = pseudonym(login);
        // a login that succeeded names its uid's later calls
        if (uid !== undefined) logins.set(uidKey(database, uid), user);
        return { database, user };
      }
      if (uid === undefined) return undefined;
      return { database, user: logins.get(uidKey(database, uid)) ?? `uid:${uid}` };
    },
    learn: (db, uid, login) => void logins.set(uidKey(db, uid), pseudonym(login)),
    loginOf: (user) => clear?.get(user),
  };
}
