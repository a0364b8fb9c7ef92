/**
 * uid → login kept in a file (`--logins-file`) for a gateway without Redis, so that what it learnt
 * outlives a restart: a client that keeps its uid and calls `execute_kw` with its password is not
 * refused after the restart. Logins only (never a password or a key); written atomically, a moment
 * after each change and at shutdown.
 */
import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { Logger } from '../log.ts';
import type { LoginStore } from './uid-logins.ts';

/** The file store: a LoginStore the uid → login table writes through, and a final flush. */
export interface FileLogins extends LoginStore {
  flush(): Promise<void>;
}

const slot = (db: string, uid: number | bigint) => `${db}\u0000${uid}`;

/** Opens (or starts) the file; an unreadable file is logged and started afresh. */
export function openLoginsFile(path: string, log: Logger, delayMs = 1000): FileLogins {
  const logins = new Map<string, string>();
  try {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { logins?: unknown };
    if (Array.isArray(doc.logins)) {
      for (const row of doc.logins) {
        if (Array.isArray(row) && typeof row[0] === 'string' && typeof row[1] === 'string' && typeof row[2] === 'string')
          logins.set(slot(row[0], BigInt(row[1])), row[2]);
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log.warn({ path }, 'could not read --logins-file; starting with no logins known');
  }
  let timer: NodeJS.Timeout | undefined;
  let writing = Promise.resolve();

  function write(): Promise<void> {
    timer = undefined;
    const rows = [...logins].map(([key, login]) => [...key.split('\u0000'), login]);
    const tmp = `${path}.tmp`;
    writing = writing
      .then(() => writeFile(tmp, JSON.stringify({ logins: rows }), { mode: 0o600 }))
      .then(() => rename(tmp, path))
      .catch(() => log.warn({ path }, 'could not write --logins-file'));
    return writing;
  }

  return {
    get: (db, uid) => Promise.resolve(logins.get(slot(db, uid))),
    elsewhere(db, uid) {
      const found = new Set<string>();
      for (const [key, login] of logins) {
        const [at, id] = key.split('\u0000');
        if (at !== db && id === String(uid)) found.add(login);
      }
      return Promise.resolve([...found]);
    },
    set(db, uid, login) {
      if (logins.get(slot(db, uid)) === login) return;
      logins.set(slot(db, uid), login);
      timer ??= setTimeout(() => void write(), delayMs);
    },
    async flush() {
      if (timer !== undefined) clearTimeout(timer);
      await write();
    },
  };
}
