/**
 * The database manager of saas-19.1 and later (`addons/web/controllers/database.py` over
 * `odoo/modules/db.py`): every form but change_password runs `verify_access` (database listing
 * enabled, the takeover while the master password is the default, then the password), and an
 * exception becomes the manager page with `Could not <verb> database. <args[0]>` at the exception's
 * `http_status` (403 for AccessDenied) or 422. Drop has no existence guard, a backup is written
 * whole before it is sent (`application/zip` for zip), restore takes zip files only and creates the
 * empty database before it reads the file, and rename exists.
 */
import { pyRepr } from '../../src/python/int-text.ts';
import { backupStream, loadDatabase, type BackupFormat } from './database-backup.ts';
import { renderManagerPage } from './database-manager-page.ts';
import { emptyDatabase } from './database-build.ts';
import { OdooError } from '../errors.ts';
import { htmlResponse, type SimRequest, type SimResponse } from '../http/http-types.ts';
import { jsonRpcError, jsonRpcResult, readJsonRpc } from '../http/jsonrpc-envelope.ts';
import { readZip } from './zip.ts';
import {
  copyOf,
  forgetDatabase,
  dbnamePattern,
  formOf,
  methodNotAllowed,
  missingField,
  notFound,
  redirect,
  required,
  type DatabaseManagerState,
} from './web-database-routes.ts';
import type { ParsedForm } from './form-data.ts';

/** An exception the controller renders: `args[0]` and its `http_status`. */
class Raised extends Error {
  constructor(
    message: string,
    readonly httpStatus = 422,
  ) {
    super(message);
  }
}

/** `odoo.exceptions.AccessDenied(text)`: `http_status = 403`. */
const accessDenied = (text: string) => new Raised(text, 403);

/** The bare naming-issue page (`UnprocessableEntity` raised before the try). */
class NamingIssue extends Error {}

const houston =
  "Houston, we have a database naming issue! Make sure you only use letters, numbers, underscores, hyphens, or dots in the database name, and you'll be golden.";

/** Serves `/web/database/*` as the rewritten manager does. */
export function handleModulesDbManager(state: DatabaseManagerState, req: SimRequest): SimResponse {
  const route = req.path.slice('/web/database/'.length);
  const page = (status: number, error?: string) =>
    htmlResponse(
      status,
      renderManagerPage({
        databases: [...state.databases.keys()],
        insecure: state.manager.masterPassword === 'admin',
        ...(error === undefined ? {} : { error }),
      }),
    );

  if (route === 'manager' || route === 'selector') {
    if (req.method !== 'GET' && req.method !== 'POST') return methodNotAllowed();
    return page(200);
  }
  if (route === 'list') return list(state, req);
  const operations: Record<string, (form: ParsedForm) => SimResponse | undefined> = {
    create: (form) => create(state, form),
    duplicate: (form) => duplicate(state, form),
    drop: (form) => drop(state, form),
    rename: (form) => rename(state, form),
    backup: (form) => backup(state, form, (status, error) => page(status, error)),
    restore: (form) => restore(state, form),
    change_password: (form) => changePassword(state, form),
  };
  const operation = Object.hasOwn(operations, route) ? operations[route] : undefined;
  if (operation === undefined) return notFound();
  if (req.method !== 'POST') return methodNotAllowed();
  const form = formOf(req);
  if (form === undefined) return htmlResponse(400, '');
  try {
    return operation(form) ?? missingField();
  } catch (err) {
    if (err instanceof NamingIssue) return page(422, houston);
    if (!(err instanceof Raised)) throw err;
    // _render_exception: the verb is the path's last segment (change_password keeps its underscore)
    return page(err.httpStatus, `Could not ${route} database. ${err.message}`);
  }
}

/** `verify_db_management_enabled()` and `verify_admin_password(passwd)`. */
function verifyAdminPassword(state: DatabaseManagerState, passwd: string): void {
  if (!passwd || passwd !== state.manager.masterPassword) throw accessDenied('Database management function blocked, bad admin password.');
}
function verifyManagementEnabled(state: DatabaseManagerState): void {
  if (!state.manager.enabled) throw accessDenied('Database management functions blocked, admin disabled database listing.');
}

/** `verify_access(master_pwd)`: listing enabled, the takeover of a default password, the password. */
function verifyAccess(state: DatabaseManagerState, masterPwd: string): void {
  verifyManagementEnabled(state);
  if (state.manager.masterPassword === 'admin' && masterPwd) state.manager.masterPassword = masterPwd;
  verifyAdminPassword(state, masterPwd);
}

/** `/web/database/list`: `db_list()`, whose `list_dbs` checks that listing is enabled. */
function list(state: DatabaseManagerState, req: SimRequest): SimResponse {
  const rpc = readJsonRpc(req);
  if ('status' in rpc) return rpc;
  if (!state.manager.enabled) {
    return jsonRpcError(
      rpc.id,
      new OdooError('odoo.exceptions.AccessDenied', 'Database management functions blocked, admin disabled database listing.', 403),
      'list',
    );
  }
  return jsonRpcResult(rpc.id, [...state.databases.keys()]);
}

/** PostgreSQL's texts (`str(e)` ends with a newline). */
const doesNotExist = (name: string) => new Raised(`database "${name}" does not exist\n`);
const alreadyExists = (name: string) => new Raised(`database "${name}" already exists\n`);

/** `_create_empty_database(name)`: `DatabaseExists`, else an empty database. */
function createEmpty(state: DatabaseManagerState, name: string): void {
  if (state.databases.has(name)) throw new Raised(`Database ${pyRepr(name)} already exists!`);
  state.databases.set(name, emptyDatabase(name));
}

function create(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name', 'lang', 'password');
  if (fields === undefined) return undefined;
  const [master, name, , password] = fields as [string, string, string, string];
  if (!dbnamePattern.test(name)) throw new NamingIssue();
  verifyAccess(state, master);
  const login = form.fields.get('login');
  if (login === undefined) throw new Raised('login');
  if (!form.fields.has('phone')) throw new Raised('phone');
  createEmpty(state, name);
  const db = state.buildDatabase(name);
  const admin = db.model('res.users')?.get(2);
  if (admin !== undefined) {
    admin.v.login = login;
    db.passwords.set(admin.id, password);
  }
  state.databases.set(name, db);
  return redirect('/odoo');
}

/** The naming check is on the SOURCE name; `duplicate()` checks the target itself. */
function duplicate(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name', 'new_name');
  if (fields === undefined) return undefined;
  const [master, name, newName] = fields as [string, string, string];
  if (!dbnamePattern.test(name)) throw new NamingIssue();
  verifyAccess(state, master);
  if (!dbnamePattern.test(newName)) throw new Raised(`Invalid db_name=${pyRepr(newName)}`);
  const source = state.databases.get(name);
  if (source === undefined) throw new Raised(`template database "${name}" does not exist\n`);
  if (state.databases.has(newName)) throw alreadyExists(newName);
  state.databases.set(newName, copyOf(state, source, newName));
  return redirect('/web/database/manager');
}

/** `drop(name)`: no existence guard, `DROP DATABASE` fails for a name that does not exist. */
function drop(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name');
  if (fields === undefined) return undefined;
  const [master, name] = fields as [string, string];
  verifyAccess(state, master);
  if (!state.databases.has(name)) throw doesNotExist(name);
  forgetDatabase(state, name);
  return redirect('/web/database/manager');
}

/** `rename(old, new)`: `ALTER DATABASE old RENAME TO new`. */
function rename(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name', 'new_name');
  if (fields === undefined) return undefined;
  const [master, name, newName] = fields as [string, string, string];
  if (!dbnamePattern.test(name)) throw new NamingIssue();
  verifyAccess(state, master);
  const db = state.databases.get(name);
  if (db === undefined) throw doesNotExist(name);
  if (state.databases.has(newName)) throw alreadyExists(newName);
  state.databases.set(newName, copyOf(state, db, newName));
  forgetDatabase(state, name);
  return redirect('/web/database/manager');
}

/**
 * `backup(master_pwd, name, backup_format='zip')`: the dump is written whole to a temporary file,
 * then sent (`send_file`) — nothing reaches the client before it is complete.
 */
function backup(
  state: DatabaseManagerState,
  form: ParsedForm,
  page: (status: number, error: string) => SimResponse,
): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name');
  if (fields === undefined) return undefined;
  const [master, name] = fields as [string, string];
  const format = form.fields.get('backup_format') ?? 'zip';
  verifyAccess(state, master);
  if (format !== 'zip' && format !== 'dump') throw new Raised(`unknown backup_format: ${pyRepr(format)}`);
  const db = state.databases.get(name);
  if (db === undefined) throw new Raised(`Database ${pyRepr(name)} doesn't exist`);
  const kind: BackupFormat = format;
  const stream = backupStream(db, kind, {
    padding: state.manager.backupPadding,
    failAfter: state.manager.failBackupsAfter,
    release: state.persona.release,
  });
  const ts = state.now().toISOString().replace('T', '_').replace(/:/g, '-').slice(0, 19);
  const written = (async () => {
    const parts: Uint8Array[] = [];
    for await (const part of stream) parts.push(part);
    return Buffer.concat(parts);
  })();
  const deferred = written.then(
    (file): SimResponse => ({
      status: 200,
      headers: {
        'Content-Type': kind === 'zip' ? 'application/zip' : 'application/octet-stream',
        'Content-Disposition': `attachment; filename=${name}_${ts}.${format}`,
        'Content-Length': String(file.length),
      },
      body: '',
      stream: (async function* whole() {
        yield file;
      })(),
    }),
    (err: unknown) => page(422, `Could not backup database. ${err instanceof Error ? err.message : String(err)}`),
  );
  return { status: 200, headers: {}, body: '', deferred };
}

/**
 * `restore(name, dump_path)`: an existing name is refused, then the empty database is created and
 * only then is the file opened as a zip — anything else fails with `File is not a zip file` and
 * leaves that empty database behind.
 */
function restore(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'name');
  const file = form.files.get('backup_file');
  if (fields === undefined || file === undefined) return undefined;
  const [master, name] = fields as [string, string];
  verifyAccess(state, master);
  if (state.databases.has(name)) throw new Raised(`Database ${pyRepr(name)} already exists`);
  createEmpty(state, name);
  const members = zipMembers(file.data);
  if (members === undefined) throw new Raised('File is not a zip file');
  const text = members.get('dump.sql')?.toString('utf8');
  if (text === undefined) throw new Raised("There is no item named 'dump.sql' in the archive");
  const db = state.buildDatabase(name);
  // a dump.sql the simulator cannot load stands for psql failing: CalledProcessError, args[0] its exit status
  if (!loadDatabase(db, text)) throw new Raised('1');
  state.databases.set(name, db);
  return redirect('/web/database/manager');
}

/** `zipfile.ZipFile(path)`: the members, or undefined for a file that is no zip. */
function zipMembers(data: Buffer): Map<string, Buffer> | undefined {
  try {
    return readZip(data);
  } catch {
    return undefined;
  }
}

/** `change_password(master_pwd, master_pwd_new)`: the password only — no listing check, no takeover. */
function changePassword(state: DatabaseManagerState, form: ParsedForm): SimResponse | undefined {
  const fields = required(form, 'master_pwd', 'master_pwd_new');
  if (fields === undefined) return undefined;
  const [master, next] = fields as [string, string];
  verifyAdminPassword(state, master);
  state.manager.masterPassword = next;
  return redirect('/web/database/manager');
}
