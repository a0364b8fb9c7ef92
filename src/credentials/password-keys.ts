/**
 * The keys that stand for (db, login, password) credentials (design §5 step 6), by HMAC slot:
 * single-flight first resolution; a key that expired is resolved again; a minted key is used until
 * `renewAt` (expiry minus a margin), after which the first call is still served with it while a new
 * key is minted in the background; the password is re-checked every `revalidateIntervalMs`; refusals
 * are cached for `negativeTtlMs`. Entries hold no password; keys live only in memory.
 */
import type { CallOrigin } from '../call.ts';
import type { LegacyError } from '../errors.ts';
import { createLru } from './cache.ts';
import { isRefusal, isThrottled } from './refusals.ts';

/** A resolved credential: the API key the gateway uses for it upstream. */
export interface PasswordKey {
  db: string;
  uid: number | bigint;
  login: string;
  key: string;
  /** `minted`: the gateway's own key (retired by it); `map`: the credential map's. */
  source: 'minted' | 'map';
  keyId: number | undefined;
  /** Epoch ms after which the key is dead (`Infinity`: never). */
  expiresAt: number;
  /** Epoch ms from which the next call renews the key. */
  renewAt: number;
  /** Epoch ms of the last password check (`Infinity`: never re-checked). */
  validatedAt: number;
}

/** One call's credentials, as the resolvers need them. */
export interface PasswordRequest {
  db: string;
  login: string;
  password: string;
  origin: CallOrigin;
}

/** What the table does upstream, injected by `index.ts`. */
export interface PasswordKeyResolvers {
  /** First resolution (credential map, else minting). Rejects with a refusal or an upstream error. */
  resolve(req: PasswordRequest): Promise<PasswordKey>;
  /** A fresh login with the password; rejects with a refusal when it no longer opens `entry.uid`. */
  revalidate(entry: PasswordKey, req: PasswordRequest): Promise<void>;
  /** A new key for the same credentials (the old one removed in the same session). */
  renew(entry: PasswordKey, req: PasswordRequest): Promise<PasswordKey>;
  /** Retires a key still alive that leaves the table (eviction, password changed, shutdown). Never rejects. */
  retire(entry: PasswordKey, why: string): Promise<void>;
  /** A renewal failed for another reason than a refusal (logged by the caller). */
  renewalFailed(entry: PasswordKey, err: unknown): void;
}

/** The table's settings. */
export interface PasswordKeyOptions {
  max: number;
  now: () => number;
  negativeTtlMs: number;
  revalidateIntervalMs: number;
  /** Hears each `get`: a hit when it was answered from the table (a cached refusal included). */
  onLookup?: (hit: boolean) => void;
}

/** The table. */
export interface PasswordKeys {
  /** The entry for `slot`, resolving, re-validating or renewing as its age requires. */
  get(slot: string, req: PasswordRequest): Promise<PasswordKey>;
  /** Forgets `entry` after the upstream refused its key (401): it is dead, nothing to retire. */
  evict(slot: string, entry: PasswordKey): void;
  /** Resolves once no renewal is running. */
  settled(): Promise<void>;
  /** Retires every live key and empties the table (graceful shutdown). */
  close(): Promise<void>;
  readonly size: number;
}

/** Creates the table. */
export function createPasswordKeys(options: PasswordKeyOptions, resolvers: PasswordKeyResolvers): PasswordKeys {
  const { now, negativeTtlMs, revalidateIntervalMs } = options;
  const entries = createLru<PasswordKey>({ max: options.max, onEvict: (e) => void resolvers.retire(e, 'evicted (cache full)') });
  const negatives = createLru<{ until: number; error: LegacyError }>({ max: options.max });
  const firsts = new Map<string, Promise<PasswordKey>>();
  const checks = new Map<string, Promise<PasswordKey>>();
  const renewals = new Map<string, Promise<void>>();

  const refuse = (slot: string, err: unknown): never => {
    if (isRefusal(err) && !isThrottled(err) && negativeTtlMs > 0) negatives.set(slot, { until: now() + negativeTtlMs, error: err });
    throw err;
  };

  function singleFlight(table: Map<string, Promise<PasswordKey>>, slot: string, run: () => Promise<PasswordKey>): Promise<PasswordKey> {
    let pending = table.get(slot);
    if (pending === undefined) {
      pending = run().finally(() => table.delete(slot));
      table.set(slot, pending);
    }
    return pending;
  }

  const first = (slot: string, req: PasswordRequest) =>
    singleFlight(firsts, slot, () =>
      resolvers.resolve(req).then(
        (entry) => {
          entries.set(slot, entry);
          return entry;
        },
        (err: unknown) => refuse(slot, err),
      ),
    );

  const revalidate = (slot: string, entry: PasswordKey, req: PasswordRequest) =>
    singleFlight(checks, slot, () =>
      resolvers.revalidate(entry, req).then(
        () => {
          entry.validatedAt = now();
          return entry;
        },
        async (err: unknown) => {
          // a throttled address says nothing about this password: keep serving, check again later
          if (isThrottled(err)) return entry;
          if (!isRefusal(err)) throw err;
          entries.delete(slot);
          await resolvers.retire(entry, 'the password no longer opens it');
          return refuse(slot, err);
        },
      ),
    );

  function renew(slot: string, entry: PasswordKey, req: PasswordRequest): void {
    if (renewals.has(slot)) return;
    const run = resolvers.renew(entry, req).then(
      (fresh) => {
        if (entries.get(slot) === entry) entries.set(slot, fresh);
        else void resolvers.retire(fresh, 'renewed for credentials no longer cached');
      },
      (err: unknown) => {
        if (isRefusal(err) && !isThrottled(err)) {
          if (entries.get(slot) === entry) entries.delete(slot);
          void resolvers.retire(entry, 'its renewal was refused');
          if (negativeTtlMs > 0) negatives.set(slot, { until: now() + negativeTtlMs, error: err });
          return;
        }
        // try again a little later, still serving the old key until it expires
        entry.renewAt = Math.min(entry.expiresAt, now() + Math.max(negativeTtlMs, 1000));
        resolvers.renewalFailed(entry, err);
      },
    );
    renewals.set(slot, run.finally(() => renewals.delete(slot)));
  }

  return {
    async get(slot, req) {
      const negative = negatives.get(slot);
      if (negative !== undefined) {
        if (negative.until > now()) {
          options.onLookup?.(true);
          throw negative.error;
        }
        negatives.delete(slot);
      }
      let entry = entries.get(slot);
      if (entry !== undefined && now() >= entry.expiresAt) {
        entries.delete(slot); // expired unused: dead upstream, resolved again
        entry = undefined;
      }
      options.onLookup?.(entry !== undefined);
      if (entry === undefined) return first(slot, req);
      if (now() - entry.validatedAt >= revalidateIntervalMs) entry = await revalidate(slot, entry, req);
      if (now() >= entry.renewAt) renew(slot, entry, req);
      return entry;
    },
    evict(slot, entry) {
      if (entries.get(slot) === entry) entries.delete(slot);
    },
    async settled() {
      while (renewals.size > 0) await Promise.all([...renewals.values()]);
    },
    async close() {
      await this.settled();
      const live = entries.values().filter((e) => e.expiresAt > now());
      entries.clear();
      negatives.clear();
      await Promise.all(live.map((e) => resolvers.retire(e, 'the gateway is shutting down')));
    },
    get size() {
      return entries.size;
    },
  };
}
