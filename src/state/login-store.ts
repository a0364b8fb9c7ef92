/**
 * uid → login shared by the replicas: one sealed login per (db, uid) under an opaque
 * name, kept 30 days after it was last learned. Logins learned while Redis is away are written when
 * it returns.
 */
import type { SharedLogins } from '../credentials/uid-logins.ts';
import type { RedisLink } from './redis-link.ts';
import type { Sealer } from './sealed.ts';

const keepMs = 30 * 24 * 3600 * 1000;
/** Logins waiting for the store at most (the oldest give way). */
const maxPending = 10_000;

export function createLoginStore({ link, sealer, name }: { link: RedisLink; sealer: Sealer; name: (...parts: string[]) => string }): SharedLogins {
  const keyOf = (db: string, uid: number | bigint) => link.key('u', name('uid-login', db, String(uid)));
  const pending = new Map<string, string>(); // Redis key → login

  const write = (key: string, login: string) =>
    link.attempt('login-write', (r) => r.set(key, sealer.seal(key, login), 'PX', keepMs)).then((ok) => {
      if (ok !== undefined) return true;
      pending.delete(key);
      pending.set(key, login);
      if (pending.size > maxPending) pending.delete(pending.keys().next().value as string);
      return false;
    });

  link.onUp(() => {
    void (async () => {
      for (const [key, login] of [...pending]) {
        pending.delete(key);
        if (!(await write(key, login))) return;
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
      void write(keyOf(db, uid), login);
    },
  };
}

