/**
 * `ir.config_parameter` (system parameters) per database: seeded from the simulator's options, read
 * by the key rules (`base.enable_programmatic_api_keys`, `base.programmatic_api_keys_limit`) and
 * through `get_param` (`methods/config-parameter.ts`), which only system users may call.
 */
import type { Database } from './database.ts';

const byDatabase = new WeakMap<Database, Map<string, string>>();

/** The parameters of one database (created empty on first use). */
export function configParameters(db: Database): Map<string, string> {
  let params = byDatabase.get(db);
  if (params === undefined) byDatabase.set(db, (params = new Map()));
  return params;
}

/** `tools.str2bool` as `_ensure_can_manage_keys_programmatically` applies it (default False). */
export function str2bool(text: string | undefined): boolean {
  return ['1', 'true', 'yes', 'y', 't', 'on'].includes((text ?? '').trim().toLowerCase());
}

const writesByDatabase = new WeakMap<Database, Map<string, Date>>();

/** When each parameter of `db` was last written by `setParam` (its record's `write_date`). */
export function parameterWriteDates(db: Database): Map<string, Date> {
  let writes = writesByDatabase.get(db);
  if (writes === undefined) writesByDatabase.set(db, (writes = new Map()));
  return writes;
}

const versionsByDatabase = new WeakMap<Database, Map<string, number>>();

/**
 * How many times `key`'s record was written in `db` (0: never since the database was built): what a
 * transaction compares with the count it saw at its start, as PostgreSQL compares row versions under
 * REPEATABLE READ.
 */
export function parameterVersion(db: Database, key: string): number {
  return versionsByDatabase.get(db)?.get(key) ?? 0;
}

/** `ir.config_parameter.set_param`: writes (and dates) the record only when the text changes. */
export function setParam(db: Database, key: string, value: string, now: Date): void {
  const params = configParameters(db);
  if (params.get(key) === value) return;
  params.set(key, value);
  parameterWriteDates(db).set(key, now);
  let versions = versionsByDatabase.get(db);
  if (versions === undefined) versionsByDatabase.set(db, (versions = new Map()));
  versions.set(key, parameterVersion(db, key) + 1);
}
