/**
 * The legacy `db` service (`odoo/service/db.py`, Odoo: `odoo/service/db.py`; docs/architecture.md §3 db) over the
 * `/web/database/*` controllers. Odoo's dispatch order: an unknown method is a KeyError, then the
 * master password (`params[0]`, `check_super`) for every function but `db_exist`, `list`,
 * `list_lang` and `server_version`, then the function's arity, then the function. A master password
 * is forwarded only under the rule of `master-password.ts`.
 */
import type { CallOrigin, LegacyCall } from '../call.ts';
import { LegacyError, pythonError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { floatRepr } from '../python/float-repr.ts';
import { arityError } from '../python/call-arity.ts';
import { pyRepr } from '../python/int-text.ts';
import { starArgsError, subscriptError } from '../python/unpack-errors.ts';
import type { FormFields, Json2Call, WebDatabaseClient } from '../upstream/index.ts';
import { isTruthy, PyBinary, PyFloat, pyTypeName, StreamedString, type CallResult, type Value } from '../value.ts';
import { base64Chunks, base64Decoded } from './base64-stream.ts';
import { travelsInHeader } from './database-name.ts';
import { legacyFunction } from './surface.ts';
import { createDbOptions } from './db-options.ts';
import { createMasterPassword } from './master-password.ts';
import { backupKindOf, cleanBase64 } from './restore-payload.ts';
import { whileRunning, withProgress } from './transfer-progress.ts';
import type { VersionCache } from './version-cache.ts';

/** What the service needs. */
export interface DbDeps {
  web: WebDatabaseClient;
  versions: VersionCache;
  /**
   * Resolves when `targetDatabase` exists upstream; rejects with the unknown-database fault when not.
   * The `db` service serves no database of its own: the one it asks about is its call's argument.
   */
  probeDatabase(targetDatabase: string, origin: CallOrigin): Promise<void>;
  /** JSON-2, for the language and country lists when the manager page is disabled. */
  json2(call: Json2Call, origin: CallOrigin): Promise<Value>;
  serviceKey: string | undefined;
  serviceDb: string | undefined;
  log: Logger;
  /** Progress lines of dumps and restores: interval and clock (tests). */
  progress?: { intervalMs?: number; now?: () => number };
}

/** A legacy function the gateway cannot offer over what Odoo 19+ still serves. */
function notSupported(message: string): LegacyError {
  return pythonError('legacy_rpc_gateway.NotSupported', message);
}

/** The names `/web/database/create` and `duplicate` accept (`DBNAME_PATTERN`, addons/web/controllers/database.py). */
const managerNamePattern = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/;

/**
 * Legacy `create_database`/`duplicate_database` take any name PostgreSQL takes (`'x y'`, one
 * letter); the database manager, the gateway's only way to make one, refuses the others with a page
 * that says nothing useful ("'NoneType' object has no attribute 'uid'"): say why instead.
 */
function checkManagerName(name: string, fn: string): void {
  if (!managerNamePattern.test(name))
    throw notSupported(
      `db.${fn}: Odoo's database manager, through which the gateway creates databases, accepts only names of letters, digits, '_', '-' and '.' (at least 2, not starting with '_', '-' or '.'); nothing was created`,
    );
}

/** A pg_dump custom-format backup, which the rewritten database manager cannot restore. */
function dumpNotRestorable(): LegacyError {
  return notSupported(
    "db.restore of a pg_dump custom-format backup: this Odoo's database manager restores zip backups only (dump the database with format 'zip'); nothing was created",
  );
}

/**
 * A legacy argument as the form field the controller reads: text as is, `None` as empty, other
 * scalars as Python's `str()` prints them.
 */
function formText(v: Value, param: string): string {
  if (typeof v === 'string') return v;
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof PyFloat) return floatRepr(v.value);
  throw pythonError('TypeError', `${param} must be a string, not ${pyTypeName(v)}`);
}

/**
 * The databases initdb creates in every PostgreSQL cluster, and whether Odoo's `db_connect` opens
 * them (`template0` takes no connections). Asked over JSON-2 they would make Odoo load a registry
 * for a database that is no Odoo database, and answer 500.
 */
const clusterDatabases = new Map<string, boolean>([
  ['postgres', true],
  ['template1', true],
  ['template0', false],
]);

/** True for the fault legacy RPC gives a database that does not exist. */
function isUnknownDatabase(err: unknown): boolean {
  return err instanceof LegacyError && err.name === 'psycopg2.OperationalError';
}

/** Creates the `db` dispatcher. Rejects with LegacyError exactly where Odoo raises. */
export function createDbService(deps: DbDeps) {
  const { web, log } = deps;
  const master = createMasterPassword(web);
  const options = createDbOptions(deps);
  const progress = (origin: CallOrigin, operation: string) => ({ log, requestId: origin.requestId, operation, ...deps.progress });

  async function exists(name: Value, origin: CallOrigin): Promise<boolean> {
    // A name no header carries exactly would be answered for another database (or Odoo's only one).
    if (typeof name !== 'string' || !travelsInHeader(name)) return false;
    const maintenance = clusterDatabases.get(name);
    if (maintenance !== undefined) return maintenance;
    try {
      await deps.probeDatabase(name, origin);
      return true;
    } catch (err) {
      if (isUnknownDatabase(err)) return false;
      throw err;
    }
  }

  /** `exp_create_database(db_name, demo, lang, user_password='admin', login='admin', country_code=None, phone=None)` */
  async function createDatabase(passwd: Value, args: Value[], origin: CallOrigin): Promise<Value> {
    const [name = null, demo = null, lang = null, userPassword = 'admin', login = 'admin', countryCode = null, phone = null] = args;
    const password = await master.forwardable(passwd, origin);
    checkManagerName(formText(name, 'db_name'), 'create_database');
    const fields: [string, string][] = [
      ['master_pwd', password],
      ['name', formText(name, 'db_name')],
      ['lang', formText(lang, 'lang')],
      ['password', formText(userPassword, 'user_password')],
      ['login', formText(login, 'login')],
      // the controller reads post['phone']: always sent
      ['phone', formText(phone, 'phone')],
    ];
    // bool(post.get('demo')) and `post.get('country_code') or False`: sent only when set
    if (isTruthy(demo)) fields.push(['demo', '1']);
    if (isTruthy(countryCode)) fields.push(['country_code', formText(countryCode, 'country_code')]);
    await web.submit('create', fields, formText(name, 'db_name'), origin);
    return true;
  }

  /** `exp_duplicate_database(db_original_name, db_name, neutralize_database=False)` */
  async function duplicateDatabase(passwd: Value, args: Value[], origin: CallOrigin): Promise<Value> {
    const [source = null, target = null, neutralize = false] = args;
    const password = await master.forwardable(passwd, origin);
    checkManagerName(formText(target, 'db_name'), 'duplicate_database');
    const fields: [string, string][] = [
      ['master_pwd', password],
      ['name', formText(source, 'db_original_name')],
      ['new_name', formText(target, 'db_name')],
    ];
    // the controller passes the raw string on: any non-empty value neutralizes
    if (isTruthy(neutralize)) fields.push(['neutralize_database', '1']);
    await web.submit('duplicate', fields, formText(source, 'db_original_name'), origin);
    return true;
  }

  /** `exp_drop(db_name)`: a name not listed is `False`, and nothing is sent to drop it. */
  async function drop(passwd: Value, [name = null]: Value[], origin: CallOrigin): Promise<Value> {
    const password = await master.verify(passwd, origin);
    if (typeof name !== 'string' || !(await web.list(origin)).includes(name)) return false;
    await web.submit(
      'drop',
      [
        ['master_pwd', password],
        ['name', name],
      ],
      name,
      origin,
    );
    return true;
  }

  /** `exp_dump(db_name, format)`: the base64 string, streamed while the backup is read. */
  async function dump(passwd: Value, [name = null, format = null]: Value[], origin: CallOrigin): Promise<CallResult> {
    const password = await master.forwardable(passwd, origin);
    const db = formText(name, 'db_name');
    // dump_db: 'zip' is a zip with the filestore, anything else pg_dump's custom format
    const fields: FormFields = [
      ['master_pwd', password],
      ['name', db],
      ['backup_format', format === 'zip' ? 'zip' : 'dump'],
    ];
    let bytes: AsyncIterable<Uint8Array>;
    try {
      bytes = await web.backup(fields, db, origin);
    } catch (err) {
      // dump_db of a database that does not exist: a zip fails to connect to it, while the custom
      // format copies pg_dump's empty output (pg_dump's own error goes to Odoo's stderr)
      if (format !== 'zip' && isUnknownDatabase(err)) return '';
      throw err;
    }
    return new StreamedString(base64Chunks(withProgress(bytes, progress(origin, 'dump'))));
  }

  /**
   * `exp_restore(db_name, data, copy=False)`: the payload is checked before anything is created
   * (Odoo creates the database first and leaves it behind on a bad payload), then decoded and
   * uploaded in slices.
   */
  async function restore(passwd: Value, [name = null, data = null, copy = false]: Value[], origin: CallOrigin): Promise<Value> {
    const password = await master.verify(passwd, origin);
    if (typeof data !== 'string' && !(data instanceof PyBinary)) {
      throw pythonError('TypeError', `argument should be a bytes-like object or ASCII string, not '${pyTypeName(data)}'`);
    }
    const base64 = cleanBase64(typeof data === 'string' ? data : data.base64);
    const kind = backupKindOf(base64);
    // the rewritten manager restores zip files only, and creates the database before it finds out
    if (kind === undefined || (kind === 'dump' && (await web.managerKind(origin)) === 'modules-db')) {
      // restore_db refuses an existing name before it tries the payload
      if (await exists(name, origin)) throw pythonError('Exception', 'Database already exists');
      throw kind === undefined ? pythonError('Exception', "Couldn't restore database") : dumpNotRestorable();
    }
    const db = formText(name, 'db_name');
    const fields: FormFields = [
      ['master_pwd', password],
      ['name', db],
      ['copy', isTruthy(copy) ? 'true' : 'false'],
    ];
    const file = {
      field: 'backup_file',
      filename: `${db}.${kind}`,
      type: kind === 'zip' ? 'application/zip' : 'application/octet-stream',
      chunks: base64Decoded(base64),
    };
    const size = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
    await whileRunning(web.restore(fields, file, db, origin), size, progress(origin, 'restore'));
    return true;
  }

  /** `exp_rename(old_name, new_name)`: only where the upstream has `/web/database/rename`. */
  async function rename(passwd: Value, [oldName = null, newName = null]: Value[], origin: CallOrigin): Promise<Value> {
    const password = await master.verify(passwd, origin);
    if ((await web.managerKind(origin)) !== 'modules-db') {
      throw notSupported(
        'db.rename has no replacement on this Odoo: it serves no /web/database/rename (Odoo 19.0 cannot rename a database over HTTP)',
      );
    }
    const db = formText(oldName, 'old_name');
    await web.submit(
      'rename',
      [
        ['master_pwd', password],
        ['name', db],
        ['new_name', formText(newName, 'new_name')],
      ],
      db,
      origin,
    );
    return true;
  }

  /** `exp_change_admin_password(new_password)` */
  async function changeAdminPassword(passwd: Value, [newPassword = null]: Value[], origin: CallOrigin): Promise<Value> {
    if (typeof newPassword !== 'string') {
      await master.verify(passwd, origin);
      // config.set_admin_password hashes it with passlib
      throw pythonError('TypeError', `secret must be unicode or bytes, not ${pyTypeName(newPassword)}`);
    }
    const password = await master.forwardable(passwd, origin);
    await web.submit(
      'change_password',
      [
        ['master_pwd', password],
        ['master_pwd_new', newPassword],
      ],
      undefined,
      origin,
    );
    return true;
  }

  /** `exp_list_countries()`: the master password, then the manager page's countries. */
  async function listCountries(passwd: Value, origin: CallOrigin): Promise<Value> {
    const page = (await web.manager(origin)) ?? null;
    await master.verify(passwd, origin, page);
    return options.countries(origin, page);
  }

  async function run(method: string, passwd: Value, args: Value[], origin: CallOrigin): Promise<CallResult> {
    switch (method) {
      case 'create_database':
        return createDatabase(passwd, args, origin);
      case 'duplicate_database':
        return duplicateDatabase(passwd, args, origin);
      case 'drop':
        return drop(passwd, args, origin);
      case 'dump':
        return dump(passwd, args, origin);
      case 'restore':
        return restore(passwd, args, origin);
      case 'rename':
        return rename(passwd, args, origin);
      case 'change_admin_password':
        return changeAdminPassword(passwd, args, origin);
      case 'migrate_databases':
        await master.verify(passwd, origin);
        throw notSupported('db.migrate_databases has no replacement in Odoo 19+: update the modules on the server (odoo-bin -u) instead');
      case 'list_countries':
        return listCountries(passwd, origin);
      case 'db_exist':
        return exists(args[0] ?? null, origin);
      case 'list':
        return web.list(origin);
      case 'list_lang':
        return options.langs(origin);
      default: // server_version
        return deps.versions.serverVersion(origin);
    }
  }

  return async function dispatchDb(call: LegacyCall, origin: CallOrigin): Promise<CallResult> {
    const row = legacyFunction('db', call.method);
    const fn = row?.signature;
    if (row === undefined || fn === undefined) {
      const text = `Method not found: ${call.method}`;
      throw pythonError('KeyError', text, pyRepr(text));
    }
    // /jsonrpc's args null or a scalar: `exp_<method>(*params)`, or `params[0]` behind the master password.
    const notIterable = call.argsNotIterable;
    if (notIterable !== undefined) {
      throw pythonError('TypeError', row.master ? subscriptError(notIterable) : starArgsError(`odoo.service.db.${fn.name}`, notIterable));
    }
    if (!row.master) {
      const wrongArity = arityError(fn, call.params.length);
      if (wrongArity) throw pythonError('TypeError', wrongArity);
      return run(call.method, null, call.params, origin);
    }
    // passwd = params[0]; params = params[1:]; check_super(passwd); exp_<method>(*params)
    // XML-RPC params are a tuple (xmlrpc.client.loads), JSON-RPC args a list: Python names the type.
    if (call.params.length === 0) throw pythonError('IndexError', `${call.dialect === 'jsonrpc' ? 'list' : 'tuple'} index out of range`);
    const [passwd = null, ...args] = call.params;
    const wrongArity = arityError(fn, args.length);
    if (wrongArity) {
      await master.verify(passwd, origin);
      throw pythonError('TypeError', wrongArity);
    }
    return run(call.method, passwd, args, origin);
  };
}
