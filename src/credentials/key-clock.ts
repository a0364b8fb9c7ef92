/**
 * Key lifetimes on Odoo's clock, and a bound on how often a login is traded for a key. Odoo expires
 * a key by its own clock (`expiration_date`, 00:00 UTC), the gateway judges it by its own: with the
 * gateway's clock ahead, a key looks dead as soon as it is minted and every call would mint again.
 * The skew is measured at each mint from the key's `create_date` (Odoo's clock at the moment the key
 * was created) and the expiry moved onto the gateway's clock. Whatever else makes keys look dead
 * (a key revoked after each call, a skew the measure misses), a credential (database, login,
 * password) is traded for keys at most twice per `--mint-interval`.
 */
import { createLru } from './cache.ts';

/** Skews within this are left alone: `create_date` has whole seconds and the mint takes time; the renewal margin covers them. */
export const skewToleranceMs = 60_000;

/**
 * `expiresAt` (Odoo's clock) on the gateway's clock: shifted by how far the gateway's `mintedAt` is
 * from Odoo's `createdAt`, when that is more than the tolerance. Without a `createdAt`, unchanged.
 */
export function expiryOnGatewayClock(expiresAt: number, createdAt: number | undefined, mintedAt: number): number {
  if (createdAt === undefined || !Number.isFinite(expiresAt)) return expiresAt;
  const skew = mintedAt - createdAt;
  return Math.abs(skew) > skewToleranceMs ? expiresAt + skew : expiresAt;
}

/** When each credential was last traded for keys. */
export interface MintPacer {
  /** Milliseconds until the credential `slot` may be traded for a key again; 0: now. */
  wait(slot: string): number;
  /** `slot` was just traded for a key. */
  minted(slot: string): void;
}

/**
 * Mints a credential gets per interval: its key, and one more to replace a key Odoo refused (a key
 * revoked by hand is replaced transparently once).
 */
export const mintsPerInterval = 2;

/** At most {@link mintsPerInterval} mints per credential per `intervalMs` (0: no bound); remembers up to `max` credentials. */
export function createMintPacer(intervalMs: number, max: number, now: () => number): MintPacer {
  const recent = createLru<{ at: number[] }>({ max });
  const within = (slot: string) => (recent.get(slot)?.at ?? []).filter((at) => at + intervalMs > now());
  return {
    wait(slot) {
      if (intervalMs <= 0) return 0;
      const times = within(slot);
      return times.length < mintsPerInterval ? 0 : Math.max(1, Math.min(...times) + intervalMs - now());
    },
    minted(slot) {
      if (intervalMs > 0) recent.set(slot, { at: [...within(slot), now()].slice(-mintsPerInterval) });
    },
  };
}
