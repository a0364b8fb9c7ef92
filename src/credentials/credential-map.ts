/**
 * The credential map (docs/architecture.md §5 step 2, `--credentials-file`): a JSON list of
 * `{"db", "login", "password_hash", "key"}` entries. A legacy login that has an entry is served
 * with the entry's API key when the password matches its hash, and never logs in upstream; the way
 * to serve two-factor users and integrations that must not create web sessions.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config.ts';
import { validatePasswordHash, verifyPassword } from './password-hash.ts';
import { looksLikeApiKey } from '../api-key.ts';

/** One entry of the map. */
export interface CredentialMapEntry {
  db: string;
  login: string;
  /** `scrypt$…` of the password the legacy client sends. */
  passwordHash: string;
  /** The API key the gateway uses upstream for this login. */
  key: string;
}

/** The loaded map. */
export interface CredentialMap {
  readonly size: number;
  /** The entry of (db, login), if any. */
  find(db: string, login: string): CredentialMapEntry | undefined;
  /** Every entry of `db`. */
  entriesOf(db: string): CredentialMapEntry[];
  /** True when `password` matches the entry's hash. */
  matches(entry: CredentialMapEntry, password: string): Promise<boolean>;
}

/** Builds a map from already validated entries. */
export function createCredentialMap(entries: readonly CredentialMapEntry[]): CredentialMap {
  const byLogin = new Map(entries.map((e) => [`${e.db}\u0000${e.login}`, e]));
  return {
    size: byLogin.size,
    find: (db, login) => byLogin.get(`${db}\u0000${login}`),
    entriesOf: (db) => entries.filter((e) => e.db === db),
    matches: (entry, password) => verifyPassword(password, entry.passwordHash),
  };
}

/**
 * Parses the map's JSON text. Throws a ConfigError listing every problem (entry number and field,
 * never a value: the file holds keys).
 */
export function parseCredentialMap(text: string, source: string): CredentialMap {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError([`${source}: not JSON (${(err as Error).message})`]);
  }
  if (!Array.isArray(data)) throw new ConfigError([`${source}: expected a JSON list of {"db", "login", "password_hash", "key"} entries`]);
  const problems: string[] = [];
  const entries: CredentialMapEntry[] = [];
  const seen = new Set<string>();
  data.forEach((raw: unknown, i) => {
    const where = `${source}: entry ${i + 1}`;
    const e = (raw ?? {}) as Record<string, unknown>;
    const fieldProblems: string[] = [];
    for (const field of ['db', 'login', 'password_hash', 'key']) {
      if (typeof e[field] !== 'string' || e[field] === '') fieldProblems.push(`${where}: "${field}" must be a non-empty string`);
    }
    const unknown = Object.keys(e).filter((k) => !['db', 'login', 'password_hash', 'key'].includes(k));
    if (unknown.length > 0)
      fieldProblems.push(
        `${where}: unknown field(s) ${unknown.map((k) => JSON.stringify(k)).join(', ')} (a plaintext password is never accepted)`,
      );
    if (fieldProblems.length > 0) {
      problems.push(...fieldProblems);
      return;
    }
    const entry: CredentialMapEntry = {
      db: e.db as string,
      login: e.login as string,
      passwordHash: e.password_hash as string,
      key: e.key as string,
    };
    const badHash = validatePasswordHash(entry.passwordHash);
    if (badHash !== undefined) problems.push(`${where}: "password_hash" is ${badHash}`);
    if (!looksLikeApiKey(entry.key)) problems.push(`${where}: "key" must be an Odoo API key (40 lowercase hex characters)`);
    const id = `${entry.db}\u0000${entry.login}`;
    if (seen.has(id))
      problems.push(`${where}: a second entry for login ${JSON.stringify(entry.login)} in database ${JSON.stringify(entry.db)}`);
    seen.add(id);
    entries.push(entry);
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return createCredentialMap(entries);
}

/** Reads and parses `--credentials-file`; throws with every problem found. */
export function loadCredentialMap(path: string): CredentialMap {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError([`--credentials-file ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  return parseCredentialMap(text, `--credentials-file ${path}`);
}
