/**
 * Throttling of repeated login failures per (client address, db, login) (design §5 step 8): after
 * `failures` failed attempts, further attempts are refused locally for `backoffMs`, doubled for each
 * failure after that up to `maxBackoffMs`. A success clears the count; failures older than
 * `maxBackoffMs` are forgotten. Odoo's own legacy RPC has no such limit (reference §3.5).
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
}

/** Per-key failure accounting; keys are opaque (the caller hashes address, db and login). */
export interface Throttle {
  /** Throws the throttled refusal while `key` is blocked. */
  check(key: string): void;
  /** Counts a failed attempt. */
  failure(key: string): void;
  /** Clears the count after a successful attempt. */
  success(key: string): void;
}

interface Failures {
  count: number;
  last: number;
  blockedUntil: number;
}

/** Creates a throttle. */
export function createThrottle(options: ThrottleOptions): Throttle {
  const { failures, backoffMs, maxBackoffMs, now } = options;
  const table = createLru<Failures>({ max: options.max });
  const current = (key: string): Failures | undefined => {
    const f = table.get(key);
    if (f !== undefined && now() - f.last > maxBackoffMs) {
      table.delete(key);
      return undefined;
    }
    return f;
  };
  return {
    check(key) {
      const f = current(key);
      if (f !== undefined && f.blockedUntil > now()) throw throttled(f.blockedUntil - now());
    },
    failure(key) {
      const f = current(key) ?? { count: 0, last: 0, blockedUntil: 0 };
      f.count++;
      f.last = now();
      if (f.count >= failures) f.blockedUntil = f.last + Math.min(maxBackoffMs, backoffMs * 2 ** (f.count - failures));
      table.set(key, f);
    },
    success(key) {
      table.delete(key);
    },
  };
}
