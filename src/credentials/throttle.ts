/**
 * Throttling of repeated login failures per (client address, db, login) (design §5 step 8): after
 * `failures` failed attempts, further attempts are refused locally for `backoffMs`, doubled for each
 * failure after that up to `maxBackoffMs`. A success clears the count; failures older than
 * `maxBackoffMs` are forgotten. Odoo's own legacy RPC has no such limit (reference §3.5). With a
 * shared store (issue #10) the counts are the replicas' together: a client spreading its attempts
 * over replicas is throttled as if it met one.
 */
import { createLru } from './cache.ts';
import { throttled } from './refusals.ts';

/** The throttle's settings (from `--throttle-*`). */
export interface ThrottleOptions {
  failures: number;
  backoffMs: number;
  maxBackoffMs: number;
  /** Most (address, db, login) triples remembered. */
  max: number;
  now: () => number;
  /** Counts shared with the other replicas; absent: this process's counts only. */
  shared?: SharedFailures;
}

/** Failed attempts of one key: how many, the last one when. */
export interface Failures {
  count: number;
  last: number;
}

/** The counts replicas share; each member answers `undefined` while the store is away. */
export interface SharedFailures {
  /** The shared count (`null`: none). */
  read(key: string): Promise<Failures | null | undefined>;
  /** Counts one more failure at `at`; the count is forgotten `forgetMs` after the last one. */
  add(key: string, at: number, forgetMs: number): Promise<Failures | undefined>;
  clear(key: string): Promise<void>;
}

/** Per-key failure accounting; keys are opaque (the caller hashes address, db and login). */
export interface Throttle {
  /** Rejects with the throttled refusal while `key` is blocked. */
  check(key: string): Promise<void>;
  /** Counts a failed attempt. */
  failure(key: string): Promise<void>;
  /** Clears the count after a successful attempt. */
  success(key: string): Promise<void>;
}

/** Creates a throttle. */
export function createThrottle(options: ThrottleOptions): Throttle {
  const { failures, backoffMs, maxBackoffMs, now, shared } = options;
  const table = createLru<Failures>({ max: options.max });
  // Keys a success may have to clear: failures counted here, or a shared count seen by check().
  // A success on any other key touches no store: a warm call makes no Redis round trip (issue #21).
  const toClear = createLru<object>({ max: options.max });
  const blockedUntil = (f: Failures) => (f.count >= failures ? f.last + Math.min(maxBackoffMs, backoffMs * 2 ** (f.count - failures)) : 0);
  const current = (f: Failures | undefined): Failures | undefined => (f !== undefined && now() - f.last <= maxBackoffMs ? f : undefined);
  const refuseIfBlocked = (f: Failures | undefined) => {
    const until = f === undefined ? 0 : blockedUntil(f);
    if (until > now()) throw throttled(until - now());
  };
  return {
    async check(key) {
      // the shared count is the truth when the store answers (a success on another replica cleared it)
      const together = shared === undefined ? undefined : await shared.read(key);
      if (together) toClear.set(key, {});
      refuseIfBlocked(current(together === undefined ? table.get(key) : (together ?? undefined)));
    },
    async failure(key) {
      const at = now();
      const local = current(table.get(key)) ?? { count: 0, last: 0 };
      const counted = { count: local.count + 1, last: at };
      toClear.set(key, {});
      const together = shared === undefined ? undefined : await shared.add(key, at, maxBackoffMs);
      table.set(key, together !== undefined && together.count > counted.count ? together : counted);
    },
    async success(key) {
      table.delete(key);
      if (toClear.get(key) === undefined) return;
      toClear.delete(key);
      await shared?.clear(key);
    },
  };
}
