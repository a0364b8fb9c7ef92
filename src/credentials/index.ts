/**
 * Legacy credentials → API key (docs/architecture.md §5). A password shaped like an API key is passed through
 * (step 1); any other password is looked up in the credential map (step 2) or traded for a key the
 * gateway mints and keeps in memory until it renews or retires it (step 3). Object calls find the
 * login of their uid first (step 4). Failed logins are throttled (step 5).
 */
import { ownCallOrigin, type CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { accessDenied, LegacyError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { stampOf, type Upstream } from '../upstream/index.ts';
import { struct } from '../value.ts';
import { createApiKeyPasswords } from './api-key-passwords.ts';
import { createCredentialCache, createLru } from './cache.ts';
import { refuseLoneSurrogates } from './lone-surrogates.ts';
import { createCacheKeyer } from './cache-key.ts';
import { createCredentialMap, loadCredentialMap, type CredentialMap, type CredentialMapEntry } from './credential-map.ts';
import { createMintPacer, expiryOnGatewayClock } from './key-clock.ts';
import { createKeyMarks } from './key-marks.ts';
import { countedCache, countedThrottle, ignoredCredentialEvents, type CredentialEvents } from './events.ts';
import { createBaseUrls, type BaseUrls } from './base-urls.ts';
import { openLoginsFile } from './login-file.ts';
import { checkPassword, endSession, isClockBehind, keyName, madeAKey, mintKey, sweepKeys } from './minting.ts';
import { isUnauthorized, looksLikeApiKey, uidOfKey } from './passthrough.ts';
import { createPasswordKeys, type PasswordKey, type PasswordRequest, type SharedPasswordKeys } from './password-keys.ts';
import { probeDatabase } from './probe-database.ts';
import { loginStands } from './recheck-policy.ts';
import {
  badCredentials,
  isAnsweredFalse,
  isBadCredentials,
  isRefusal,
  isThrottled,
  isUnknownLogin,
  mapKeyRefused,
  mintHeldOff,
} from './refusals.ts';
import { createRetirer } from './retire.ts';
import { createThrottle, type SharedFailures } from './throttle.ts';
import { throttleAddress } from './throttle-address.ts';
import { createUidLogins, type LoginStore } from './uid-logins.ts';

export { isUnauthorized, looksLikeApiKey } from './passthrough.ts';
export { hashPassword } from './password-hash.ts';
export { createBaseUrls, type BaseUrls } from './base-urls.ts';
export type { CredentialCacheName, CredentialEvents, KeyExchangeOutcome } from './events.ts';
export type { PasswordKey, SharedPasswordKeys, SharedSlot } from './password-keys.ts';
export type { Failures, SharedFailures } from './throttle.ts';
export type { LoginStore } from './uid-logins.ts';

/** What replicas share (`--redis-url`): the stores, and the secret every replica names credential slots with. */
export interface SharedCredentials {
  passwordKeys: SharedPasswordKeys;
  logins: LoginStore;
  failures: SharedFailures;
  /** The HMAC secret of credential slots, the same on every replica. */
  slotSecret: Buffer;
  /** Milliseconds a replica uses its in-process copy of a shared key (`--redis-local-ttl`). */
  localTtlMs: number;
}

/** What the legacy services ask of the credentials layer (and the gateway's lifecycle hooks). */
export interface Credentials {
  /**
   * Runs `call` with the bearer key standing for (db, uid, password). A 401 evicts the cached key,
   * resolves it once more (a minted key is minted anew) and retries once (the method never ran on a
   * 401). Throws LegacyError.
   */
  callAs<T>(db: string, uid: number | bigint, password: string, origin: CallOrigin, call: (key: string) => Promise<T>): Promise<T>;
  /** `common.authenticate`: the uid, or `false` for credentials Odoo would refuse. */
  authenticate(db: string, login: string, password: string, origin: CallOrigin): Promise<number | bigint | false>;
  /** Resolves when `db` exists upstream; rejects with the legacy unknown-database fault. */
  probeDatabase(db: string, origin: CallOrigin): Promise<void>;
  /** Remembers a login the upstream confirmed for `uid` (a web login that passed through). */
  rememberLogin(db: string, uid: number | bigint, login: string): void;
  /** The login already known for `uid` in `db` (from a login seen before), without asking anyone. */
  knownLogin?(db: string, uid: number | bigint): string | undefined;
  /** Resolves once no key renewal runs in the background. */
  settled(): Promise<void>;
  /** Retires every minted key still alive (graceful shutdown); the credentials stay usable. */
  close(): Promise<void>;
}

/** What the gateway passes besides config and upstream. */
export interface CredentialsOptions {
  log: Logger;
  /** The clock for expiry, renewal, re-validation, negative caching and throttling (tests move it). */
  now?: () => number;
  /** Replaces the map read from `--credentials-file`. */
  map?: CredentialMap;
  /** Hears cache look-ups, key exchanges, retirements and throttled attempts (metrics). Default: nobody. */
  events?: CredentialEvents;
  /** State shared with the other replicas; absent: everything stays in this process. */
  shared?: SharedCredentials;
  /** The databases' base URLs, shared with the passthrough's web logins; absent: a table of its own. */
  baseUrls?: BaseUrls;
}

/** Odoo's answer to a request in a session that is over (logged out, or its password changed). */
function isSessionExpired(err: unknown): boolean {
  return err instanceof LegacyError && err.name === 'odoo.http.SessionExpiredException';
}

/** A bearer refusal reaching the client is Odoo's AccessDenied (fault 3). */
function unauthorizedAsDenied(err: unknown): never {
  throw isUnauthorized(err) ? accessDenied() : err;
}

/** Builds the credentials layer; throws when `--credentials-file` cannot be used. */
export function createCredentials(config: Config, upstream: Upstream, options: CredentialsOptions): Credentials {
  const { log } = options;
  const now = options.now ?? Date.now;
  const events = options.events ?? ignoredCredentialEvents;
  const { shared } = options;
  const cacheKey = createCacheKeyer(shared?.slotSecret);
  const map = options.map ?? (config.credentialsFile === undefined ? createCredentialMap([]) : loadCredentialMap(config.credentialsFile));
  const apiKeyCache = countedCache(createCredentialCache({ max: config.keyCacheSize, ttlMs: config.keyCacheTtlMs }), 'api_key', events);
  // without Redis, what the gateway learnt about logins outlives a restart in --logins-file
  const loginsFile = shared === undefined && config.loginsFile !== undefined ? openLoginsFile(config.loginsFile, log) : undefined;
  const loginStore = shared?.logins ?? loginsFile;
  const logins = createUidLogins({
    max: config.keyCacheSize,
    upstream,
    serviceKeys: config.serviceKey,
    map,
    ...(loginStore === undefined ? {} : { store: loginStore }),
  });
  /** Key-shaped passwords are throttled under the uid's login when known, else under the uid. */
  const apiKeyThrottleName = (db: string, uid: number | bigint) => logins.known(db, uid) ?? `#${uid}`;
  const apiKeys = createApiKeyPasswords({
    upstream,
    cache: apiKeyCache,
    authenticateCache: countedCache(
      createCredentialCache({ max: config.keyCacheSize, ttlMs: Math.min(config.keyCacheTtlMs, config.revalidateIntervalMs) }),
      'api_key',
      events,
    ),
    cacheKey,
    // the same throttle slot the failures below are counted in
    beforeCheck: (db, who, origin) =>
      throttle.check(throttleKey(origin, db, who.login ?? apiKeyThrottleName(db, who.uid as number | bigint))),
  });
  const throttle = countedThrottle(
    createThrottle({
      failures: config.throttleFailures,
      backoffMs: config.throttleBackoffMs,
      maxBackoffMs: config.throttleMaxBackoffMs,
      max: config.keyCacheSize,
      now,
      // a reservation whose replica died lapses once the login it stood for could no longer be running
      holdMs: config.callTimeoutMs + 5000,
      ...(shared === undefined ? {} : { shared: shared.failures }),
    }),
    events,
  );
  const retirer = createRetirer(upstream);
  const baseUrls = options.baseUrls ?? createBaseUrls({ upstream, serviceKeys: config.serviceKey, upstreamUrl: config.upstream });
  // an IPv6 client is counted by its /64: it can use any address in it
  const throttleKey = (origin: CallOrigin, db: string, login: string) => cacheKey('throttle', throttleAddress(origin.ip), db, login);

  /** The gateway's own requests (retirement at eviction or shutdown): short, so a dead upstream cannot hold a shutdown. */
  const ownOrigin = (): CallOrigin => ownCallOrigin('legacy-rpc-gateway', AbortSignal.timeout(Math.min(config.callTimeoutMs, 10_000)));

  /** Counts bad credentials against the throttle (a success clears it) and logs refusals an operator can act on. */
  async function counted<T>(req: PasswordRequest, run: () => Promise<T>): Promise<T> {
    const key = throttleKey(req.origin, req.db, req.login);
    // Only attempts that would log in upstream are throttled: a password already traded for a
    // cached key keeps working while a wrong one is refused (Odoo's cooldown spares it too). The
    // attempt is reserved before it goes upstream, so attempts in flight count.
    const attempt = await throttle.reserve(key);
    try {
      const out = await run();
      await attempt.settle('succeeded');
      return out;
    } catch (err) {
      const line = { db: req.db, clientIp: req.origin.ip, requestId: req.origin.requestId };
      if (isBadCredentials(err)) {
        await attempt.settle('failed');
        log.debug(line, 'login refused upstream');
      } else {
        await attempt.settle('abandoned');
        if (isRefusal(err)) log.warn({ ...line, login: req.login, reason: err.message }, 'could not trade a password for an API key');
      }
      throw err;
    }
  }

  /** A key minted inside its renewal margin (a 1-day key just before midnight) is used until it expires. */
  const renewAtFor = (expiresAt: number, mintedAt: number) =>
    expiresAt - config.keyRenewMarginMs > mintedAt ? expiresAt - config.keyRenewMarginMs : expiresAt;

  // the nonce in minted keys' names: only this gateway (its state secret, else this process) recognises them
  const keyMarks = createKeyMarks(config.stateSecret, config.keyTag);

  // --mint-interval: a mint storm is bounded whatever its cause
  const pacer = createMintPacer(config.mintIntervalMs, config.keyCacheSize, now);

  async function mint(req: PasswordRequest, retire?: PasswordKey): Promise<PasswordKey> {
    // the credential's slot name: a changed password is a new credential, minted at once
    const paced = cacheKey(req.db, 'password', req.login, req.password);
    const wait = pacer.wait(paced);
    if (wait > 0) {
      log.warn(
        { db: req.db, login: req.login, retryAfterMs: wait, requestId: req.origin.requestId },
        'keys were minted for these credentials within --mint-interval: not minting another yet',
      );
      throw mintHeldOff(wait);
    }
    const name = keyName(req.origin, keyMarks.nonce(req.db, req.login), config.keyTag);
    const mintedAt = now();
    const exchange = retire === undefined ? 'mint' : 'renew';
    const minted = await mintKey(
      upstream,
      {
        db: req.db,
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
        if (madeAKey(err)) pacer.minted(paced);
        if (isClockBehind(err)) log.warn({ db: req.db, login: req.login, requestId: req.origin.requestId }, err.message);
        throw err;
      },
    );
    pacer.minted(paced);
    // Odoo expires the key by its clock: the expiry on the gateway's
    const localExpiry = expiryOnGatewayClock(minted.expiresAt, minted.createdAt, mintedAt);
    const expiresAt = Number.isFinite(minted.expiresAt) ? new Date(minted.expiresAt).toISOString() : 'never';
    const skew = localExpiry === minted.expiresAt ? {} : { clockSkewMs: localExpiry - minted.expiresAt };
    log.info(
      {
        db: req.db,
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
      db: req.db,
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
    const uid = await uidOfKey(upstream, req.db, entry.key, req.origin);
    if (uid === undefined) {
      log.warn({ db: req.db, login: req.login }, 'the credential map holds a key Odoo refuses');
      throw mapKeyRefused();
    }
    const infinite = Number.POSITIVE_INFINITY;
    return {
      db: req.db,
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

  /** Users (db, uid) one of whose live minted keys Odoo refused: this process removes none of their keys. */
  const keysTakenAway = new Set<string>();

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
  async function loginFromElsewhere(db: string, uid: number | bigint, password: string, origin: CallOrigin): Promise<string | undefined> {
    const tried = (login: string) => cacheKey('elsewhere', db, String(uid), login);
    const candidates = (await logins.elsewhere(db, uid)).filter((login) => (notTheirs.get(tried(login))?.until ?? 0) <= now());
    if (candidates.length === 0) return undefined;
    const turn = cacheKey('elsewhere-turn', db, String(uid));
    const index = (nextCandidate.get(turn)?.next ?? 0) % candidates.length;
    nextCandidate.set(turn, { next: index + 1 });
    const login = candidates[index]!;
    let opened;
    try {
      opened = await counted({ db, login, password, origin }, () => checkPassword(upstream, { db, login, password }, origin, baseUrls));
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
  }

  const keys = createPasswordKeys(
    {
      max: config.keyCacheSize,
      now,
      negativeTtlMs: config.negativeCacheTtlMs,
      revalidateIntervalMs: config.revalidateIntervalMs,
      onLookup: (hit) => events.cacheLookup('password', hit),
      ...(shared === undefined ? {} : { shared: shared.passwordKeys, localTtlMs: shared.localTtlMs }),
    },
    {
      resolve: (req) =>
        counted(req, () => {
          const entry = map.find(req.db, req.login);
          return entry === undefined ? mint(req) : fromMap(entry, req);
        }),
      // Never through the client's throttle: what a client does with its own attempts
      // must not decide whether a changed password is noticed.
      async revalidate(entry, req) {
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
        const { uid, session } = await checkPassword(upstream, req, req.origin, baseUrls);
        if (open !== undefined) void endSession(upstream, open, ownOrigin()); // still open: logged out once replaced
        entry.session = session;
        entry.loggedInAt = loggedInAt;
        entry.userStamp = stamp;
        if (BigInt(uid) !== BigInt(entry.uid)) throw badCredentials();
        return 'logged-in';
      },
      renew: (entry, req) => mint(req, entry),
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
    },
  );

  return {
    async callAs(db, uid, password, origin, call) {
      refuseLoneSurrogates(password);
      if (looksLikeApiKey(password)) {
        const key = throttleKey(origin, db, apiKeyThrottleName(db, uid));
        return apiKeys.callAs(db, uid, password, origin, call).then(
          async (out) => (await throttle.success(key), out),
          async (err: unknown) => {
            if (isBadCredentials(err)) await throttle.failure(key);
            throw err;
          },
        );
      }
      const login = await logins.resolve(db, uid, origin).catch(async (err: unknown) => {
        if (isRefusal(err)) await probeDatabase(upstream, db, origin); // Registry(db) opens first: an unknown database wins
        const confirmed = isUnknownLogin(err) ? await loginFromElsewhere(db, uid, password, origin) : undefined;
        if (confirmed !== undefined) return confirmed;
        throw err;
      });
      const slot = cacheKey(db, 'password', login, password);
      const req: PasswordRequest = { db, login, password, origin };
      // A key refused while it is being obtained (a 401 storm) is a refusal, never a fault 1.
      const entry = await keys.get(slot, req).catch(unauthorizedAsDenied);
      if (BigInt(entry.uid) !== BigInt(uid)) throw badCredentials();
      try {
        return await call(entry.key);
      } catch (err) {
        if (!isUnauthorized(err)) throw err;
        // revoked or expired upstream: resolve once more (a minted key is minted anew) and retry once
        await keys.evict(slot, entry);
        // a live minted key removed by someone else: maybe another gateway without its own --key-tag
        // (or a previous version during a rolling restart) removing older keys; this process then
        // removes none of the user's, so the two do not take each other's keys away in turn
        if (entry.source === 'minted' && entry.expiresAt > now()) {
          if (keysTakenAway.size >= config.keyCacheSize) keysTakenAway.clear(); // bounded: at worst, removal resumes
          keysTakenAway.add(`${db}\u0000${entry.uid}`);
        }
        log.info({ db, uid, keyId: entry.keyId, requestId: origin.requestId }, 'the upstream refused a cached key; resolving it again');
        const again = await keys.get(slot, req).catch(unauthorizedAsDenied);
        return await call(again.key).catch(unauthorizedAsDenied);
      }
    },

    probeDatabase: (db, origin) => probeDatabase(upstream, db, origin),

    rememberLogin: (db, uid, login) => logins.remember(db, uid, login),
    knownLogin: (db, uid) => logins.known(db, uid),

    async authenticate(db, login, password, origin) {
      refuseLoneSurrogates(login);
      refuseLoneSurrogates(password);
      const key = throttleKey(origin, db, login);
      try {
        let uid: number | bigint;
        if (looksLikeApiKey(password)) {
          uid = await apiKeys.authenticate(db, login, password, origin).then(
            async (out) => (await throttle.success(key), out),
            async (err: unknown) => {
              if (isBadCredentials(err)) await throttle.failure(key);
              throw err;
            },
          );
        } else {
          uid = (await keys.get(cacheKey(db, 'password', login, password), { db, login, password, origin })).uid;
        }
        logins.remember(db, uid, login);
        return uid;
      } catch (err) {
        if (isAnsweredFalse(err)) return false;
        throw err;
      }
    },

    settled: () => keys.settled(),
    async close() {
      await keys.close();
      await loginsFile?.flush();
    },
  };
}
