/**
 * Throttling of repeated login failures per (client address, db, login) (docs/architecture.md §5 step 5): after
 * `failures` failed attempts, further attempts are refused locally for `backoffMs`, doubled for each
 * failure after that up to `maxBackoffMs`. A success clears the count; failures older than
 * `maxBackoffMs` are forgotten. Odoo's own legacy RPC has no such limit (Odoo: `res_users.py` `_assert_can_auth`). With a
 * shared store the counts are the replicas' together: a client spreading its attempts
 * over replicas is throttled as if it met one.
 *
 * Logins are reserved before they go upstream: attempts in flight count with the
 * failures, so N parallel wrong guesses make at most `failures` upstream logins (then one at a time
 * once the backoff is over), on one replica or many (the shared store reserves atomically).
 */
import { randomBytes } from 'node:crypto';
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
  /** How long a reservation holds when its replica never settles it (it died): the longest a login can take. Default 120 s. */
  holdMs?: number;
}

/** Failed attempts of one key: how many, the last one when (`count` 0: cleared by a success at `last`). */
export interface Failures {
  count: number;
  last: number;
}

/** The rules a shared reservation is decided by (the same as this process's). */
export interface ReserveRules {
  failures: number;
  backoffMs: number;
  maxBackoffMs: number;
  holdMs: number;
}

/** How a shared reservation went: taken, or refused with the time to wait. */
export type Reserved = { taken: true } | { taken: false; retryAfterMs: number };

/** The counts replicas share; each member answers `undefined` while the store is away. */
export interface SharedFailures {
  /** The shared count (`null`: none). */
  read(key: string): Promise<Failures | null | undefined>;
  /** Counts one more failure at `at`; the count is forgotten `forgetMs` after the last one. */
  add(key: string, at: number, forgetMs: number): Promise<Failures | undefined>;
  /** Clears the count after a success at `at`: count 0, kept for `forgetMs` (a deleted count is told from a cleared one). */
  clear(key: string, at: number, forgetMs: number): Promise<void>;
  /** Atomically: refuses while blocked or while the attempts in flight fill the allowance, else reserves `id`. */
  reserve(key: string, id: string, at: number, rules: ReserveRules): Promise<Reserved | undefined>;
  /** Ends reservation `id`: a failure counts one more, a success clears the count, `abandoned` only frees it. */
  settle(key: string, id: string, outcome: AttemptOutcome, at: number, forgetMs: number): Promise<void>;
}

/** How a reserved attempt ended. */
export type AttemptOutcome = 'failed' | 'succeeded' | 'abandoned';

/** A login reserved against the throttle; settle it exactly once. */
export interface Attempt {
  settle(outcome: AttemptOutcome): Promise<void>;
}

/** Per-key failure accounting; keys are opaque (the caller hashes address, db and login). */
export interface Throttle {
  /** Rejects with the throttled refusal while `key` is blocked. */
  check(key: string): Promise<void>;
  /** Reserves one attempt in flight; rejects with the throttled refusal while blocked or while the attempts in flight fill the allowance. */
  reserve(key: string): Promise<Attempt>;
  /** Counts a failed attempt. */
  failure(key: string): Promise<void>;
  /** Clears the count after a successful attempt. */
  success(key: string): Promise<void>;
}

/** Attempts allowed in flight for a count: what is left before the limit, and one at a time after a backoff. */
export function allowance(count: number, failures: number): number {
  return Math.max(1, failures - count);
}

/** Creates a throttle. */
export function createThrottle(options: ThrottleOptions): Throttle {
  const { failures, backoffMs, maxBackoffMs, now, shared } = options;
  const holdMs = options.holdMs ?? 120_000;
  const table = createLru<Failures>({ max: options.max });
  const inFlight = new Map<string, number>();
  // Keys a success may have to clear: failures counted here, or a shared count seen by check().
  // A success on any other key touches no store: a warm call makes no Redis round trip.
  const toClear = createLru<object>({ max: options.max });
  const blockedUntil = (f: Failures) => (f.count >= failures ? f.last + Math.min(maxBackoffMs, backoffMs * 2 ** (f.count - failures)) : 0);
  const current = (f: Failures | undefined): Failures | undefined => (f !== undefined && now() - f.last <= maxBackoffMs ? f : undefined);
  /**
   * The count to decide on: the shared one when the store answers, except that this replica's own
   * failures since the last success are a floor — deleting the shared count in Redis does not reset
   * the throttle of a replica that saw the failures.
   */
  const decided = (local: Failures | undefined, together: Failures | null | undefined): Failures | undefined => {
    if (together === undefined || together === null) return local;
    if (local !== undefined && local.last > together.last && local.count > together.count) return local;
    return together.count === 0 ? undefined : together;
  };
  const refuseIfBlocked = (f: Failures | undefined) => {
    const until = f === undefined ? 0 : blockedUntil(f);
    if (until > now()) throw throttled(until - now());
  };
  const countFailure = (key: string, together: Failures | undefined) => {
    toClear.set(key, {});
    const at = now();
    const local = current(table.get(key)) ?? { count: 0, last: 0 };
    const counted = { count: local.count + 1, last: at };
    table.set(key, together !== undefined && together.count > counted.count ? together : counted);
  };
  const release = (key: string) => {
    const left = (inFlight.get(key) ?? 1) - 1;
    if (left > 0) inFlight.set(key, left);
    else inFlight.delete(key);
  };

  return {
    async check(key) {
      const together = shared === undefined ? undefined : await shared.read(key);
      if (together && together.count > 0) toClear.set(key, {});
      refuseIfBlocked(decided(current(table.get(key)), together));
    },
    async reserve(key) {
      // this replica's own attempts in flight first (synchronously, so parallel calls see each other)
      const local = current(table.get(key));
      refuseIfBlocked(local);
      const mine = inFlight.get(key) ?? 0;
      if (mine >= allowance(local?.count ?? 0, failures)) throw throttled(1000);
      inFlight.set(key, mine + 1);
      const id = randomBytes(9).toString('base64url');
      let fleet = false;
      if (shared !== undefined) {
        const out = await shared.reserve(key, id, now(), { failures, backoffMs, maxBackoffMs, holdMs }).catch(() => undefined);
        if (out !== undefined && !out.taken) {
          release(key);
          throw throttled(out.retryAfterMs);
        }
        fleet = out !== undefined;
      }
      let settled = false;
      return {
        async settle(outcome) {
          if (settled) return;
          settled = true;
          release(key);
          if (outcome === 'failed') countFailure(key, undefined);
          if (outcome === 'succeeded') table.delete(key);
          if (shared === undefined) return;
          if (fleet) await shared.settle(key, id, outcome, now(), maxBackoffMs);
          else if (outcome === 'failed')
            await shared.add(key, now(), maxBackoffMs); // the store was away at reservation
          else if (outcome === 'succeeded') await shared.clear(key, now(), maxBackoffMs);
        },
      };
    },
    async failure(key) {
      const together = shared === undefined ? undefined : await shared.add(key, now(), maxBackoffMs);
      countFailure(key, together);
    },
    async success(key) {
      table.delete(key);
      if (toClear.get(key) === undefined) return;
      toClear.delete(key);
      await shared?.clear(key, now(), maxBackoffMs);
    },
  };
}
