/**
 * The credential cache: which (db, user, password) triples were checked upstream and for which uid,
 * with single-flight so concurrent first calls share one check. Values hold no secret.
 */
import { LRUCache } from 'lru-cache';

export interface CheckedCredential {
  uid: number | bigint;
}

export interface CredentialCache {
  /** The cached check, or the one in flight, or a new one started with `check`. */
  resolve(cacheKey: string, check: () => Promise<CheckedCredential>): Promise<CheckedCredential>;
  evict(cacheKey: string): void;
  readonly size: number;
}

/** An LRU of `max` entries, each trusted for `ttlMs`. */
export function createCredentialCache({ max, ttlMs }: { max: number; ttlMs: number }): CredentialCache {
  const lru = new LRUCache<string, CheckedCredential>({ max, ttl: ttlMs });
  const inFlight = new Map<string, Promise<CheckedCredential>>();
  return {
    resolve(cacheKey, check) {
      const hit = lru.get(cacheKey);
      if (hit) return Promise.resolve(hit);
      const pending = inFlight.get(cacheKey);
      if (pending) return pending;
      const started = check().then(
        (value) => {
          inFlight.delete(cacheKey);
          lru.set(cacheKey, value);
          return value;
        },
        (err: unknown) => {
          inFlight.delete(cacheKey);
          throw err;
        },
      );
      inFlight.set(cacheKey, started);
      return started;
    },
    evict(cacheKey) {
      lru.delete(cacheKey);
    },
    get size() {
      return lru.size;
    },
  };
}
