/**
 * The `/web/database/*` controllers of Odoo 19.0 (Odoo: `addons/web/controllers/database.py`, `addons/web/controllers/database.py`)
 * over the simulator's in-memory databases: the manager page, the JSON-RPC list, and the form posts
 * create, duplicate, drop, backup (a streamed zip or dump), restore (multipart), change_password —
 * plus `rename`, which only later versions have, behind a switch. Success is a 303 redirect; an
 * error is the manager page with an `alert-danger`, HTTP 200. While the master password is still the
 * default `admin`, every form but change_password first adopts the submitted one (the takeover).
 */
import { pyRepr } from '../../src/python/int-text.ts';
import { backupStream, dumpTextOf, loadDatabase, serializeDatabase, type BackupFormat } from './database-backup.ts';
import { emptyDatabase } from './database-build.ts';
import type { Database } from '../orm/database.ts';
import type { DocStore } from '../http/doc-bearer-docs.ts';
import type { KeyStore } from '../auth/key-store.ts';
import { renderManagerPage } from './database-manager-page.ts';
import { OdooError } from '../errors.ts';
import { parseMultipart, parseUrlencoded, type ParsedForm } from './form-data.ts';
import { werkzeugPage } from '../http/html-pages.ts';
import { htmlResponse, mimetypeOf, type SimRequest, type SimResponse } from '../http/http-types.ts';
import { jsonRpcError, jsonRpcResult, readJsonRpc } from '../http/jsonrpc-envelope.ts';
import type { Persona } from '../persona.ts';

/** The database manager's settings, changed by its own routes and by tests. */
export interface DatabaseManagerSettings {
  /** `admin_passwd`; the default `admin` leaves the manager unprotected. */
  masterPassword: string;
  /** False is `--no-database-list`: no manager page, the list and every operation refused. */
  enabled: boolean;
  /** Serve `/web/database/rename` (`master_pwd`, `name`, `new_name`), as later versions do. */
  renameRoute: boolean;
  /** Generated filestore bytes in every backup (benchmarks). */
  backupPadding: number;
  /** Backups fail after this many bytes (tests of a failing upstream). */
  failBackupsAfter: number | undefined;
}

/** What the routes need from the running simulator. */
export interface DatabaseManagerState {
  databases: Map<string, Database>;
  /** Per-database `/doc-bearer` stores, dropped with their database. */
  docs: Map<string, DocStore>;
  manager: DatabaseManagerSettings;
  /** The series played: which database manager answers. */
  persona: Persona;
  /** A fresh database built from the seed. */
  buildDatabase(name: string): Database;
  now: () => Date;
  /** The API keys: a copied database holds its source's. */
  keys: KeyStore;
}

/** `DBNAME_PATTERN` of `odoo/service/db.py` (`DB_NAME_RE` of `odoo/modules/db.py`). */
export const dbnamePattern = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/;

/** The paths this module serves. */
export function isWebDatabasePath(path: string): boolean {
  return path.startsWith('/web/database/');
}

/** An exception a controller catches and shows: `str(e)`. */
class ControllerError extends Error {}

/**
 * `_('Houston, we have a database naming issue! …')` outside a request environment: the lazy
 * translation fails before the message exists (fixtures/conformance/INDEX.md findings §10).
 */
function namingIssue(): ControllerError {
  return new ControllerError("'NoneType' object has no attribute 'uid'");
}

const redirectPage = (location: string) =>
  '<!doctype html>\n<html lang=en>\n<title>Redirecting...</title>\n<h1>Redirecting...</h1>\n' +
  `<p>You should be redirected automatically to the target URL: <a href="${location}">${location}</a>. If not, click the link.\n`;

/** werkzeug's `redirect(location, 303)`. */
export function redirect(location: string): SimResponse {
  return htmlResponse(303, redirectPage(location), { Location: location });
}

/** A form field the controller's signature requires is missing: werkzeug answers 500. */
export function missingField(): SimResponse {
  return htmlResponse(
    500,
    '<!doctype html>\n<html lang=en>\n<title>500 Internal Server Error</title>\n<h1>Internal Server Error</h1>\n' +
      '<p>The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application.</p>\n',
  );
}

/** werkzeug's 404 and 405 pages. */
export const notFound = () =>
  htmlResponse(
    404,
    werkzeugPage(
      404,
      'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
    ),
  );
export const methodNotAllowed = () => htmlResponse(405, werkzeugPage(405, 'The method is not allowed for the requested URL.'));

/** The form a POST carries (urlencoded or multipart), or undefined when it cannot be parsed. */
export function formOf(req: SimRequest): ParsedForm | undefined {
  return mimetypeOf(req) === 'multipart/form-data'
    ? parseMultipart(req.raw ?? Buffer.from(req.body, 'utf8'), req.headers['content-type'] ?? '')
    : parseUrlencoded(req.body);
}

/** Serves `/web/database/*` as 19.0 does (the persona picks this or `web-database-next.ts`). */
export function handleWebDatabase(state: DatabaseManagerState, req: SimRequest): SimResponse {
  const route = req.path.slice('/web/database/'.length);
  const settings = state.manager;
  const page = (error?: string) =>
    htmlResponse(
      200,
      renderManagerPage({
        databases: [...state.databases.keys()],
        insecure: settings.masterPassword === 'admin',
        ...(error === undefined ? {} : { error }),
      }),
    );

  if (route === 'manager' || route === 'selector') {
    if (req.method !== 'GET' && req.method !== 'POST')
      return htmlResponse(405, werkzeugPage(405, 'The method is not allowed for the requested URL.'));
    if (!settings.enabled)
      return htmlResponse(
        404,
        werkzeugPage(
          404,
          'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
        ),
      );
    return page();
  }
  if (route === 'list') return list(state, req);
  const operations: Record<string, (form: ParsedForm) => SimResponse | undefined> = {
    create: (form) => create(state, form),
    duplicate: (form) => duplicate(state, form),
    drop: (form) => drop(state, form),
    backup: (form) => backup(state, form),
    restore: (form) => restore(state, form),
    change_password: (form) => changePassword(state, form),
    ...(settings.renameRoute ? { rename: (form: ParsedForm) => rename(state, form) } : {}),
  };
  const operation = Object.hasOwn(operations, route) ? operations[route] : undefined;
  if (operation === undefined)
    return htmlResponse(
      404,
      werkzeugPage(
        404,
        'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
      ),
    );
  if (req.method !== 'POST') return htmlResponse(405, werkzeugPage(405, 'The method is not allowed for the requested URL.'));
  const form = formOf(req);
  if (form === undefined)
    return htmlResponse(400, werkzeugPage(400, 'The browser (or proxy) sent a request that this server could not understand.'));
  const master = form.fields.get('master_pwd');
  // insecure = verify_admin_password('admin'); if insecure and master_pwd: change_admin_password('admin', master_pwd)
  if (route !== 'change_password' && settings.masterPassword === 'admin' && master !== undefined && master !== '')
    settings.masterPassword = master;
  try {
    return operation(form) ?? missingField();
  } catch (err) {
    if (!(err instanceof ControllerError)) throw err;
    const label = {
      create: 'Database creation error',
      duplicate: 'Database duplication error',
      drop: 'Database deletion error',
      backup: 'Database backup error',
      restore: 'Database restore error',
      change_password: 'Master password update error',
      rename: 'Database rename error',
    }[route];
    return page(`${label}: ${err.message}`);
  }
}

/** `check_super` and `check_db_management_enabled`: AccessDenied ("Access Denied"). */
function checkSuper(state: DatabaseManagerState, password: string | undefined): void {
  if (!password || password !== state.manager.masterPassword || !state.manager.enabled) throw new ControllerError('Access Denied');
}

/** `POST /web/database/list` (JSON-RPC): the names, or AccessDenied under `--no-database-list`. */
function list(state: DatabaseManagerState, req: SimRequest): SimResponse {
  const rpc = readJsonRpc(req);
  if ('status' in rpc) return rpc;
  if (!state.manager.enabled) return jsonRpcError(rpc.id, new OdooError('odoo.exceptions.AccessDenied', 'Access Denied', 403), 'list');
  return jsonRpcResult(rpc.id, [...state.databases.keys()]);
}

export function required(form: ParsedForm, ...names: string[]): string[] | undefined {
  const values = names.map((n) => form.fields.get(n));
  return values.every((v) => v !== undefined) ? values : undefined;
}

/** `create(master_pwd, name, lang, password, **post)`: login and phone are read as `post[...]`. */
function create(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name', 'lang', 'password', 'login', 'phone');
  if (fields === undefined) return undefined;
  const [master, name, , password, login] = fields as [string, string, string, string, string];
  if (!dbnamePattern.test(name)) throw namingIssue();
  checkSuper(state, master);
  // exp_create_database → _create_empty_database: DatabaseExists("database %r already exists!")
  if (state.databases.has(name)) throw new ControllerError(`database ${pyRepr(name)} already exists!`);
  const db = state.buildDatabase(name);
  const admin = db.model('res.users')?.get(2);
  if (admin !== undefined) {
    admin.v.login = login;
    db.passwords.set(admin.id, password);
  }
  state.databases.set(name, db);
  return redirect('/odoo');
}

/** `duplicate(master_pwd, name, new_name, neutralize_database=False)` */
function duplicate(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name', 'new_name');
  if (fields === undefined) return undefined;
  const [master, name, newName] = fields as [string, string, string];
  if (!dbnamePattern.test(newName)) throw namingIssue();
  checkSuper(state, master);
  const source = state.databases.get(name);
  // CREATE DATABASE new TEMPLATE old: PostgreSQL's texts (str(e) ends with a newline)
  if (source === undefined) throw new ControllerError(`template database "${name}" does not exist\n`);
  if (state.databases.has(newName)) throw new ControllerError(`database "${newName}" already exists\n`);
  state.databases.set(newName, copyOf(state, source, newName));
  return redirect('/web/database/manager');
}

/** `drop(master_pwd, name)`: exp_drop of an unknown name returns False and the controller still redirects. */
function drop(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name');
  if (fields === undefined) return undefined;
  const [master, name] = fields as [string, string];
  checkSuper(state, master);
  forgetDatabase(state, name);
  return redirect('/web/database/manager');
}

/** `backup(master_pwd, name, backup_format='zip', filestore=True)`: the file, streamed. */
function backup(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name');
  if (fields === undefined) return undefined;
  const [master, name] = fields as [string, string];
  const format = form.fields.get('backup_format') ?? 'zip';
  checkSuper(state, master);
  const db = state.databases.get(name);
  if (db === undefined) throw new ControllerError(`Database ${pyRepr(name)} is not known`);
  const ts = state.now().toISOString().replace('T', '_').replace(/:/g, '-').slice(0, 19);
  const kind: BackupFormat = format === 'zip' ? 'zip' : 'dump';
  return {
    status: 200,
    headers: {
      'Content-Type': 'application/octet-stream; charset=binary',
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(`${name}_${ts}.${format}`)}`,
    },
    body: '',
    stream: backupStream(db, kind, {
      padding: state.manager.backupPadding,
      failAfter: state.manager.failBackupsAfter,
      release: state.persona.release,
    }),
  };
}

/**
 * `restore(master_pwd, backup_file, name, copy=False, neutralize_database=False)`. As Odoo, a file
 * that is no backup leaves an empty database behind.
 */
function restore(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name');
  const file = form.files.get('backup_file');
  if (fields === undefined || file === undefined) return undefined;
  const [master, name] = fields as [string, string];
  checkSuper(state, master);
  if (state.databases.has(name)) throw new ControllerError('Database already exists');
  const text = dumpTextOf(file.data);
  if (text === undefined) {
    state.databases.set(name, emptyDatabase(name));
    throw new ControllerError("Couldn't restore database");
  }
  const db = state.buildDatabase(name);
  if (!loadDatabase(db, text)) {
    state.databases.set(name, emptyDatabase(name));
    throw new ControllerError("Couldn't restore database");
  }
  state.databases.set(name, db);
  return redirect('/web/database/manager');
}

/** `change_password(master_pwd, master_pwd_new)`: no takeover here. */
function changePassword(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'master_pwd_new');
  if (fields === undefined) return undefined;
  const [master, next] = fields as [string, string];
  checkSuper(state, master);
  state.manager.masterPassword = next;
  return redirect('/web/database/manager');
}

/** `rename(master_pwd, name, new_name)` of later versions: `exp_rename`'s texts. */
function rename(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name', 'new_name');
  if (fields === undefined) return undefined;
  const [master, name, newName] = fields as [string, string, string];
  checkSuper(state, master);
  const db = state.databases.get(name);
  const why =
    db === undefined
      ? `database "${name}" does not exist\n`
      : state.databases.has(newName)
        ? `database "${newName}" already exists\n`
        : undefined;
  if (why !== undefined || db === undefined) throw new ControllerError(`Couldn't rename database ${name} to ${newName}: ${why ?? ''}`);
  state.databases.set(newName, copyOf(state, db, newName));
  forgetDatabase(state, name);
  return redirect('/web/database/manager');
}

/** A database dropped or renamed away: its records, its `/doc-bearer` store and the keys made in it. */
export function forgetDatabase(state: DatabaseManagerState, name: string): void {
  state.databases.delete(name);
  state.docs.delete(name);
  state.keys.dropDatabase(name);
}

/** A copy of `source` under `name`, system parameters and API keys included. */
export function copyOf(state: DatabaseManagerState, source: Database, name: string): Database {
  const copy = state.buildDatabase(name);
  loadDatabase(copy, serializeDatabase(source));
  state.keys.copyDatabase(source.name, name);
  return copy;
}
