/**
 * The shapes of the password-key table (docs/architecture.md §5 step 3): a resolved credential, one
 * call's credentials, what the table asks of the key exchange and of the store the replicas share
 * (`src/state/` implements it). Types only; the table is `password-keys.ts`.
 */
import type { CallOrigin } from '../call.ts';
import type { LegacyError } from '../errors.ts';
import type { WebSession } from '../upstream/index.ts';
import type { CredentialMapEntry } from './credential-map.ts';

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
  /**
   * The user's `write_date` read before the last real password login (absent: none such). A passing
   * session check confirms the password only while the user's `write_date` still equals it: Odoo
   * 19.0 can answer a session check from a token it cached inside the transaction that changed the
   * password or the second factor, but that change always writes `write_date` (docs/security.md).
   */
  userStamp?: string | undefined;
}

/**
 * One call's credentials, and the way the front chose for them: a login and password in the call's
 * database, which its origin names (`callDatabase`, src/call.ts). The key a request obtains names its
 * database itself ({@link PasswordKey}`.db`): it outlives the call.
 */
export interface PasswordRequest {
  login: string;
  password: string;
  origin: CallOrigin;
  /** The credential map's entry of (db, login): its key is used, and no key is minted. */
  mapped?: CredentialMapEntry;
}

/**
 * What the table does upstream (`key-exchange.ts`). `slot` names the credential: the table's key
 * for it, computed once by the front.
 */
export interface KeyExchange {
  /** First resolution (credential map, else minting). Rejects with a refusal or an upstream error. */
  obtain(slot: string, req: PasswordRequest): Promise<PasswordKey>;
  /**
   * Confirms the password still opens `entry.uid` (cheaply where it can; may replace
   * `entry.session`); rejects with a refusal when it does not, with another error when it cannot tell.
   * `logged-in`: it took a fresh password login (so `entry.session` may pass the identity check).
   */
  recheck(entry: PasswordKey, req: PasswordRequest): Promise<void | 'logged-in'>;
  /** A new key for the same credentials (the old one removed in the same session). */
  renew(slot: string, entry: PasswordKey, req: PasswordRequest): Promise<PasswordKey>;
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

/** How a run under a lock across replicas went: it ran, or another replica holds the lock, or the store is away. */
export type Exclusive<T> = { ran: true; value: T } | { ran: false; why: 'held' | 'unavailable' };

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
