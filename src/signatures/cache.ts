/**
 * The discovery cache: one entry per (db, model), kept past its expiry so the next use can
 * revalidate it (its ETag), bounded (LRU), with single-flight so concurrent uses of an expired or
 * missing entry share one refresh.
 */
import { LRUCache } from 'lru-cache';

/** A cached entry: a value, when it stops being fresh, and the ETag it was served with. */
export interface Revalidatable<T> {
  value: T;
  /** Epoch milliseconds; fresh while `now() < expiresAt`. */
  expiresAt: number;
  etag: string | undefined;
}

/** A bounded cache whose expired entries are refreshed (revalidated) once, by the first caller. */
export interface RevalidatingCache<T> {
  /**
   * The fresh entry under `key`; else the result of `refresh(stale)` (the expired entry, or
   * `undefined`), which is stored. Concurrent callers share one refresh; a refresh that rejects
   * leaves the cache as it was.
   */
  resolve(key: string, refresh: (stale: Revalidatable<T> | undefined) => Promise<Revalidatable<T>>): Promise<Revalidatable<T>>;
  clear(): void;
}

/** Creates a cache of at most `max` entries on the clock `now`. */
export function createRevalidatingCache<T>({ max, now }: { max: number; now: () => number }): RevalidatingCache<T> {
  const lru = new LRUCache<string, Revalidatable<T>>({ max });
  const inFlight = new Map<string, Promise<Revalidatable<T>>>();
  return {
    resolve(key, refresh) {
      const entry = lru.get(key);
      if (entry !== undefined && now() < entry.expiresAt) return Promise.resolve(entry);
      const pending = inFlight.get(key);
      if (pending !== undefined) return pending;
      const started = refresh(entry)
        .then((fresh) => {
          lru.set(key, fresh);
          return fresh;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
    clear() {
      lru.clear();
    },
  };
}
