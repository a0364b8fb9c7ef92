/**
 * Legacy credentials → API key (docs/architecture.md §5), the front: it chooses the way. A password
 * shaped like an API key is passed through (step 1); any other goes to the password-key table, with
 * the credential map's entry when there is one (step 2), else to be traded for a key the gateway
 * mints (step 3, the key exchange). Object calls find the login of their uid first (step 4). Failed
 * logins are throttled (step 5).
 */
import type { Value } from '../value.ts';
import { callDatabase, type CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { accessDenied } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Upstream } from '../upstream/index.ts';
import { createApiKeyPasswords } from './api-key-passwords.ts';
import { createCredentialCache } from './cache.ts';
import { refuseLoneSurrogates } from './lone-surrogates.ts';
import { createCacheKeyer } from './cache-key.ts';
import { createCredentialMap, loadCredentialMap, type CredentialMap } from './credential-map.ts';
import { countedCache, countedThrottle, ignoredCredentialEvents, type CredentialEvents } from './events.ts';
import { createBaseUrls, type BaseUrls } from './base-urls.ts';
import { createKeyExchange, gatewayOrigin } from './key-exchange.ts';
import { createCountedLogin } from './login-attempts.ts';
import { createLoginFromElsewhere } from './login-elsewhere.ts';
import { openLoginsFile } from './login-file.ts';
import { isUnauthorized, looksLikeApiKey } from './passthrough.ts';
import { createPasswordKeys, type PasswordRequest, type SharedPasswordKeys } from './password-keys.ts';
import { probeDatabase } from './probe-database.ts';
import { badCredentials, isAnsweredFalse, isBadCredentials, isRefusal, isUnknownLogin } from './refusals.ts';
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
   * Runs `call` with the bearer key standing for (uid, password) in the call's database (its
   * {@link callDatabase}). A 401 evicts the cached key, resolves it once more (a minted key is
   * minted anew) and retries once (the method never ran on a 401). Throws LegacyError.
   */
  callAs<T>(uid: number | bigint, password: string, origin: CallOrigin, call: (key: string) => Promise<T>): Promise<T>;
  /** `common.authenticate` in the call's database: the uid, or `false` for credentials Odoo would refuse. */
  authenticate(login: string, password: string, origin: CallOrigin): Promise<number | bigint | false>;
  /**
   * Resolves when `targetDatabase` exists upstream; rejects with the legacy unknown-database fault.
   * Named, not read from the call: a `db` service call asks about the one its argument names.
   */
  probeDatabase(targetDatabase: string, origin: CallOrigin): Promise<void>;
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
  /**
   * Hears the `res.users/context_get` answer a key-shaped password was checked with (its database and
   * key): the caller's language, which the object service would otherwise ask for again.
   */
  onKeyContext?: (db: string, key: string, context: Value) => void;
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
    beforeCheck: (who, origin) => {
      return throttle.check(throttleKey(origin, who.login ?? apiKeyThrottleName(callDatabase(origin), who.uid as number | bigint)));
    },
    ...(options.onKeyContext === undefined ? {} : { onKeyContext: options.onKeyContext }),
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
  const baseUrls = options.baseUrls ?? createBaseUrls({ upstream, serviceKeys: config.serviceKey, upstreamUrl: config.upstream });
  // an IPv6 client is counted by its /64: it can use any address in it; per the call's database
  const throttleKey = (origin: CallOrigin, login: string) => cacheKey('throttle', throttleAddress(origin.ip), callDatabase(origin), login);

  const counted = createCountedLogin(throttle, throttleKey, log);
  const exchange = createKeyExchange({ config, upstream, log, now, events, map, baseUrls, counted });

  /**
   * The credentials' slot (computed once per call) and their way in the call's database: the
   * credential map's key, else a minted one. The request names its database: the key exchange
   * serves it beyond this call (renewal, retirement).
   */
  function passwordWay(login: string, password: string, origin: CallOrigin): { slot: string; req: PasswordRequest } {
    const db = callDatabase(origin);
    const mapped = map.find(db, login);
    const req: PasswordRequest = { login, password, origin, ...(mapped === undefined ? {} : { mapped }) };
    return { slot: cacheKey(db, 'password', login, password), req };
  }

  const loginFromElsewhere = createLoginFromElsewhere({
    config,
    upstream,
    log,
    now,
    logins,
    cacheKey,
    counted,
    baseUrls,
    ownOrigin: () => gatewayOrigin(config.callTimeoutMs),
  });

  const keys = createPasswordKeys(
    {
      max: config.keyCacheSize,
      now,
      negativeTtlMs: config.negativeCacheTtlMs,
      revalidateIntervalMs: config.revalidateIntervalMs,
      onLookup: (hit) => events.cacheLookup('password', hit),
      ...(shared === undefined ? {} : { shared: shared.passwordKeys, localTtlMs: shared.localTtlMs }),
    },
    exchange,
  );

  return {
    async callAs(uid, password, origin, call) {
      refuseLoneSurrogates(password);
      const db = callDatabase(origin);
      if (looksLikeApiKey(password)) {
        const key = throttleKey(origin, apiKeyThrottleName(db, uid));
        return apiKeys.callAs(uid, password, origin, call).then(
          async (out) => (await throttle.success(key), out),
          async (err: unknown) => {
            if (isBadCredentials(err)) await throttle.failure(key);
            throw err;
          },
        );
      }
      const login = await logins.resolve(uid, origin).catch(async (err: unknown) => {
        if (isRefusal(err)) await probeDatabase(upstream, db, origin); // Registry(db) opens first: an unknown database wins
        const confirmed = isUnknownLogin(err) ? await loginFromElsewhere(uid, password, origin) : undefined;
        if (confirmed !== undefined) return confirmed;
        throw err;
      });
      const { slot, req } = passwordWay(login, password, origin);
      // A key refused while it is being obtained (a 401 storm) is a refusal, never a fault 1.
      const entry = await keys.get(slot, req).catch(unauthorizedAsDenied);
      if (BigInt(entry.uid) !== BigInt(uid)) throw badCredentials();
      try {
        return await call(entry.key);
      } catch (err) {
        if (!isUnauthorized(err)) throw err;
        // revoked or expired upstream: resolve once more (a minted key is minted anew) and retry once
        await keys.evict(slot, entry);
        exchange.keyRefused(entry);
        log.info({ db, uid, keyId: entry.keyId, requestId: origin.requestId }, 'the upstream refused a cached key; resolving it again');
        const again = await keys.get(slot, req).catch(unauthorizedAsDenied);
        return await call(again.key).catch(unauthorizedAsDenied);
      }
    },

    probeDatabase: (targetDatabase, origin) => probeDatabase(upstream, targetDatabase, origin),

    rememberLogin: (db, uid, login) => logins.remember(db, uid, login),
    knownLogin: (db, uid) => logins.known(db, uid),

    async authenticate(login, password, origin) {
      const db = callDatabase(origin);
      refuseLoneSurrogates(login);
      refuseLoneSurrogates(password);
      const key = throttleKey(origin, login);
      try {
        let uid: number | bigint;
        if (looksLikeApiKey(password)) {
          uid = await apiKeys.authenticate(login, password, origin).then(
            async (out) => (await throttle.success(key), out),
            async (err: unknown) => {
              if (isBadCredentials(err)) await throttle.failure(key);
              throw err;
            },
          );
        } else {
          const { slot, req } = passwordWay(login, password, origin);
          uid = (await keys.get(slot, req)).uid;
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
