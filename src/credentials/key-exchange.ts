/**
 * The key exchange (docs/architecture.md §5 steps 2, 3): what the password-key table does upstream
 * for one credential. It obtains the key (the credential map's, else one it mints through a web
 * session), checks the password behind it again, renews it, retires it, and removes the user's
 * earlier gateway keys while the password is in hand. The table (`password-keys.ts`) decides when
 * each runs; nothing here calls it back.
 */
import { callDatabase, ownCallOrigin, type CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { LegacyError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { stampOf, type Upstream } from '../upstream/index.ts';
import { struct } from '../value.ts';
import type { BaseUrls } from './base-urls.ts';
import type { CredentialMap, CredentialMapEntry } from './credential-map.ts';
import type { CredentialEvents } from './events.ts';
import { createMintPacer, expiryOnGatewayClock } from './key-clock.ts';
import { createKeyMarks } from './key-marks.ts';
import type { CountedLogin } from './login-attempts.ts';
import { endSession, isClockBehind, keyName, madeAKey, mintKey, passwordLogin, sweepKeys } from './minting.ts';
import { uidOfKey } from './passthrough.ts';
import type { KeyExchange, PasswordKey, PasswordRequest } from './password-key-types.ts';
import { loginStands } from './recheck-policy.ts';
import { badCredentials, isRefusal, mapKeyRefused, mintHeldOff } from './refusals.ts';
import { createRetirer } from './retire.ts';

/** What the exchange works with. */
export interface KeyExchangeDeps {
  config: Config;
  upstream: Upstream;
  log: Logger;
  now: () => number;
  events: CredentialEvents;
  map: CredentialMap;
  baseUrls: BaseUrls;
  /** First resolutions are counted against the client's throttle (re-checks and renewals never are). */
  counted: CountedLogin;
}

/** The exchange, and what the front tells it of keys the upstream refused. */
export interface GatewayKeyExchange extends KeyExchange {
  /** The upstream refused `entry`'s key (401): a live minted one was removed by someone else. */
  keyRefused(entry: PasswordKey): void;
}

/** The gateway's own requests (retirement, logouts): short, so a dead upstream cannot hold a shutdown. */
export function gatewayOrigin(callTimeoutMs: number): CallOrigin {
  return ownCallOrigin('legacy-rpc-gateway', AbortSignal.timeout(Math.min(callTimeoutMs, 10_000)));
}

/** Odoo's answer to a request in a session that is over (logged out, or its password changed). */
function isSessionExpired(err: unknown): boolean {
  return err instanceof LegacyError && err.name === 'odoo.http.SessionExpiredException';
}

/** Creates the exchange. */
export function createKeyExchange(deps: KeyExchangeDeps): GatewayKeyExchange {
  const { config, upstream, log, now, events, map, baseUrls, counted } = deps;
  const retirer = createRetirer(upstream);
  const ownOrigin = () => gatewayOrigin(config.callTimeoutMs);

  /** A key minted inside its renewal margin (a 1-day key just before midnight) is used until it expires. */
  const renewAtFor = (expiresAt: number, mintedAt: number) =>
    expiresAt - config.keyRenewMarginMs > mintedAt ? expiresAt - config.keyRenewMarginMs : expiresAt;

  // the nonce in minted keys' names: only this gateway (its state secret, else this process) recognises them
  const keyMarks = createKeyMarks(config.stateSecret, config.keyTag);

  // --mint-interval: a mint storm is bounded whatever its cause
  const pacer = createMintPacer(config.mintIntervalMs, config.keyCacheSize, now);

  /** Users (db, uid) one of whose live minted keys Odoo refused: this process removes none of their keys. */
  const keysTakenAway = new Set<string>();

  /** `slot` names the credential: a changed password is a new credential, minted at once. */
  async function mint(slot: string, req: PasswordRequest, retire?: PasswordKey): Promise<PasswordKey> {
    const db = callDatabase(req.origin);
    const wait = pacer.wait(slot);
    if (wait > 0) {
      log.warn(
        { db, login: req.login, retryAfterMs: wait, requestId: req.origin.requestId },
        'keys were minted for these credentials within --mint-interval: not minting another yet',
      );
      throw mintHeldOff(wait);
    }
    const name = keyName(req.origin, keyMarks.nonce(db, req.login), config.keyTag);
    const mintedAt = now();
    const exchange = retire === undefined ? 'mint' : 'renew';
    const minted = await mintKey(
      upstream,
      {
        db,
        login: req.login,
        password: req.password,
        durationDays: config.keyDurationDays,
        name,
        ...(retire?.keyId === undefined ? {} : { retireKeyId: retire.keyId }),
      },
      req.origin,
      mintedAt,
      baseUrls,
    ).then(
      (out) => (events.keyExchange(exchange, 'ok'), out),
      (err: unknown) => {
        events.keyExchange(exchange, isRefusal(err) ? 'refused' : 'error');
        // a key made upstream and then refused (Odoo's clock behind) is a mint all the same: --mint-interval holds
        if (madeAKey(err)) pacer.minted(slot);
        if (isClockBehind(err)) log.warn({ db, login: req.login, requestId: req.origin.requestId }, err.message);
        throw err;
      },
    );
    pacer.minted(slot);
    // Odoo expires the key by its clock: the expiry on the gateway's
    const localExpiry = expiryOnGatewayClock(minted.expiresAt, minted.createdAt, mintedAt);
    const expiresAt = Number.isFinite(minted.expiresAt) ? new Date(minted.expiresAt).toISOString() : 'never';
    const skew = localExpiry === minted.expiresAt ? {} : { clockSkewMs: localExpiry - minted.expiresAt };
    log.info(
      {
        db,
        uid: minted.uid,
        keyId: minted.keyId,
        expiresAt,
        ...skew,
        requestId: req.origin.requestId,
        ...(retire === undefined ? {} : { replacedKeyId: retire.keyId }),
      },
      retire === undefined ? 'minted an API key' : 'renewed a minted API key',
    );
    return {
      db,
      uid: minted.uid,
      login: req.login,
      key: minted.key,
      source: 'minted',
      keyId: minted.keyId,
      expiresAt: localExpiry,
      renewAt: renewAtFor(localExpiry, mintedAt),
      validatedAt: mintedAt,
      session: minted.session,
      loggedInAt: mintedAt,
    };
  }

  async function fromMap(entry: CredentialMapEntry, req: PasswordRequest): Promise<PasswordKey> {
    if (!(await map.matches(entry, req.password))) throw badCredentials();
    const db = callDatabase(req.origin);
    const uid = await uidOfKey(upstream, entry.key, req.origin);
    if (uid === undefined) {
      log.warn({ db, login: req.login }, 'the credential map holds a key Odoo refuses');
      throw mapKeyRefused();
    }
    const infinite = Number.POSITIVE_INFINITY;
    return {
      db,
      uid,
      login: req.login,
      key: entry.key,
      source: 'map',
      keyId: undefined,
      expiresAt: now() + config.keyCacheTtlMs,
      renewAt: infinite,
      validatedAt: infinite,
    };
  }

  /**
   * The user's `write_date` read with the key itself over JSON-2 (no session, no cache Odoo could hold
   * stale); undefined where it cannot be read (the key is refused: the next check logs in again).
   */
  async function stampWithKey(entry: PasswordKey, origin: CallOrigin): Promise<string | undefined> {
    try {
      const body = struct({ ids: [entry.uid], fields: ['write_date'] });
      return stampOf(await upstream.json2({ db: entry.db, key: entry.key, model: 'res.users', method: 'read', body }, origin), '', 0);
    } catch {
      return undefined;
    }
  }

  return {
    obtain: (slot, req) => counted(req, () => (req.mapped === undefined ? mint(slot, req) : fromMap(req.mapped, req))),

    // Never through the client's throttle: what a client does with its own attempts
    // must not decide whether a changed password is noticed.
    async recheck(entry, req) {
      const stands = loginStands(entry, now(), config.loginRecheckIntervalMs);
      // the user's write_date, read before any fresh login below: its baseline for later checks
      let stamp: string | undefined;
      let open = entry.session;
      if (open !== undefined) {
        try {
          // Odoo ends a session whose user's password changed; checking it hashes nothing. But Odoo
          // 19.0 may answer it from a token cached inside the changing transaction (docs/security.md
          // "The session-check race"): it stands only with a write_date unchanged since the last login
          stamp = await upstream.webSession.userStamp(open, entry.uid, req.origin);
          if (stands && entry.userStamp !== undefined && stamp === entry.userStamp) return;
          // the user changed (maybe the password): no call is served until the login below decides
          if (entry.userStamp !== undefined && stamp !== entry.userStamp) entry.validatedAt = Number.NEGATIVE_INFINITY;
        } catch (err) {
          if (!isSessionExpired(err)) throw err;
          open = undefined;
          entry.validatedAt = Number.NEGATIVE_INFINITY; // the session ended: maybe the password changed
        }
      }
      // no session, it ended (password changed, or Odoo dropped it), the user changed, no baseline
      // yet (a new key) or the last login is too old: one fresh login
      stamp ??= await stampWithKey(entry, req.origin);
      const loggedInAt = now();
      const { uid, session } = await passwordLogin(
        upstream,
        { db: callDatabase(req.origin), login: req.login, password: req.password },
        req.origin,
        baseUrls,
      );
      if (open !== undefined) void endSession(upstream, open, ownOrigin()); // still open: logged out once replaced
      entry.session = session;
      entry.loggedInAt = loggedInAt;
      entry.userStamp = stamp;
      if (BigInt(uid) !== BigInt(entry.uid)) throw badCredentials();
      return 'logged-in';
    },

    renew: (slot, entry, req) => mint(slot, req, entry),

    async retire(entry, why) {
      if (entry.session !== undefined) void endSession(upstream, entry.session, ownOrigin());
      if (entry.source !== 'minted' || entry.expiresAt <= now()) return;
      const outcome = await retirer.revoke(entry.db, entry.uid, entry.key, ownOrigin());
      events.retirement(outcome);
      const line = { db: entry.db, uid: entry.uid, keyId: entry.keyId, why };
      if (outcome === 'unavailable') log.info(line, 'minted API key left to expire (the upstream cannot revoke it)');
      else log.info(line, outcome === 'revoked' ? 'revoked a minted API key' : 'minted API key already gone');
    },

    // Odoo 19.0 removes a key only in its owner's session behind the identity check: done while the
    // password is in hand, so the keys a previous run (or an eviction) left behind go at the next login
    async tidy(entry, req) {
      if (entry.keyId === undefined || entry.session === undefined || keysTakenAway.has(`${entry.db}\u0000${entry.uid}`)) return;
      const line = { db: entry.db, uid: entry.uid, keptKeyId: entry.keyId };
      try {
        const removed = await sweepKeys(
          upstream,
          entry.session,
          {
            uid: entry.uid,
            keepKeyId: entry.keyId,
            password: req.password,
            tag: config.keyTag,
            owns: (nonce) => keyMarks.owns(entry.db, req.login, nonce),
          },
          ownOrigin(),
        );
        if (removed.length > 0) log.info({ ...line, removedKeyIds: removed }, "removed this gateway's earlier API keys of the user");
      } catch (err) {
        log.warn(
          { ...line, error: err instanceof Error ? err.name : 'unknown' },
          "could not remove this gateway's earlier API keys of the user; they expire on their own",
        );
      }
    },

    renewalFailed(entry, err) {
      log.warn(
        { db: entry.db, uid: entry.uid, keyId: entry.keyId, error: err instanceof Error ? err.name : 'unknown' },
        'could not renew a minted API key; the old one is used until it expires',
      );
    },

    keyRefused(entry) {
      // a live minted key removed by someone else: maybe another gateway without its own --key-tag
      // (or a previous version during a rolling restart) removing older keys; this process then
      // removes none of the user's, so the two do not take each other's keys away in turn
      if (entry.source !== 'minted' || entry.expiresAt <= now()) return;
      if (keysTakenAway.size >= config.keyCacheSize) keysTakenAway.clear(); // bounded: at worst, removal resumes
      keysTakenAway.add(`${entry.db}\u0000${entry.uid}`);
    },
  };
}
