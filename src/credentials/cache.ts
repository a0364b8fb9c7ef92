/**
 * The credential cache: which (db, user, password) triples were checked upstream and for which uid,
 * with single-flight so concurrent first calls share one check. Values hold no secret. Also the
 * plain bounded LRU the other credential tables use (the one door to lru-cache here).
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
  // lru-cache's fetch() is the single flight: concurrent fetches of a key share one check, a check
  // that rejects stores nothing, and one that outlives an evict() still answers its callers.
  const lru = new LRUCache<string, CheckedCredential, () => Promise<CheckedCredential>>({
    max,
    ttl: ttlMs,
    ignoreFetchAbort: true,
    fetchMethod: (_key, _stale, { context }) => context(),
  });
  return {
    async resolve(cacheKey, check) {
      return (await lru.fetch(cacheKey, { context: check })) as CheckedCredential;
    },
    evict(cacheKey) {
      lru.delete(cacheKey);
    },
    get size() {
      return lru.size;
    },
  };
}

/** A bounded map, least recently used entry first out; `onEvict` hears of entries pushed out by size. */
export interface Lru<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  values(): V[];
  /** Every (key, value), least recently used first. */
  entries(): Array<[string, V]>;
  clear(): void;
  readonly size: number;
}

/** An LRU of `max` entries without expiry (callers keep their own clock, so tests can move it). */
export function createLru<V extends object>({ max, onEvict }: { max: number; onEvict?: (value: V) => void }): Lru<V> {
  const lru = new LRUCache<string, V>({
    max,
    ...(onEvict === undefined ? {} : { dispose: (value: V, _key: string, reason: string) => void (reason === 'evict' && onEvict(value)) }),
  });
  return {
    get: (key) => lru.get(key),
    set: (key, value) => void lru.set(key, value),
    delete: (key) => void lru.delete(key),
    values: () => [...lru.values()],
    entries: () => [...lru.entries()].reverse(),
    clear: () => lru.clear(),
    get size() {
      return lru.size;
    },
  };
}
