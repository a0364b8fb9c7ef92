/**
 * The keys that stand for (db, login, password) credentials (docs/architecture.md §5 step 3), by HMAC slot:
 * single-flight first resolution; a key that expired is resolved again; a minted key is used until
 * `renewAt` (expiry minus a margin), after which the first call is still served with it while a new
 * key is minted in the background; refusals are cached for `negativeTtlMs`. Entries hold no password.
 *
 * The password is confirmed at least every `revalidateIntervalMs` (the bound) by each
 * replica on its own: an entry not confirmed within the bound is not served until a check confirms
 * it (the call waits; a check that cannot be made refuses the call), and a check starts in the
 * background once half the bound has passed, so a credential in steady use never waits. A check
 * is cheap (`exchange.recheck`: the mint's web session, checked without a password hash) and
 * never goes through a client's throttle, takes no lock and writes nothing to the shared store, so
 * nothing planted in Redis can delay it and it never overwrites another replica's newer key.
 *
 * With a shared store (Redis) the table is a short-lived first level in front of it:
 * replicas read each other's keys, resolve and renew under a lock across replicas (one
 * exchange for N replicas), share refusals, and retire a key only when it leaves the store (the one
 * replica that removed it retires it) or when the last replica stops. While the store is away the
 * table works alone, as without one, and pushes what it minted meanwhile when the store returns.
 *
 * Parts: the shapes (`password-key-types.ts`), the first level and its refusals (`key-table.ts`),
 * when a password is checked again (`recheck-policy.ts`), what is done upstream (the exchange,
 * `key-exchange.ts`, handed in); here, the flow between them and the store.
 */
import type { LegacyError } from '../errors.ts';
import { createKeyTable } from './key-table.ts';
import type { KeyExchange, PasswordKey, PasswordKeyOptions, PasswordKeys, PasswordRequest } from './password-key-types.ts';
import { checkDue, renewalDue } from './recheck-policy.ts';
import { isRefusal, isThrottled } from './refusals.ts';

export type {
  KeyExchange,
  PasswordKey,
  PasswordKeyOptions,
  PasswordKeys,
  PasswordRequest,
  SharedPasswordKeys,
  SharedSlot,
} from './password-key-types.ts';

/** Creates the table. */
export function createPasswordKeys(options: PasswordKeyOptions, exchange: KeyExchange): PasswordKeys {
  const { now, negativeTtlMs, revalidateIntervalMs, shared } = options;
  const localTtlMs = options.localTtlMs ?? 0;
  const table = createKeyTable({
    max: options.max,
    now,
    negativeTtlMs,
    withStore: shared !== undefined,
    // a key the shared store holds stays alive for the other replicas
    onEvict: (entry, alone) => void (alone && exchange.retire(entry, 'evicted (cache full)')),
  });
  const { answersFor, current, hold } = table;
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
    if (exchange.tidy === undefined || entry.source !== 'minted' || (shared !== undefined && answersFor(entry))) return;
    await exchange.tidy(entry, req);
  }

  const cacheable = (err: unknown): err is LegacyError => isRefusal(err) && !isThrottled(err) && negativeTtlMs > 0;
  /** Remembers a refusal here and in the shared store. */
  async function noteRefusal(slot: string, err: unknown): Promise<void> {
    if (!cacheable(err)) return;
    table.refuse(slot, err);
    if (shared !== undefined) await shared.refuse(slot, err, negativeTtlMs);
  }
  async function refused(slot: string, err: unknown): Promise<never> {
    await noteRefusal(slot, err);
    throw err;
  }
  /** A refusal another replica shared: cached here, not written back (its time in the store runs on). */
  function sharedRefusal(slot: string, err: LegacyError): never {
    table.forget(slot);
    table.refuse(slot, err);
    throw err;
  }
  /** Retires `entry` once it left the table for good: where the store holds it, only if this replica removed it. */
  async function drop(slot: string, entry: PasswordKey, why: string): Promise<void> {
    if (!answersFor(entry) && (await shared!.remove(slot, entry.key)) === 'kept') return;
    await exchange.retire(entry, why);
  }
  /** Writes a minted entry to the store; where it is away, the entry is this replica's alone until it returns. */
  async function share(slot: string, entry: PasswordKey): Promise<boolean> {
    if (shared === undefined || entry.source !== 'minted') return false;
    const out = await shared.write(slot, entry);
    if (out === 'unavailable') return false;
    for (const old of out) void exchange.retire(old, 'evicted (shared store full)');
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
    exchange.obtain(slot, req).then(
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
      entry = await exchange.obtain(slot, req);
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
  async function recheckNow(slot: string, entry: PasswordKey, req: PasswordRequest): Promise<PasswordKey> {
    // the bound runs from when the check was asked, not from when its answer arrived
    const askedAt = now();
    try {
      const how = await exchange.recheck(entry, req);
      entry.validatedAt = askedAt;
      if (how === 'logged-in' && current(slot, entry)) await tidy(entry, req);
      return entry;
    } catch (err) {
      if (!isRefusal(err) || isThrottled(err)) throw err;
      if (current(slot, entry)) table.forget(slot);
      // the refusal is cached before the key is revoked: a call that meets the revoked key (401)
      // and resolves again gets this refusal, not a fresh login
      await noteRefusal(slot, err);
      await drop(slot, entry, 'the password no longer opens it');
      throw err;
    }
  }

  /** One check per slot at a time on this replica, with no lock and no write to the shared store. */
  const recheck = (slot: string, entry: PasswordKey, req: PasswordRequest) =>
    singleFlight(checks, slot, () => recheckNow(slot, entry, req));

  /** Replaces `entry` by a fresh key (the old one removed upstream in the same session). */
  async function renewNow(slot: string, entry: PasswordKey, req: PasswordRequest): Promise<void> {
    try {
      const fresh = await exchange.renew(slot, entry, req);
      const inStore = !answersFor(entry) && (await share(slot, fresh));
      if (current(slot, entry)) {
        hold(slot, fresh, inStore);
        await tidy(fresh, req);
      } else if (!inStore) void exchange.retire(fresh, 'renewed for credentials no longer cached');
    } catch (err) {
      if (isRefusal(err) && !isThrottled(err)) {
        if (current(slot, entry)) table.forget(slot);
        await drop(slot, entry, 'its renewal was refused');
        await noteRefusal(slot, err);
        return;
      }
      // try again a little later, still serving the old key until it expires
      entry.renewAt = Math.min(entry.expiresAt, now() + Math.max(negativeTtlMs, 1000));
      exchange.renewalFailed(entry, err);
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
    renewals.set(
      slot,
      run.finally(() => renewals.delete(slot)),
    );
  }

  /**
   * The store is back: share the minted keys this replica holds (those minted while it was away, and
   * those a restarted, empty store lost). Where another replica's key won a slot, ours retires if
   * only this replica knew it; a key the store held before is left alone (the store's is newer).
   */
  async function catchUp(): Promise<void> {
    for (const [slot, held] of table.entries()) {
      const { entry } = held;
      if (shared === undefined || entry.source !== 'minted' || entry.expiresAt <= now()) continue;
      const out = await shared.add(slot, entry);
      if (out === 'unavailable') return;
      const wasLocal = table.shared(entry);
      held.readAt = now();
      if (out === 'taken' && wasLocal) {
        if (current(slot, entry)) table.forget(slot);
        await exchange.retire(entry, 'another replica minted a key for the same credentials');
      }
    }
  }
  shared?.onUp(() => void catchUp());

  return {
    async get(slot, req) {
      const refusal = table.refusal(slot);
      if (refusal !== undefined) {
        options.onLookup?.(true);
        throw refusal;
      }
      const held = table.held(slot); // one that expired unused is dead upstream: resolved again
      options.onLookup?.(held !== undefined);
      let entry: PasswordKey;
      if (held === undefined) {
        entry = await singleFlight(firsts, slot, () =>
          shared === undefined ? resolveHere(slot, req) : resolveShared(slot, req, undefined),
        );
      } else if (!answersFor(held.entry) && held.entry.source === 'minted' && now() - held.readAt >= localTtlMs) {
        // the first level's copy is old: the store may hold a renewal or a refusal from another replica
        const stale = held.entry;
        entry = await singleFlight(firsts, slot, () => resolveShared(slot, req, stale));
      } else {
        entry = held.entry;
      }
      const due = checkDue(entry, now(), revalidateIntervalMs);
      if (due === 'wait') entry = await recheck(slot, entry, req);
      else if (due === 'background') {
        // ahead of the bound, in the background: a credential in steady use never waits for its check
        const background = { ...req, origin: { ...req.origin, signal: AbortSignal.timeout(Math.max(revalidateIntervalMs, 10_000)) } };
        void recheck(slot, entry, background).catch(() => undefined);
      }
      if (renewalDue(entry, now())) renew(slot, entry, req);
      return entry;
    },
    async evict(slot, entry) {
      if (current(slot, entry)) table.forget(slot);
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
      const live = table
        .entries()
        .map(([, held]) => held.entry)
        .filter((e) => e.expiresAt > now());
      const mine = live.filter(answersFor);
      table.clear();
      if (shared !== undefined) {
        const left = await shared.leave();
        if (left !== 'unavailable' && left.last)
          mine.push(...left.entries.filter((e) => e.expiresAt > now() && !mine.some((m) => m.key === e.key)));
      }
      await Promise.all(mine.map((e) => exchange.retire(e, 'the gateway is shutting down')));
    },
    get size() {
      return table.size;
    },
  };
}
