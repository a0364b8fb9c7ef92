/**
 * The gateway's own API keys (`--service-key`), per database: an Odoo API key belongs to one user
 * of one database, so uid → login look-ups, signature discovery and the start-up checks need a key
 * for each database they serve. The setting is a comma-separated list of entries: `db=key` gives
 * database `db` its key; a bare `key` (at most one) serves every database not named — the single-key
 * form of earlier versions. Nothing here ever shows a key: problems name the entry and its database,
 * and the parsed value serialises without them.
 */
import { looksLikeApiKey } from './api-key.ts';

/** What `--service-key` resolved to. */
export interface ServiceKeys {
  /** The key for `db`: its own entry, else the bare key, else `undefined`. */
  keyFor(db: string): string | undefined;
  /** The databases named by `db=key` entries, in the order given. */
  readonly databases: readonly string[];
  /** True when a bare key serves the databases not named. */
  readonly everyDatabase: boolean;
}

/** Odoo's `DBNAME_PATTERN` (odoo/service/db.py). */
const dbNamePattern = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/;

/**
 * Parses the setting's text. Returns the keys, or one problem per bad entry (never quoting a key).
 * Spaces around entries and empty entries (a trailing comma) are ignored.
 */
export function parseServiceKeys(text: string): ServiceKeys | { problems: string[] } {
  const problems: string[] = [];
  const byDb = new Map<string, string>();
  let bare: string | undefined;
  const entries = text.split(',').map((e) => e.trim());
  entries.forEach((entry, i) => {
    if (entry === '') return;
    const where = entries.length > 1 ? `entry ${i + 1}` : 'the value';
    const eq = entry.indexOf('=');
    const db = eq === -1 ? undefined : entry.slice(0, eq).trim();
    const key = eq === -1 ? entry : entry.slice(eq + 1).trim();
    if (db !== undefined && !dbNamePattern.test(db)) {
      problems.push(`${where}: ${JSON.stringify(db)} is not a database name (letters, digits, _ . -; "db=key")`);
      return;
    }
    const named = db === undefined ? '' : ` (database ${JSON.stringify(db)})`;
    if (!looksLikeApiKey(key)) {
      problems.push(
        `${where}${named}: not an Odoo API key (40 lowercase hex characters, e.g. one made in Odoo under Preferences → Account Security → New API Key)`,
      );
      return;
    }
    if (db === undefined) {
      if (bare !== undefined)
        problems.push(`${where}: a second key without a database (only one key may serve every database; write db=key)`);
      bare = key;
    } else if (byDb.has(db)) problems.push(`${where}: database ${JSON.stringify(db)} is given a key twice`);
    else byDb.set(db, key);
  });
  if (problems.length === 0 && bare === undefined && byDb.size === 0)
    problems.push('no key given (a key, or db=key entries separated by commas)');
  if (problems.length > 0) return { problems };
  return createServiceKeys(byDb, bare);
}

/** The value itself: keys live in the closure only, so logging or serialising it shows none. */
function createServiceKeys(byDb: ReadonlyMap<string, string>, bare: string | undefined): ServiceKeys {
  const databases = Object.freeze([...byDb.keys()]);
  const everyDatabase = bare !== undefined;
  return Object.freeze({
    keyFor: (db: string) => byDb.get(db) ?? bare,
    databases,
    everyDatabase,
    toJSON: () => ({ databases, everyDatabase }),
  });
}
