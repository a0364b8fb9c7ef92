/**
 * uid → login shared by the replicas: one sealed login per (db, uid) under an opaque
 * name, kept 30 days after it was last learned. Logins learned while Redis is away are written when
 * it returns. Per uid, a hash of the same logins by database (field: the database's opaque name)
 * tells which logins the uid has in the other databases of the upstream (`elsewhere`).
 */
import type { LoginStore } from '../credentials/uid-logins.ts';
import type { RedisLink } from './redis-link.ts';
import type { Sealer } from './sealed.ts';

const keepMs = 30 * 24 * 3600 * 1000;
/** Logins waiting for the store at most (the oldest give way). */
const maxPending = 10_000;

export function createLoginStore({
  link,
  sealer,
  name,
}: {
  link: RedisLink;
  sealer: Sealer;
  name: (...parts: string[]) => string;
}): LoginStore {
  const keyOf = (db: string, uid: number | bigint) => link.key('u', name('uid-login', db, String(uid)));
  const byDbOf = (uid: number | bigint) => link.key('u', name('uid-logins-by-db', String(uid)));
  const fieldOf = (db: string) => name('db', db);
  /** Sealed for the hash and the field together: a value moved to another field does not open. */
  const sealedName = (hash: string, field: string) => `${hash}\u0000${field}`;
  const pending = new Map<string, string>(); // Redis key → login
  const pendingByDb = new Map<string, { hash: string; field: string }>(); // Redis key → its place in the uid's hash

  const write = (key: string, login: string, byDb?: { hash: string; field: string }) =>
    link
      .attempt('login-write', async (r) => {
        const ok = await r.set(key, sealer.seal(key, login), 'PX', keepMs);
        if (byDb !== undefined)
          await r
            .multi()
            .hset(byDb.hash, byDb.field, sealer.seal(sealedName(byDb.hash, byDb.field), login))
            .pexpire(byDb.hash, keepMs)
            .exec();
        return ok;
      })
      .then((ok) => {
        if (ok !== undefined) return true;
        pending.delete(key);
        pending.set(key, login);
        if (byDb !== undefined) pendingByDb.set(key, byDb);
        if (pending.size > maxPending) pending.delete(pending.keys().next().value as string);
        return false;
      });

  link.onUp(() => {
    void (async () => {
      for (const [key, login] of [...pending]) {
        const byDb = pendingByDb.get(key);
        pending.delete(key);
        pendingByDb.delete(key);
        if (!(await write(key, login, byDb))) return;
      }
    })();
  });

  return {
    async get(db, uid) {
      const key = keyOf(db, uid);
      const sealed = await link.attempt('login-read', (r) => r.get(key));
      if (sealed === undefined || sealed === null) return pending.get(key);
      return sealer.open(key, sealed);
    },
    set(db, uid, login) {
      void write(keyOf(db, uid), login, { hash: byDbOf(uid), field: fieldOf(db) });
    },
    async elsewhere(db, uid) {
      const hash = byDbOf(uid);
      const all = await link.attempt('login-read', (r) => r.hgetall(hash));
      if (all === undefined) return [];
      const here = fieldOf(db);
      const logins = new Set<string>();
      for (const [field, sealed] of Object.entries(all)) {
        const login = field === here ? undefined : sealer.open(sealedName(hash, field), sealed);
        if (login !== undefined) logins.add(login);
      }
      return [...logins];
    },
  };
}
