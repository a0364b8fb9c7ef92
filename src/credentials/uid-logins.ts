/**
 * uid → login (docs/architecture.md §5 step 4): object calls carry a uid, but a password is traded for a key by
 * login. Logins are remembered from successful `common.login`/`authenticate`; otherwise the
 * credential map's keys tell whose they are, and the database's service key reads `res.users`. A uid that
 * does not exist is Odoo's MissingError (corpus `err-wrong-uid-xmlrpc2`). Single-flight per uid.
 * With a shared store a login one replica learned is known to all.
 */
import { callDatabase, type CallOrigin } from '../call.ts';
import { missingError } from '../errors.ts';
import type { ServiceKeys } from '../service-keys.ts';
import type { Upstream } from '../upstream/index.ts';
import { isStruct, struct } from '../value.ts';
import { createLru } from './cache.ts';
import type { CredentialMap } from './credential-map.ts';
import { isUnauthorized, uidOfKey } from './passthrough.ts';
import { badCredentials, unknownLogin } from './refusals.ts';

/** The uid → login table. */
export interface UidLogins {
  /** Remembers a login whose uid an upstream login confirmed. */
  remember(db: string, uid: number | bigint, login: string): void;
  /** The login of `uid` in the call's database, else the refusal or MissingError Odoo-side facts call for. */
  resolve(uid: number | bigint, origin: CallOrigin): Promise<string>;
  /** The login already known for `uid`, without asking anyone. */
  known(db: string, uid: number | bigint): string | undefined;
  /**
   * Logins `uid` is known to have in other databases of the upstream (at most a few): candidates
   * only, to be used in `db` once a login there confirms they belong to `uid`.
   */
  elsewhere(db: string, uid: number | bigint): Promise<string[]>;
}

/**
 * Where uid → login outlives this process: Redis, shared with the other replicas (`state/login-store.ts`),
 * or `--logins-file` (`login-file.ts`); `get` answers `undefined` for none and while the store is away.
 */
export interface LoginStore {
  get(db: string, uid: number | bigint): Promise<string | undefined>;
  /** Stores a login (later, once the store is back, if it is away now). */
  set(db: string, uid: number | bigint, login: string): void;
  /** The logins stored for `uid` in databases other than `db` (none while the store is away). */
  elsewhere?(db: string, uid: number | bigint): Promise<string[]>;
}

/** Candidate logins tried for a uid-only call at most. */
export const maxCandidates = 3;

/** Creates the table. */
export function createUidLogins(options: {
  max: number;
  upstream: Upstream;
  serviceKeys: ServiceKeys | undefined;
  map: CredentialMap;
  store?: LoginStore;
}): UidLogins {
  const { upstream, serviceKeys, map, store } = options;
  const table = createLru<{ login: string }>({ max: options.max });
  const inFlight = new Map<string, Promise<string>>();
  const mapUids = new Map<string, number | bigint | null>(); // `${db}\0${login}` → uid of the entry's key
  const slot = (db: string, uid: number | bigint) => `${db}\u0000${uid}`;

  /** Learns the uid of each map entry of `db`, the call's database (one context_get per entry, once); the login of `uid` if one matches. */
  async function fromMap(uid: number | bigint, origin: CallOrigin): Promise<string | undefined> {
    const db = callDatabase(origin);
    for (const entry of map.entriesOf(db)) {
      const id = `${db}\u0000${entry.login}`;
      if (!mapUids.has(id)) mapUids.set(id, (await uidOfKey(upstream, entry.key, origin)) ?? null);
      const owner = mapUids.get(id);
      if (owner !== null && owner !== undefined && BigInt(owner) === BigInt(uid)) return entry.login;
    }
    return undefined;
  }

  async function fromServiceKey(uid: number | bigint, origin: CallOrigin): Promise<string> {
    const db = callDatabase(origin);
    if (serviceKeys === undefined) throw unknownLogin(uid, 'it has not seen this uid log in, and no --service-key is configured');
    const serviceKey = serviceKeys.keyFor(db);
    if (serviceKey === undefined) {
      throw unknownLogin(
        uid,
        `it has not seen this uid log in, and --service-key has no key for database "${db}"`,
        `add ${db}=<API key> to --service-key`,
      );
    }
    const body = struct({ domain: [['id', '=', uid]], fields: ['login'], context: struct({ active_test: false }) });
    let rows;
    try {
      rows = await upstream.json2({ db, key: serviceKey, model: 'res.users', method: 'search_read', body }, origin);
    } catch (err) {
      if (isUnauthorized(err))
        throw unknownLogin(
          uid,
          `the service key is not valid in database "${db}"`,
          `give that database its own key (${db}=<API key> in --service-key)`,
        );
      throw err;
    }
    const row = Array.isArray(rows) ? rows[0] : undefined;
    const login = row !== undefined && isStruct(row) ? row.get('login') : undefined;
    if (typeof login === 'string') return login;
    // Odoo loads the user record first: a uid that does not exist is a MissingError, not AccessDenied.
    throw missingError(`Record does not exist or has been deleted.\n(Record: res.users(${uid},), User: ${uid})`);
  }

  async function lookUp(uid: number | bigint, origin: CallOrigin): Promise<string> {
    if (BigInt(uid) <= 0n) throw badCredentials(); // browse(0) is no user: plain AccessDenied
    const db = callDatabase(origin);
    const learned = await store?.get(db, uid);
    if (learned !== undefined) {
      table.set(slot(db, uid), { login: learned });
      return learned;
    }
    const login = (await fromMap(uid, origin)) ?? (await fromServiceKey(uid, origin));
    remember(db, uid, login);
    return login;
  }

  function remember(db: string, uid: number | bigint, login: string): void {
    if (table.get(slot(db, uid))?.login === login) return;
    table.set(slot(db, uid), { login });
    store?.set(db, uid, login);
  }

  return {
    remember,
    known: (db, uid) => table.get(slot(db, uid))?.login,
    async elsewhere(db, uid) {
      const found = new Set<string>();
      for (const [key, { login }] of table.entries()) {
        const cut = key.lastIndexOf('\u0000');
        if (key.slice(0, cut) !== db && key.slice(cut + 1) === String(uid)) found.add(login);
      }
      for (const login of (await store?.elsewhere?.(db, uid)) ?? []) found.add(login);
      return [...found].slice(0, maxCandidates);
    },
    resolve(uid, origin) {
      const key = slot(callDatabase(origin), uid);
      const hit = table.get(key);
      if (hit !== undefined) return Promise.resolve(hit.login);
      let pending = inFlight.get(key);
      if (pending === undefined) {
        pending = lookUp(uid, origin).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
  };
}
