/**
 * The simulator's API keys (Odoo: `res_users.py` `res.users.apikeys`): 40 lowercase hex characters, owned by a uid, with an
 * optional scope and expiry. One store serves every database of a simulator, as the corpus's `gw2`
 * shares the keys of `gw` it was duplicated from. Keys are kept in clear (no pbkdf2): it is a double.
 */
import { randomBytes } from 'node:crypto';
import { formatDatetime } from './clock.ts';

/** One row of `res.users.apikeys` plus its secret. */
export interface ApiKeyRecord {
  id: number;
  key: string;
  uid: number;
  name: string;
  /** `null` is a global key; JSON-2 accepts only global or `rpc` keys. */
  scope: string | null;
  /** UTC `YYYY-MM-DD HH:MM:SS`, or `null` for a key that never expires. */
  expiration: string | null;
  createDate: string;
}

/** What {@link KeyStore.add} needs; the key itself is generated unless given. */
export interface NewApiKey {
  uid: number;
  name: string;
  scope?: string | null;
  /** A Date or an Odoo datetime string; absent or null = no expiry. */
  expiration?: Date | string | null;
  key?: string;
}

/** `^[0-9a-f]{40}$`: the only shape Odoo ever generates (`hexlify(os.urandom(20))`). */
export const apiKeyPattern = /^[0-9a-f]{40}$/;

/** Generates a fresh key: 20 random bytes as lowercase hex. */
export function generateApiKey(): string {
  return randomBytes(20).toString('hex');
}

/** The store of API keys, indexed by key text. */
export class KeyStore {
  #byKey = new Map<string, ApiKeyRecord>();
  #nextId = 1;
  #initial: ApiKeyRecord[] = [];

  constructor(readonly now: () => Date) {}

  /** Adds a key; throws when a given key is not 40 lowercase hex or already stored. */
  add(init: NewApiKey): ApiKeyRecord {
    const key = init.key ?? generateApiKey();
    if (!apiKeyPattern.test(key)) throw new Error('api key must be 40 lowercase hex characters');
    if (this.#byKey.has(key)) throw new Error('api key already stored');
    const expiration = init.expiration instanceof Date ? formatDatetime(init.expiration) : (init.expiration ?? null);
    const record: ApiKeyRecord = {
      id: this.#nextId++,
      key,
      uid: init.uid,
      name: init.name,
      scope: init.scope ?? null,
      expiration,
      createDate: formatDatetime(this.now()),
    };
    this.#byKey.set(key, record);
    return record;
  }

  /** Removes the key with this record id; false when there is none. */
  remove(id: number): boolean {
    for (const [key, record] of this.#byKey) {
      if (record.id === id) return this.#byKey.delete(key);
    }
    return false;
  }

  /** Removes a key by its text; false when it is not stored. */
  removeKey(key: string): boolean {
    return this.#byKey.delete(key);
  }

  /** Every stored key, in creation order. */
  list(): ApiKeyRecord[] {
    return [...this.#byKey.values()];
  }

  /** The record of a key text, valid or not. */
  find(key: string): ApiKeyRecord | undefined {
    return this.#byKey.get(key);
  }

  /**
   * `_check_credentials(scope='rpc', key)`: the owner of a stored, unexpired key whose scope is NULL
   * or the asked one; undefined otherwise. The owner's `active` flag is checked by the caller.
   */
  check(key: string, scope = 'rpc'): number | undefined {
    if (!apiKeyPattern.test(key)) return undefined;
    const record = this.#byKey.get(key);
    if (record === undefined) return undefined;
    if (record.scope !== null && record.scope !== scope) return undefined;
    if (record.expiration !== null && record.expiration < formatDatetime(this.now())) return undefined;
    return record.uid;
  }

  /** Remembers the current keys as the state {@link restore} returns to. */
  freeze(): void {
    this.#initial = this.list().map((r) => ({ ...r }));
  }

  /** Back to the frozen keys (same key texts): used by the simulator's reset. */
  restore(): void {
    this.#byKey = new Map(this.#initial.map((r) => [r.key, { ...r }]));
    this.#nextId = Math.max(0, ...this.#initial.map((r) => r.id)) + 1;
  }
}
