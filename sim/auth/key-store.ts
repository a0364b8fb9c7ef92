/**
 * The simulator's API keys (Odoo: `res_users.py` `res.users.apikeys`): 40 lowercase hex characters,
 * owned by a uid, with an optional scope and expiry. One store serves every database of a simulator,
 * but each key belongs to databases: the keys seeded at start (and those a test adds) are in every
 * database, as the corpus's `gw2` holds the keys of `gw` it was duplicated from; a key made through a
 * database's request is in that database only, removed there only, copied with it by a duplicate and
 * gone with it when it is dropped (each Odoo database has its own `res_users_apikeys` table). Keys are
 * kept in clear (no pbkdf2): it is a double.
 */
import { randomBytes } from 'node:crypto';
import { formatDatetime } from '../clock.ts';

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
  /** The databases holding the key; undefined: every database (seeded, or added by a test). */
  only?: Set<string>;
  /** Databases the key was removed from (or is absent from: a copy made before it was). */
  gone: Set<string>;
}

/** What {@link KeyStore.add} needs; the key itself is generated unless given. */
export interface NewApiKey {
  uid: number;
  name: string;
  scope?: string | null;
  /** A Date or an Odoo datetime string; absent or null = no expiry. */
  expiration?: Date | string | null;
  key?: string;
  /** The database whose request made the key: it is in that database only. Absent: every database. */
  db?: string;
}

/** Whether `record` is in database `db` (undefined: any database). */
function inDatabase(record: ApiKeyRecord, db: string | undefined): boolean {
  return db === undefined || ((record.only === undefined || record.only.has(db)) && !record.gone.has(db));
}

function cloneRecord(r: ApiKeyRecord): ApiKeyRecord {
  return { ...r, ...(r.only === undefined ? {} : { only: new Set(r.only) }), gone: new Set(r.gone) };
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

  /** `databases`: the simulator's database names; a key in none of them any more is gone for good. */
  constructor(
    readonly now: () => Date,
    readonly databases: () => readonly string[] = () => [],
  ) {}

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
      ...(init.db === undefined ? {} : { only: new Set([init.db]) }),
      gone: new Set(),
    };
    this.#byKey.set(key, record);
    return record;
  }

  /** Removes the key with this record id (from database `db` only, when given); false when there is none. */
  remove(id: number, db?: string): boolean {
    for (const [key, record] of this.#byKey) {
      if (record.id !== id || !inDatabase(record, db)) continue;
      if (db === undefined) return this.#byKey.delete(key);
      record.gone.add(db);
      if ([...(record.only ?? this.databases())].every((d) => record.gone.has(d))) this.#byKey.delete(key);
      return true;
    }
    return false;
  }

  /** A database copied from `source` (duplicate, rename): it holds exactly the keys `source` holds. */
  copyDatabase(source: string, target: string): void {
    for (const record of this.#byKey.values()) {
      if (inDatabase(record, source)) {
        record.only?.add(target);
        record.gone.delete(target);
      } else if (inDatabase(record, target)) record.gone.add(target);
    }
  }

  /**
   * A dropped (or renamed away) database: the keys made in it go with it, and a database created
   * later under the same name starts as any new one (the seeded keys, none made by requests).
   */
  dropDatabase(db: string): void {
    for (const [key, record] of this.#byKey) {
      record.gone.delete(db);
      if (record.only === undefined || !record.only.delete(db)) continue;
      if ([...record.only].every((d) => record.gone.has(d))) this.#byKey.delete(key);
    }
  }

  /** Removes a key by its text; false when it is not stored. */
  removeKey(key: string): boolean {
    return this.#byKey.delete(key);
  }

  /** Every stored key (of database `db`, when given), in creation order. */
  list(db?: string): ApiKeyRecord[] {
    return [...this.#byKey.values()].filter((r) => inDatabase(r, db));
  }

  /** The record of a key text (in database `db`, when given), valid or not. */
  find(key: string, db?: string): ApiKeyRecord | undefined {
    const record = this.#byKey.get(key);
    return record !== undefined && inDatabase(record, db) ? record : undefined;
  }

  /**
   * `_check_credentials(scope='rpc', key)`: the owner of a stored, unexpired key whose scope is NULL
   * or the asked one (in database `db`, when given); undefined otherwise. The owner's `active` flag is checked by the caller.
   */
  check(key: string, scope = 'rpc', db?: string): number | undefined {
    if (!apiKeyPattern.test(key)) return undefined;
    const record = this.find(key, db);
    if (record === undefined) return undefined;
    if (record.scope !== null && record.scope !== scope) return undefined;
    if (record.expiration !== null && record.expiration < formatDatetime(this.now())) return undefined;
    return record.uid;
  }

  /** Remembers the current keys as the state {@link restore} returns to. */
  freeze(): void {
    this.#initial = this.list().map(cloneRecord);
  }

  /** Back to the frozen keys (same key texts): used by the simulator's reset. */
  restore(): void {
    this.#byKey = new Map(this.#initial.map((r) => [r.key, cloneRecord(r)]));
    this.#nextId = Math.max(0, ...this.#initial.map((r) => r.id)) + 1;
  }
}
