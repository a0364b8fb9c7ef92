/**
 * The database name a legacy call names, as `Registry(db)` / `db_connect(db)` would take it, and
 * whether it can reach the upstream exactly: JSON-2 carries it in a header, which cannot hold every
 * string.
 */
import { pythonError } from '../errors.ts';
import { unknownDatabase } from '../upstream/index.ts';
import { isTruthy, PyBinary, pyTypeName, type Value } from '../value.ts';

/**
 * True when `db` arrives in Odoo's `headers.get(...)` exactly as sent: only characters undici may
 * send (tab, printable ASCII, latin-1; latin-1 is sent and read back as latin-1), and no leading
 * or trailing space or tab, which header parsing strips. Anything else would name another
 * database upstream (`' gw'` arrives as `gw`) or fail in transport.
 */
export function travelsInHeader(db: string): boolean {
  return /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)$/.test(db);
}

/**
 * The database name for `Registry(db)`, or the fault Odoo 19 raises for it: a falsy name fails
 * `assert db_name, "Missing database name"`, a list, dict or Binary is no key of the registries
 * mapping (unhashable), another non-string fails `db_name.startswith(...)` in `connection_info_for`, and a name that cannot travel in a
 * header gets the fault of a missing database — sent anyway it would run the call on another database (or on Odoo's only one).
 */
export function checkedDatabase(db: Value): string {
  if (!isTruthy(db)) throw pythonError('AssertionError', 'Missing database name');
  if (Array.isArray(db) || db instanceof Map || db instanceof PyBinary)
    throw pythonError('TypeError', `unhashable type: '${pyTypeName(db)}'`);
  if (typeof db !== 'string') throw pythonError('AttributeError', `'${pyTypeName(db)}' object has no attribute 'startswith'`);
  if (!travelsInHeader(db)) throw unknownDatabase(db);
  return db;
}
