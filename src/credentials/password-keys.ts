/**
 * The keys that stand for (db, login, password) credentials (docs/architecture.md §5 step 6), by HMAC slot:
 * single-flight first resolution; a key that expired is resolved again; a minted key is used until
 * `renewAt` (expiry minus a margin), after which the first call is still served with it while a new
 * key is minted in the background; refusals are cached for `negativeTtlMs`. Entries hold no password.
 *
 * The password is confirmed at least every `revalidateIntervalMs` (the bound) by each
 * replica on its own: an entry not confirmed within the bound is not served until a check confirms
 * it (the call waits; a check that cannot be made refuses the call), and a check starts in the
 * background once half the bound has passed, so a credential in steady use never waits. A check
 * is cheap (`resolvers.revalidate`: the mint's web session, checked without a password hash) and
 * never goes through a client's throttle, takes no lock and writes nothing to the shared store, so
 * nothing planted in Redis can delay it and it never overwrites another replica's newer key.
 *
 * With a shared store (Redis) the table is a short-lived first level in front of it:
 * replicas read each other's keys, resolve and renew under a lock across replicas (one
 * exchange for N replicas), share refusals, and retire a key only when it leaves the store (the one
 * replica that removed it retires it) or when the last replica stops. While the store is away the
 * table works alone, as without one, and pushes what it minted meanwhile when the store returns.
 */
import type { CallOrigin } from '../call.ts';
import type { LegacyError } from '../errors.ts';
import type { WebSession } from '../upstream/index.ts';
import type { Exclusive } from '../state/lock.ts';
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
  /** The web session the password was last confirmed in (minted keys), checked to confirm it again. */
  session?: WebSession | undefined;
  /**
   * Epoch ms of the last real password login behind this key (absent: unknown, as for an entry read
   * from the shared store). A session check stands for a login only within `--login-recheck-interval`:
   * what Odoo decides at login besides the password (a 2FA policy, `_rpc_api_keys_only`) changes no
   * field the session token covers.
   */
  loggedInAt?: number | undefined;
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
  /**
   * Confirms the password still opens `entry.uid` (cheaply where it can; may replace
   * `entry.session`); rejects with a refusal when it does not, with another error when it cannot tell.
   * `logged-in`: it took a fresh password login (so `entry.session` may pass the identity check).
   */
  revalidate(entry: PasswordKey, req: PasswordRequest): Promise<void | 'logged-in'>;
  /** A new key for the same credentials (the old one removed in the same session). */
  renew(entry: PasswordKey, req: PasswordRequest): Promise<PasswordKey>;
  /** Retires a key still alive that leaves the table (eviction, password changed, shutdown). Never rejects. */
  retire(entry: PasswordKey, why: string): Promise<void>;
  /** A renewal failed for another reason than a refusal (logged by the caller). */
  renewalFailed(entry: PasswordKey, err: unknown): void;
  /**
   * With the password in hand after a login (mint, renewal, fresh login check): removes upstream the
   * keys the gateway minted earlier for the same user, keeping `entry`'s. Never rejects.
   */
  tidy?(entry: PasswordKey, req: PasswordRequest): Promise<void>;
}

/** What the shared store holds for a slot. */
export interface SharedSlot {
  entry?: PasswordKey;
  refusal?: LegacyError;
}

/** The store replicas share; every member answers `unavailable` rather than fail while it is away. */
export interface SharedPasswordKeys {
  read(slot: string): Promise<SharedSlot | 'unavailable'>;
  /** Stores a minted entry; answers the entries the store's bound pushed out (the caller retires them). */
  write(slot: string, entry: PasswordKey): Promise<PasswordKey[] | 'unavailable'>;
  /** Stores `entry` only where the slot is empty (catch-up after an outage). */
  add(slot: string, entry: PasswordKey): Promise<'added' | 'taken' | 'unavailable'>;
  /** Removes the slot's entry if it still holds `key`; `removed`: this caller alone retires it. */
  remove(slot: string, key: string): Promise<'removed' | 'kept' | 'unavailable'>;
  /** Shares a refusal for `ttlMs`. */
  refuse(slot: string, err: LegacyError, ttlMs: number): Promise<void>;
  /** Runs `run` under the lock `name` across replicas (see SharedLocks). */
  exclusive<T>(name: string, wait: boolean, run: () => Promise<T>): Promise<Exclusive<T>>;
  /** This replica stops: the last one out takes every stored entry (removed) to retire. */
  leave(): Promise<{ last: true; entries: PasswordKey[] } | { last: false } | 'unavailable'>;
  /** Calls `listener` each time the store (re)connects. */
  onUp(listener: () => void): void;
}

/** The table's settings. */
export interface PasswordKeyOptions {
  max: number;
  now: () => number;
  negativeTtlMs: number;
  revalidateIntervalMs: number;
  /** Hears each `get`: a hit when it was answered from the table (a cached refusal included). */
  onLookup?: (hit: boolean) => void;
  /** The store replicas share; absent: the table is the process's alone. */
  shared?: SharedPasswordKeys;
  /** Milliseconds a shared entry is used before the store is read again. */
  localTtlMs?: number;
}

/** The table. */
export interface PasswordKeys {
  /** The entry for `slot`, resolving, re-validating or renewing as its age requires. */
  get(slot: string, req: PasswordRequest): Promise<PasswordKey>;
  /** Forgets `entry` after the upstream refused its key (401): it is dead, nothing to retire. */
  evict(slot: string, entry: PasswordKey): Promise<void>;
  /** Resolves once no renewal and no password check is running. */
  settled(): Promise<void>;
  /** Retires every live key this replica answers for and empties the table (graceful shutdown). */
  close(): Promise<void>;
  readonly size: number;
}

/** An entry in the first level, with when it was last read from (or written to) the shared store. */
interface Held {
  entry: PasswordKey;
  readAt: number;
}

/** Creates the table. */
export function createPasswordKeys(options: PasswordKeyOptions, resolvers: PasswordKeyResolvers): PasswordKeys {
  const { now, negativeTtlMs, revalidateIntervalMs, shared } = options;
  const localTtlMs = options.localTtlMs ?? 0;
  /** Minted entries the shared store does not hold (minted while it was away): this replica alone answers for them. */
  const localOnly = new WeakSet<PasswordKey>();
  const answersFor = (entry: PasswordKey) => shared === undefined || localOnly.has(entry);
  const entries = createLru<Held>({
    max: options.max,
    // a key the shared store holds stays alive for the other replicas
    onEvict: (held) => void (answersFor(held.entry) && resolvers.retire(held.entry, 'evicted (cache full)')),
  });
  const negatives = createLru<{ until: number; error: LegacyError }>({ max: options.max });
  const firsts = new Map<string, Promise<PasswordKey>>();
  const checks = new Map<string, Promise<PasswordKey>>();
  const renewals = new Map<string, Promise<void>>();

  /**
   * After a login with the password, the user's earlier gateway keys are removed, keeping `entry`'s.
   * Only for a key every replica uses: without a store, or one the store holds (a key minted while
   * it is away may be replaced by another replica's at its return; removing that one would make the
   * replicas replace each other's keys).
   */
  async function tidy(entry: PasswordKey, req: PasswordRequest): Promise<void> {
    if (resolvers.tidy === undefined || entry.source !== 'minted' || (shared !== undefined && localOnly.has(entry))) return;
    await resolvers.tidy(entry, req);
  }

  const current = (slot: string, entry: PasswordKey) => entries.get(slot)?.entry === entry;
  const hold = (slot: string, entry: PasswordKey, inStore: boolean): PasswordKey => {
    if (shared !== undefined && !inStore && entry.source === 'minted') localOnly.add(entry);
    // the same key read again from the store: this replica's own confirmation (and session) stand
    const before = entries.get(slot)?.entry;
    if (before !== undefined && before !== entry && before.key === entry.key && before.validatedAt > entry.validatedAt) {
      entry.validatedAt = before.validatedAt;
      entry.session = before.session;
      entry.loggedInAt = before.loggedInAt;
    }
    entries.set(slot, { entry, readAt: now() });
    return entry;
  };
  const cacheable = (err: unknown): err is LegacyError => isRefusal(err) && !isThrottled(err) && negativeTtlMs > 0;
  /** Remembers a refusal here and in the shared store. */
  async function noteRefusal(slot: string, err: unknown): Promise<void> {
    if (!cacheable(err)) return;
    negatives.set(slot, { until: now() + negativeTtlMs, error: err });
    if (shared !== undefined) await shared.refuse(slot, err, negativeTtlMs);
  }
  async function refused(slot: string, err: unknown): Promise<never> {
    await noteRefusal(slot, err);
    throw err;
  }
  /** A refusal another replica shared: cached here, not written back (its time in the store runs on). */
  function sharedRefusal(slot: string, err: LegacyError): never {
    entries.delete(slot);
    if (negativeTtlMs > 0) negatives.set(slot, { until: now() + negativeTtlMs, error: err });
    throw err;
  }
  /** Retires `entry` once it left the table for good: where the store holds it, only if this replica removed it. */
  async function drop(slot: string, entry: PasswordKey, why: string): Promise<void> {
    if (!answersFor(entry) && (await shared!.remove(slot, entry.key)) === 'kept') return;
    await resolvers.retire(entry, why);
  }
  /** Writes a minted entry to the store; where it is away, the entry is this replica's alone until it returns. */
  async function share(slot: string, entry: PasswordKey): Promise<boolean> {
    if (shared === undefined || entry.source !== 'minted') return false;
    const out = await shared.write(slot, entry);
    if (out === 'unavailable') return false;
    for (const old of out) void resolvers.retire(old, 'evicted (shared store full)');
    return true;
  }

  function singleFlight(table: Map<string, Promise<PasswordKey>>, slot: string, run: () => Promise<PasswordKey>): Promise<PasswordKey> {
    let pending = table.get(slot);
    if (pending === undefined) {
      pending = run().finally(() => table.delete(slot));
      table.set(slot, pending);
    }
    return pending;
  }

  /** Resolves in this process (no store, or the store is away). */
  const resolveHere = (slot: string, req: PasswordRequest) =>
    resolvers.resolve(req).then(
      async (entry) => {
        hold(slot, entry, false);
        await tidy(entry, req);
        return entry;
      },
      (err: unknown) => refused(slot, err),
    );

  /** Under the resolve lock: the store once more (another replica may have just finished), else resolve and share. */
  async function resolveLocked(slot: string, req: PasswordRequest): Promise<PasswordKey> {
    const again = await shared!.read(slot);
    if (again !== 'unavailable') {
      if (again.refusal !== undefined) return sharedRefusal(slot, again.refusal);
      if (again.entry !== undefined) return hold(slot, again.entry, true);
    }
    let entry: PasswordKey;
    try {
      entry = await resolvers.resolve(req);
    } catch (err) {
      return refused(slot, err);
    }
    hold(slot, entry, await share(slot, entry));
    await tidy(entry, req);
    return entry;
  }

  /**
   * First resolution (or a refresh of `stale`) with the store: its entry or refusal if it has one,
   * else one replica resolves under the lock while the others wait for its answer.
   */
  async function resolveShared(slot: string, req: PasswordRequest, stale: PasswordKey | undefined): Promise<PasswordKey> {
    for (let round = 0; round < 3; round++) {
      const read = await shared!.read(slot);
      if (read === 'unavailable') return stale ?? resolveHere(slot, req);
      if (read.refusal !== undefined) return sharedRefusal(slot, read.refusal);
      if (read.entry !== undefined) return hold(slot, read.entry, true);
      const out = await shared!.exclusive(`resolve:${slot}`, true, () => resolveLocked(slot, req));
      if (out.ran) return out.value;
      if (out.why === 'unavailable') return stale ?? resolveHere(slot, req);
      // another replica held the lock and let go: read what it stored
    }
    return resolveHere(slot, req);
  }

  /**
   * Confirms the password behind `entry`. A refusal of the password drops (and retires) the key and
   * is cached; any other failure (Odoo's cooldown, the upstream away) leaves the key unconfirmed, so
   * it is not served until a later check confirms it.
   */
  async function checkPassword(slot: string, entry: PasswordKey, req: PasswordRequest): Promise<PasswordKey> {
    // the bound runs from when the check was asked, not from when its answer arrived
    const askedAt = now();
    try {
      const how = await resolvers.revalidate(entry, req);
      entry.validatedAt = askedAt;
      if (how === 'logged-in' && current(slot, entry)) await tidy(entry, req);
      return entry;
    } catch (err) {
      if (!isRefusal(err) || isThrottled(err)) throw err;
      if (current(slot, entry)) entries.delete(slot);
      // the refusal is cached before the key is revoked: a call that meets the revoked key (401)
      // and resolves again gets this refusal, not a fresh login
      await noteRefusal(slot, err);
      await drop(slot, entry, 'the password no longer opens it');
      throw err;
    }
  }

  /** One check per slot at a time on this replica, with no lock and no write to the shared store. */
  const revalidate = (slot: string, entry: PasswordKey, req: PasswordRequest) => singleFlight(checks, slot, () => checkPassword(slot, entry, req));

  /** Replaces `entry` by a fresh key (the old one removed upstream in the same session). */
  async function renewNow(slot: string, entry: PasswordKey, req: PasswordRequest): Promise<void> {
    try {
      const fresh = await resolvers.renew(entry, req);
      const inStore = !answersFor(entry) && (await share(slot, fresh));
      if (current(slot, entry)) {
        hold(slot, fresh, inStore);
        await tidy(fresh, req);
      } else if (!inStore) void resolvers.retire(fresh, 'renewed for credentials no longer cached');
    } catch (err) {
      if (isRefusal(err) && !isThrottled(err)) {
        if (current(slot, entry)) entries.delete(slot);
        await drop(slot, entry, 'its renewal was refused');
        await noteRefusal(slot, err);
        return;
      }
      // try again a little later, still serving the old key until it expires
      entry.renewAt = Math.min(entry.expiresAt, now() + Math.max(negativeTtlMs, 1000));
      resolvers.renewalFailed(entry, err);
    }
  }

  async function renewShared(slot: string, entry: PasswordKey, req: PasswordRequest): Promise<void> {
    const out = await shared!.exclusive(`renew:${slot}`, false, async () => {
      const read = await shared!.read(slot);
      const stored = read === 'unavailable' ? undefined : read.entry;
      if (stored !== undefined && stored.key !== entry.key) {
        if (current(slot, entry)) hold(slot, stored, true); // another replica renewed it already
        return;
      }
      await renewNow(slot, entry, req);
    });
    // `held`: another replica renews; its key reaches this one at the next read or on the old key's 401
    if (!out.ran && out.why === 'unavailable') await renewNow(slot, entry, req);
  }

  function renew(slot: string, entry: PasswordKey, req: PasswordRequest): void {
    if (renewals.has(slot)) return;
    const run = answersFor(entry) ? renewNow(slot, entry, req) : renewShared(slot, entry, req);
    renewals.set(slot, run.finally(() => renewals.delete(slot)));
  }

  /**
   * The store is back: share the minted keys this replica holds (those minted while it was away, and
   * those a restarted, empty store lost). Where another replica's key won a slot, ours retires if
   * only this replica knew it; a key the store held before is left alone (the store's is newer).
   */
  async function catchUp(): Promise<void> {
    for (const [slot, held] of entries.entries()) {
      const { entry } = held;
      if (shared === undefined || entry.source !== 'minted' || entry.expiresAt <= now()) continue;
      const out = await shared.add(slot, entry);
      if (out === 'unavailable') return;
      const wasLocal = localOnly.delete(entry);
      held.readAt = now();
      if (out === 'taken' && wasLocal) {
        if (current(slot, entry)) entries.delete(slot);
        await resolvers.retire(entry, 'another replica minted a key for the same credentials');
      }
    }
  }
  shared?.onUp(() => void catchUp());

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
      let held = entries.get(slot);
      if (held !== undefined && now() >= held.entry.expiresAt) {
        entries.delete(slot); // expired unused: dead upstream, resolved again
        held = undefined;
      }
      options.onLookup?.(held !== undefined);
      let entry: PasswordKey;
      if (held === undefined) {
        entry = await singleFlight(firsts, slot, () => (shared === undefined ? resolveHere(slot, req) : resolveShared(slot, req, undefined)));
      } else if (!answersFor(held.entry) && held.entry.source === 'minted' && now() - held.readAt >= localTtlMs) {
        // the first level's copy is old: the store may hold a renewal or a refusal from another replica
        const stale = held.entry;
        entry = await singleFlight(firsts, slot, () => resolveShared(slot, req, stale));
      } else {
        entry = held.entry;
      }
      const age = now() - entry.validatedAt;
      if (age >= revalidateIntervalMs) entry = await revalidate(slot, entry, req);
      else if (age >= revalidateIntervalMs / 2) {
        // ahead of the bound, in the background: a credential in steady use never waits for its check
        const background = { ...req, origin: { ...req.origin, signal: AbortSignal.timeout(Math.max(revalidateIntervalMs, 10_000)) } };
        void revalidate(slot, entry, background).catch(() => undefined);
      }
      if (now() >= entry.renewAt) renew(slot, entry, req);
      return entry;
    },
    async evict(slot, entry) {
      if (current(slot, entry)) entries.delete(slot);
      if (answersFor(entry)) return;
      // Dead upstream: nothing to retire, but the other replicas must not be handed it again. The 401
      // may come from another replica's renewal, which removes the old key upstream before it stores
      // the new one: under the renewal lock (waiting for it), so the store is only emptied of a key no
      // renewal is replacing; emptied too early, the retry would mint a second key beside the renewed one.
      for (let tries = 0; tries < 2; tries++) {
        const out = await shared!.exclusive(`renew:${slot}`, true, () => shared!.remove(slot, entry.key));
        if (out.ran || out.why === 'unavailable') return;
      }
    },
    async settled() {
      while (renewals.size > 0 || checks.size > 0) await Promise.allSettled([...renewals.values(), ...checks.values()]);
    },
    async close() {
      await this.settled();
      const live = entries.values().map((held) => held.entry).filter((e) => e.expiresAt > now());
      const mine = live.filter(answersFor);
      entries.clear();
      negatives.clear();
      if (shared !== undefined) {
        const left = await shared.leave();
        if (left !== 'unavailable' && left.last) mine.push(...left.entries.filter((e) => e.expiresAt > now() && !mine.some((m) => m.key === e.key)));
      }
      await Promise.all(mine.map((e) => resolvers.retire(e, 'the gateway is shutting down')));
    },
    get size() {
      return entries.size;
    },
  };
}
