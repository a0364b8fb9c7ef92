/**
 * What the credentials layer reports for metrics: cache look-ups, key exchanges, retirements and
 * throttled attempts. Counts only: never a login, a key or a password.
 */
import type { CredentialCache } from './cache.ts';
import type { RetireOutcome } from './retire.ts';
import type { Throttle } from './throttle.ts';

/** The credential caches: API keys sent as passwords, and passwords traded for keys. */
export type CredentialCacheName = 'api_key' | 'password';

/** How a key exchange (a mint or a renewal over the web session) ended. */
export type KeyExchangeOutcome = 'ok' | 'refused' | 'error';

/** The observer the gateway passes to `createCredentials` (metrics); every member is a counter. */
export interface CredentialEvents {
  /** A credential was looked up: `hit` when no upstream check or exchange had to start for it. */
  cacheLookup(cache: CredentialCacheName, hit: boolean): void;
  /** A password was traded for a key (`mint`) or a key replaced before expiry (`renew`). */
  keyExchange(kind: 'mint' | 'renew', outcome: KeyExchangeOutcome): void;
  /** A minted key left the cache alive and was revoked, found gone, or left to expire. */
  retirement(outcome: RetireOutcome): void;
  /** A login attempt was refused locally by the throttle. */
  throttled(): void;
}

/** Events nobody listens to (the default). */
export const ignoredCredentialEvents: CredentialEvents = {
  cacheLookup: () => undefined,
  keyExchange: () => undefined,
  retirement: () => undefined,
  throttled: () => undefined,
};

/**
 * `cache` reporting each `resolve` as a hit or a miss: a miss when it had to start `check` (a
 * caller joining a check in flight counts as a hit: it caused no upstream request).
 */
export function countedCache(cache: CredentialCache, name: CredentialCacheName, events: CredentialEvents): CredentialCache {
  return {
    resolve(cacheKey, check) {
      let missed = false;
      const pending = cache.resolve(cacheKey, () => {
        missed = true;
        return check();
      });
      events.cacheLookup(name, !missed);
      return pending;
    },
    evict: (cacheKey) => cache.evict(cacheKey),
    get size() {
      return cache.size;
    },
  };
}

/** `throttle` reporting each attempt it refuses. */
export function countedThrottle(throttle: Throttle, events: CredentialEvents): Throttle {
  return {
    async check(key) {
      try {
        await throttle.check(key);
      } catch (err) {
        events.throttled();
        throw err;
      }
    },
    async reserve(key) {
      try {
        return await throttle.reserve(key);
      } catch (err) {
        events.throttled();
        throw err;
      }
    },
    failure: (key) => throttle.failure(key),
    success: (key) => throttle.success(key),
  };
}
