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

type Refresh<T> = (stale: Revalidatable<T> | undefined) => Promise<Revalidatable<T>>;

/** Creates a cache of at most `max` entries on the clock `now`. */
export function createRevalidatingCache<T>({ max, now }: { max: number; now: () => number }): RevalidatingCache<T> {
  // lru-cache's fetch() is the single flight: concurrent callers share one refresh, which gets the
  // expired entry; a refresh that rejects puts that entry back (noDeleteOnFetchRejection).
  const lru = new LRUCache<string, Revalidatable<T>, Refresh<T>>({
    max,
    noDeleteOnFetchRejection: true,
    fetchMethod: (_key, stale, { context }) => context(stale),
  });
  return {
    async resolve(key, refresh) {
      const entry = lru.get(key);
      const forceRefresh = entry !== undefined && now() >= entry.expiresAt;
      return (await lru.fetch(key, { context: refresh, forceRefresh })) as Revalidatable<T>;
    },
    clear() {
      lru.clear();
    },
  };
}
