/**
 * A uid's login found in another database (docs/architecture.md §5 step 4): for a uid-only call
 * whose login in this database is unknown, the logins the uid has in the upstream's other databases
 * are tried, one per call, with a login here.
 */
import { callDatabase, type CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Upstream } from '../upstream/index.ts';
import type { BaseUrls } from './base-urls.ts';
import { createLru } from './cache.ts';
import type { CountedLogin } from './login-attempts.ts';
import { endSession, passwordLogin } from './minting.ts';
import { isBadCredentials, isThrottled } from './refusals.ts';
import type { UidLogins } from './uid-logins.ts';

/** Answers a confirmed login of `uid` in the call's database ({@link callDatabase}), or undefined. */
export type LoginFromElsewhere = (uid: number | bigint, password: string, origin: CallOrigin) => Promise<string | undefined>;

/** What the search works with. */
export interface LoginFromElsewhereDeps {
  config: Config;
  upstream: Upstream;
  log: Logger;
  now: () => number;
  logins: UidLogins;
  cacheKey: (...parts: string[]) => string;
  /** The login tried is an attempt like any other, counted against the client's throttle. */
  counted: CountedLogin;
  baseUrls: BaseUrls;
  /** The origin of the gateway's own requests (the logout after the login tried). */
  ownOrigin: () => CallOrigin;
}

/** Creates the search with its memory of logins that turned out to be another user's. */
export function createLoginFromElsewhere(deps: LoginFromElsewhereDeps): LoginFromElsewhere {
  const { config, upstream, log, now, logins, cacheKey, counted, baseUrls, ownOrigin } = deps;

  /** (db, uid, login) whose login turned out to be another user's in db: not tried again for a while (no login per call). */
  const notTheirs = createLru<{ until: number }>({ max: config.keyCacheSize });

  /** Per (db, uid): which candidate login the next uid-only call tries (one per call, in turn). */
  const nextCandidate = createLru<{ next: number }>({ max: config.keyCacheSize });

  /**
   * A uid-only call where the uid's login in `db` is unknown: the logins the uid has in other
   * databases of the upstream are candidates, and each call tries one of them, in turn, with one
   * login in `db` (through the throttle, like any login attempt); it is used only when that login
   * answers the same uid, and then remembered for `db`. So a guessed password costs one upstream
   * login at most, and a guess that fails (wrong password, throttled, Odoo's cooldown) gets the same
   * fault as a uid seen nowhere: the fault tells nothing of the other databases. Undefined when the
   * tried candidate is not confirmed.
   */
  return async (uid, password, origin) => {
    const db = callDatabase(origin);
    const tried = (login: string) => cacheKey('elsewhere', db, String(uid), login);
    const candidates = (await logins.elsewhere(db, uid)).filter((login) => (notTheirs.get(tried(login))?.until ?? 0) <= now());
    if (candidates.length === 0) return undefined;
    const turn = cacheKey('elsewhere-turn', db, String(uid));
    const index = (nextCandidate.get(turn)?.next ?? 0) % candidates.length;
    nextCandidate.set(turn, { next: index + 1 });
    const login = candidates[index]!;
    let opened;
    try {
      opened = await counted({ login, origin }, () => passwordLogin(upstream, { db, login, password }, origin, baseUrls));
    } catch (err) {
      // not this login's password here, or attempts held off: no hint that a candidate existed
      if (isBadCredentials(err) || isThrottled(err)) return undefined;
      throw err;
    }
    void endSession(upstream, opened.session, ownOrigin());
    if (BigInt(opened.uid) !== BigInt(uid)) {
      // a fact whatever the password: the login is another user's here (logins are unique per database)
      logins.remember(db, opened.uid, login);
      notTheirs.set(tried(login), { until: now() + Math.max(config.negativeCacheTtlMs, 60_000) });
      log.info({ db, uid, requestId: origin.requestId }, 'a login the uid has in another database belongs to another user here; not used');
      return undefined;
    }
    logins.remember(db, uid, login);
    log.info({ db, uid, requestId: origin.requestId }, 'confirmed the login a uid has in another database for this one');
    return login;
  };
}
