/**
 * The error text a `/web/database/*` page shows → the LegacyError legacy `db` would raise. The page
 * hides the exception class (`str(e)` only), so the class is recovered from the text where Odoo's
 * or PostgreSQL's wording names it, else it is the plain `Exception` the db service raises for most
 * failures (an intended deviation, COMPATIBILITY.md "HTML-hidden exception classes").
 *
 * Two database managers write these pages. Odoo 19.0's runs `odoo/service/db.py`, whose texts are
 * the legacy service's own. The rewrite of saas-19.1 and later (`odoo/modules/db.py`) words its
 * refusals differently and lets PostgreSQL's errors through bare; those are turned into what 19.0's
 * legacy `db` says in the same case (see `docs/odoo-versions.md`).
 */
import { accessDenied, LegacyError, pythonError } from '../../errors.ts';
import { unknownDatabase } from './answer.ts';

/** The operation a page answered, for the texts that only make sense with it. */
export interface DatabaseOperation {
  /** The route's last segment: create, duplicate, drop, rename, backup, restore, change_password. */
  route: string;
  /** The database the call is about (`name`). */
  db: string | undefined;
  /** The rename's target (`new_name`). */
  newName?: string | undefined;
}

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

/** The AccessDenied texts of `odoo/modules/db.py` (`verify_admin_password`, `verify_db_management_enabled`). */
const refusals = new Set([
  'Database management function blocked, bad admin password.',
  'Database management functions blocked, admin disabled database listing.',
]);

/** The naming check of every 19.0 form, whose lazy `_()` fails without an environment. */
const namingIssue19 = "'NoneType' object has no attribute 'uid'";

/**
 * A text of the rewritten manager as 19.0's legacy `db` words the same failure, or undefined for a
 * text both managers share.
 */
function as19(text: string, op: DatabaseOperation): LegacyError | undefined {
  if (refusals.has(text)) return accessDenied();
  // The bare naming page (create, duplicate, rename) and modules.db's own check of a new name:
  // on 19.0 the same name stops at the controller's check.
  if (text.startsWith('Houston, we have a database naming issue!') || /^Invalid db_name='.*'$/s.test(text))
    return pythonError('builtins.AttributeError', namingIssue19);
  // dump(): ValueError(f"Database {db_name!r} doesn't exist")
  if (op.db !== undefined && /^Database '.*' doesn't exist$/s.test(text)) return unknownDatabase(op.db);
  // _create_empty_database: DatabaseExists(f"Database {db_name!r} already exists!")
  const exists = /^Database ('.*' already exists!)$/s.exec(text);
  if (exists !== null) return pythonError('odoo.service.db.DatabaseExists', `database ${exists[1] ?? ''}`);
  if (op.route === 'restore') {
    // restore(): ValueError(f"Database {db_name!r} already exists"), checked first as restore_db does
    if (/^Database '.*' already exists$/s.test(text)) return pythonError('Exception', 'Database already exists');
    // not a zip, no dump.sql in it, psql's exit status (CalledProcessError.args[0]): restore_db's one text
    if (text === 'File is not a zip file' || /^There is no item named /.test(text) || /^\d+$/.test(text))
      return pythonError('Exception', "Couldn't restore database");
  }
  // exp_drop / exp_rename wrap PostgreSQL's error; modules.db lets it through
  if (op.route === 'drop' && !text.startsWith("Couldn't drop database "))
    return pythonError('Exception', `Couldn't drop database ${op.db ?? ''}: ${text}`);
  if (op.route === 'rename' && !text.startsWith("Couldn't rename database ")) {
    return pythonError('Exception', `Couldn't rename database ${op.db ?? ''} to ${op.newName ?? ''}: ${text}`);
  }
  return undefined;
}

/** The LegacyError for an error page's text, given the operation it answered. */
export function errorFromDatabaseText(text: string, op: DatabaseOperation): LegacyError {
  // odoo.exceptions.AccessDenied from check_super / check_db_management_enabled
  if (text === 'Access Denied') return accessDenied();
  // the backup controller's unknown name, which legacy `dump` answers with the unknown-database fault
  if (op.db !== undefined && /^Database '.*' is not known$/s.test(text)) return unknownDatabase(op.db);
  const later = as19(text, op);
  if (later !== undefined) return later;
  const wording = wordings.find((w) => w.pattern.test(text));
  // Everything else: the db service's `raise Exception(...)` ("Database already exists",
  // "Couldn't restore database", "Couldn't drop database x: …")
  return pythonError(wording?.name ?? 'Exception', text);
}
