/**
 * The error text a `/web/database/*` page shows → the LegacyError legacy `db` would raise. The page
 * hides the exception class (`str(e)` only), so the class is recovered from the text where Odoo's
 * or PostgreSQL's wording names it, else it is the plain `Exception` the db service raises for most
 * failures (an intended deviation, COMPATIBILITY.md "HTML-hidden exception classes").
 */
import { accessDenied, LegacyError, pythonError } from '../errors.ts';
import { unknownDatabase } from './answer.ts';

/** One recognisable wording and the exception that produces it. */
interface Wording {
  pattern: RegExp;
  /** The dotted exception name. */
  name: string;
}

const wordings: readonly Wording[] = [
  // psycopg2 errors of CREATE/ALTER DATABASE: str(e) ends with a newline
  { pattern: /^database ".*" already exists\n?$/s, name: 'psycopg2.errors.DuplicateDatabase' },
  { pattern: /^(?:template )?database ".*" does not exist\n?$/s, name: 'psycopg2.errors.InvalidCatalogName' },
  { pattern: /^database ".*" is being accessed by other users\n/s, name: 'psycopg2.errors.ObjectInUse' },
  // odoo/service/db.py: DatabaseExists("database %r already exists!")
  { pattern: /^database '.*' already exists!$/s, name: 'odoo.service.db.DatabaseExists' },
  // the controllers' lazy _() without an environment (an invalid database name, corpus webdb-duplicate-badname)
  { pattern: /^'[A-Za-z_]+' object has no attribute '\w+'$/, name: 'builtins.AttributeError' },
];

/**
 * The LegacyError for an error page's text. `db` names the database the call was about, for the
 * backup controller's "Database 'x' is not known", which legacy `dump` answers with the
 * unknown-database fault.
 */
export function errorFromDatabaseText(text: string, db: string | undefined): LegacyError {
  // odoo.exceptions.AccessDenied from check_super / check_db_management_enabled
  if (text === 'Access Denied') return accessDenied();
  if (db !== undefined && /^Database '.*' is not known$/s.test(text)) return unknownDatabase(db);
  const wording = wordings.find((w) => w.pattern.test(text));
  // Everything else: the db service's `raise Exception(...)` ("Database already exists",
  // "Couldn't restore database", "Couldn't drop database x: …")
  return pythonError(wording?.name ?? 'Exception', text);
}
