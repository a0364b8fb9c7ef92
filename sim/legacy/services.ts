/**
 * The legacy services `common`, `db` and `object` (Odoo: `odoo/http.py` `dispatch_rpc`) answered from the
 * simulator's own model layer: `object` runs `call_kw` on the same in-memory databases JSON-2 uses,
 * `common` checks passwords and API keys like `res.users._check_credentials` (non-interactive), `db`
 * answers the password-less functions and `list_countries`. Each returns a value or throws an
 * OdooError; the route writes either in the endpoint's dialect.
 */
import { needsSecondFactor } from '../auth/login-policy.ts';
import { isTruthy, PyBinary, type Value } from '../../src/value.ts';
import { callKw } from '../http/call-kw.ts';
import type { Database } from '../orm/database.ts';
import { OdooError, accessDenied, missingError, userError } from '../errors.ts';
import type { Json2State } from '../http/json2-route.ts';
import { typeNameOf } from '../../src/python/py-repr.ts';
import { pyRepr, pyStr } from '../python-repr.ts';
import { rpcHelperRefusal } from '../rpc-helper.ts';
import type { DatabaseManagerState } from '../manager/web-database-routes.ts';
import { managerSelect } from './manager-selects.ts';

/** What the services read. */
export type LegacyServiceState = Json2State & DatabaseManagerState;

/** The dotted name Odoo's error bodies give a Python builtin exception (`builtins.` and the class name). */
export const builtinName = (name: string): string => `builtins.${name}`;
/** A Python builtin exception, raised as a 500 would be. */
export const builtin = (name: string, message: string): OdooError => new OdooError(builtinName(name), message, 500);

/** `Registry(db)` for a database that does not exist: what psycopg2 raises. */
function unknownDatabase(name: string): OdooError {
  return new OdooError(
    'psycopg2.OperationalError',
    `connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: FATAL:  database "${name}" does not exist\n`,
    500,
  );
}

/**
 * `Registry(db)`: `assert db_name` for a falsy name, the registries mapping's hash for an unhashable
 * one, `db_name.startswith(...)` in `connection_info_for` for any other non-str.
 */
function database(state: LegacyServiceState, name: Value): Database {
  if (!isTruthy(name)) throw builtin('AssertionError', 'Missing database name');
  unhashable(name);
  if (typeof name !== 'string') throw builtin('AttributeError', `'${typeNameOf(name)}' object has no attribute 'startswith'`);
  const db = state.databases.get(name);
  if (db === undefined) throw unknownDatabase(name);
  return db;
}

/** Python's `hash()` refuses lists, dicts and xmlrpc's Binary (it defines `__eq__` only). */
function unhashable(v: Value): void {
  if (Array.isArray(v) || v instanceof Map || v instanceof PyBinary) throw builtin('TypeError', `unhashable type: '${typeNameOf(v)}'`);
}

/** Python's "takes N positional arguments" and "missing N required positional arguments" texts. */
function bind(fn: string, params: Value[], required: string[], optional: Value[] = []): Value[] {
  const max = required.length + optional.length;
  if (params.length > max) {
    const takes = optional.length === 0 ? `${max}` : `from ${required.length} to ${max}`;
    const s = optional.length === 0 && max === 1 ? '' : 's';
    throw builtin(
      'TypeError',
      `${fn}() takes ${takes} positional argument${s} but ${params.length} ${params.length === 1 ? 'was' : 'were'} given`,
    );
  }
  if (params.length < required.length) {
    const missing = required.slice(params.length).map((n) => `'${n}'`);
    const list =
      missing.length === 1
        ? missing[0]
        : missing.length === 2
          ? missing.join(' and ')
          : `${missing.slice(0, -1).join(', ')}, and ${missing.at(-1)}`;
    throw builtin('TypeError', `${fn}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`);
  }
  return [...params, ...optional.slice(params.length - required.length)];
}

/**
 * `res.users._check_credentials` on a legacy path (Odoo: `res_users.py` `_check_credentials`): the stored password unless the
 * user is API-key-only (`_rpc_api_keys_only`: TOTP, or the 2FA policy), then an `rpc` API key of that user. Returns whether it passes.
 */
function credentialsPass(state: LegacyServiceState, db: Database, uid: number, password: string, login: string): boolean {
  if (password === '') return false;
  const internal = db.model('res.users')?.rows.get(uid)?.v.share !== true;
  if (!needsSecondFactor(db, login, internal, state.totpLogins) && db.passwords.get(uid) === password) return true;
  return state.keys.check(password, 'rpc', db.name) === uid;
}

/** passlib's refusal of a secret that is no str, naming its type as `type(secret)` prints. */
function secretTypeError(secret: Value): OdooError {
  const name = secret instanceof PyBinary ? 'xmlrpc.client.Binary' : typeNameOf(secret);
  return builtin('TypeError', `secret must be unicode or bytes, not ${name}`);
}

/** `common` (Odoo: `odoo/service/common.py`). */
export function dispatchCommon(state: LegacyServiceState, method: string, params: Value[]): Value {
  switch (method) {
    case 'login':
      return authenticate(state, bind('exp_login', params, ['db', 'login', 'password']).slice(0, 3));
    case 'authenticate':
      return authenticate(state, bind('exp_authenticate', params, ['db', 'login', 'password', 'user_agent_env']));
    case 'version':
      bind('exp_version', params, []);
      return new Map<string, Value>([
        ['server_version', state.persona.release.version],
        ['server_version_info', state.persona.release.versionInfo],
        ['server_serie', state.persona.release.serie],
        ['protocol_version', state.persona.release.protocolVersion],
      ]);
    case 'about': {
      const [extended] = bind('exp_about', params, [], [false]);
      const info = 'See http://openerp.com';
      return isTruthy(extended as Value) ? [info, state.persona.release.version] : info;
    }
    case 'set_loglevel':
      bind('exp_set_loglevel', params, ['loglevel'], [null]);
      return true;
    default:
      throw builtin('Exception', `Method not found: ${method}`);
  }
}

/**
 * `exp_authenticate`: the uid, or False for refused credentials (never a fault for those, except
 * passlib's TypeError for a truthy password that is no str, once a user has the login).
 */
function authenticate(state: LegacyServiceState, [dbName, login, password]: Value[]): Value {
  const db = database(state, dbName as Value);
  const user = [...(db.model('res.users')?.rows.values() ?? [])].find((u) => u.v.login === login && u.v.active === true);
  if (user === undefined || !isTruthy(password as Value)) return false;
  if (typeof password !== 'string') throw secretTypeError(password as Value);
  return credentialsPass(state, db, user.id, password, String(login)) ? user.id : false;
}

/** `db` (Odoo: `odoo/service/db.py`): the functions without a master password, and `list_countries`. */
export function dispatchDb(state: LegacyServiceState, method: string, params: Value[]): Value {
  switch (method) {
    case 'list':
      bind('exp_list', params, [], [false]);
      if (!state.manager.enabled) throw accessDenied('Access Denied');
      return [...state.databases.keys()].sort();
    case 'server_version':
      bind('exp_server_version', params, []);
      return state.persona.release.version;
    case 'db_exist': {
      const [name] = bind('exp_db_exist', params, ['db_name']);
      // db_connect opens any database of the cluster, initdb's own too (template0 takes no connections)
      return typeof name === 'string' && (state.databases.has(name) || name === 'postgres' || name === 'template1');
    }
    case 'list_lang':
      bind('exp_list_lang', params, []);
      return managerSelect('lang');
    case 'list_countries': {
      if (params.length === 0) throw builtin('IndexError', 'tuple index out of range');
      checkSuper(state, params[0] as Value);
      bind('exp_list_countries', params.slice(1), []);
      return managerSelect('country_code');
    }
    case 'create_database':
    case 'duplicate_database':
    case 'drop':
    case 'dump':
    case 'restore':
    case 'rename':
    case 'change_admin_password':
    case 'migrate_databases':
      if (params.length === 0) throw builtin('IndexError', 'tuple index out of range');
      checkSuper(state, params[0] as Value);
      throw builtin('NotImplementedError', `the Odoo simulator does not model db.${method} on its legacy endpoint`);
    default:
      throw builtin('KeyError', `Method not found: ${method}`);
  }
}

/** `check_super`: only the master password passes (AccessDenied otherwise). */
function checkSuper(state: LegacyServiceState, password: Value): void {
  if (typeof password !== 'string' || password === '' || password !== state.manager.masterPassword) throw accessDenied('Access Denied');
}

/** `int(uid)` for the usual uid shapes; Python's ValueError for a text that is no int. */
function intOf(v: Value): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v.trim());
  if (typeof v === 'string') throw builtin('ValueError', `invalid literal for int() with base 10: ${pyRepr(v)}`);
  throw builtin(
    'TypeError',
    `int() argument must be a string, a bytes-like object or a real number, not '${Array.isArray(v) ? 'list' : v instanceof Map ? 'dict' : 'NoneType'}'`,
  );
}

/** `object` (Odoo: `odoo/service/model.py`): credentials, then `execute_cr` → `call_kw` with an empty context. */
export function dispatchObject(state: LegacyServiceState, method: string, params: Value[]): Value {
  if (params.length < 5) throw builtin('ValueError', `not enough values to unpack (expected at least 5, got ${params.length})`);
  const [dbName, uidValue, password, model, modelMethod, ...rest] = params as [Value, Value, Value, Value, Value, ...Value[]];
  const uid = intOf(uidValue);
  if (!isTruthy(password)) throw accessDenied('Access Denied');
  // NameError and execute_kw's arity come before the credentials (dict(kw) comes after them)
  let args: Value;
  let kw: Value = new Map();
  if (method === 'execute') args = rest;
  else if (method === 'execute_kw') {
    if (rest.length === 0) throw builtin('ValueError', 'not enough values to unpack (expected 2, got 0)');
    if (rest.length > 2) throw builtin('ValueError', 'too many values to unpack (expected 2)');
    args = rest[0] as Value;
    kw = rest.length === 2 && rest[1] !== null ? (rest[1] as Value) : new Map();
  } else throw builtin('NameError', `Method not available ${method}`);
  const db = database(state, dbName);
  if (uid === 0) throw accessDenied('Access Denied'); // `not uid`: no user 0 is ever loaded
  const user = db.model('res.users')?.get(uid);
  if (user === undefined) throw missingError(`Record does not exist or has been deleted.\n(Record: res.users(${uid},), User: ${uid})`);
  if (typeof password !== 'string') throw secretTypeError(password);
  if (user.v.active !== true || !credentialsPass(state, db, uid, password, String(user.v.login))) throw accessDenied('Access Denied');
  unhashable(model);
  if (typeof model !== 'string' || db.model(model) === undefined) throw userError(`Object ${pyStr(model)} doesn't exist`);
  // rpc_helper's patched execute_cr, between the model look-up and call_kw
  const refused = rpcHelperRefusal(db, model, modelMethod);
  if (refused !== undefined) throw refused;
  if (typeof modelMethod !== 'string') throw builtin('AttributeError', `'${typeNameOf(modelMethod)}' object has no attribute 'startswith'`);
  if (!(kw instanceof Map)) throw builtin('TypeError', `argument after ** must be a mapping, not ${pyTypeOf(kw)}`);
  const ctx = { db, uid, keys: state.keys, now: state.now(), methods: state.methods };
  return callKw(ctx, model, modelMethod, args, kw);
}

function pyTypeOf(v: Value): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'int';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'dict';
  return 'float';
}
