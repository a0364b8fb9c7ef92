/**
 * The password-key table's first level (docs/architecture.md §5 step 3): resolved keys by slot, with
 * when each was last read from (or written to) the shared store, and refusals cached for
 * `negativeTtlMs`. It knows which minted keys this replica alone answers for (no store, or minted
 * while the store was away) and keeps a replica's own confirmation of a key it reads again from the
 * store. Nothing here goes upstream.
 */
import type { LegacyError } from '../errors.ts';
import { createLru } from './cache.ts';
import type { PasswordKey } from './password-key-types.ts';

/** An entry in the first level, with when it was last read from (or written to) the shared store. */
export interface Held {
  entry: PasswordKey;
  readAt: number;
}

/** The first level. */
export interface KeyTable {
  /** The entry held for `slot`; one that expired is dropped (dead upstream, resolved again). */
  held(slot: string): Held | undefined;
  /** Whether `entry` is still the one held for `slot`. */
  current(slot: string, entry: PasswordKey): boolean;
  /**
   * Holds `entry` for `slot`; `inStore`: the shared store holds it too (else, with a store, a minted
   * entry is this replica's alone). The same key held already with a newer confirmation keeps it.
   */
  hold(slot: string, entry: PasswordKey, inStore: boolean): PasswordKey;
  /** Drops `slot`'s entry (not retired: the caller decides). */
  forget(slot: string): void;
  /** Whether this replica alone answers for `entry` (retires it, renews it without the store's lock). */
  answersFor(entry: PasswordKey): boolean;
  /** The store now holds `entry`; answers whether it was this replica's alone until now. */
  shared(entry: PasswordKey): boolean;
  /** The refusal cached for `slot`, if it is still within its time. */
  refusal(slot: string): LegacyError | undefined;
  /** Caches `err` for `slot` for `negativeTtlMs` (0: nothing is cached). */
  refuse(slot: string, err: LegacyError): void;
  /** Every (slot, held), least recently used first. */
  entries(): Array<[string, Held]>;
  /** Empties both levels of caching (entries and refusals). */
  clear(): void;
  readonly size: number;
}

/** Creates the first level; `onEvict` hears of entries pushed out by size. `withStore`: a shared store is configured. */
export function createKeyTable(options: {
  max: number;
  now: () => number;
  negativeTtlMs: number;
  withStore: boolean;
  onEvict: (entry: PasswordKey, answersFor: boolean) => void;
}): KeyTable {
  const { now, negativeTtlMs, withStore } = options;
  /** Minted entries the shared store does not hold (minted while it was away): this replica alone answers for them. */
  const localOnly = new WeakSet<PasswordKey>();
  const answersFor = (entry: PasswordKey) => !withStore || localOnly.has(entry);
  const entries = createLru<Held>({ max: options.max, onEvict: (held) => options.onEvict(held.entry, answersFor(held.entry)) });
  const negatives = createLru<{ until: number; error: LegacyError }>({ max: options.max });

  return {
    held(slot) {
      const held = entries.get(slot);
      if (held === undefined || now() < held.entry.expiresAt) return held;
      entries.delete(slot);
      return undefined;
    },
    current: (slot, entry) => entries.get(slot)?.entry === entry,
    hold(slot, entry, inStore) {
      if (withStore && !inStore && entry.source === 'minted') localOnly.add(entry);
      // the same key read again from the store: this replica's own confirmation (and session) stand
      const before = entries.get(slot)?.entry;
      if (before !== undefined && before !== entry && before.key === entry.key && before.validatedAt > entry.validatedAt) {
        entry.validatedAt = before.validatedAt;
        entry.session = before.session;
        entry.loggedInAt = before.loggedInAt;
      }
      entries.set(slot, { entry, readAt: now() });
      return entry;
    },
    forget: (slot) => entries.delete(slot),
    answersFor,
    shared: (entry) => localOnly.delete(entry),
    refusal(slot) {
      const negative = negatives.get(slot);
      if (negative === undefined) return undefined;
      if (negative.until > now()) return negative.error;
      negatives.delete(slot);
      return undefined;
    },
    refuse(slot, err) {
      if (negativeTtlMs > 0) negatives.set(slot, { until: now() + negativeTtlMs, error: err });
    },
    entries: () => entries.entries(),
    clear() {
      entries.clear();
      negatives.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
