/**
 * The OCA module `rpc_helper` (OCA/server-tools, 18.0 the nearest to 19.0) as data a test installs in
 * one database: `ir.module.module` lists it, and `ir.model` gains its stored `rpc_config_edit`, a
 * JSON text `{"disable": [...]}` per model. Its only effect is on the legacy `object` service: the
 * module patches `odoo.service.model.execute_cr`, so after the model look-up and before `call_kw`
 * a refused call raises `UserError("RPC call on <model> is not allowed")`. JSON-2 and the web client
 * never run `execute_cr`, so they are not refused. (The class decorator `@disable_rpc` is Python
 * code, not data: the simulator does not model it.)
 *
 * The simulator's databases hold no `ir.module.module` until a test installs a module this way:
 * an upstream without that model is one where no module is installed.
 */
import { fieldFromAttrs, fieldAttrs } from './orm/fields.ts';
import type { Database } from './orm/database.ts';
import { OdooError, userError } from './errors.ts';
import type { MethodSpec } from './seed.ts';
import { ModelStore } from './orm/model.ts';
import { sharedMethodSpecs } from './seed.ts';
import type { Value } from '../src/value.ts';

/** States in which a module's Python code is loaded (its post_load hook ran). */
const loadedStates = new Set(['installed', 'to upgrade', 'to remove']);

/** Adds `ir.module.module` (name, state) to `db` and its methods to the simulator's table, once. */
function moduleStore(db: Database, methods: Map<string, Map<string, MethodSpec>>): ModelStore {
  if (!methods.has('ir.module.module')) methods.set('ir.module.module', sharedMethodSpecs());
  let store = db.model('ir.module.module');
  if (store === undefined) {
    const fields = new Map(
      [
        ['id', fieldAttrs('integer', 'ID', { readonly: true })],
        ['name', fieldAttrs('char', 'Technical Name', { required: true })],
        ['state', fieldAttrs('selection', 'Status')],
      ].map(([name, a]) => [name as string, fieldFromAttrs(name as string, a as Map<string, Value>)]),
    );
    store = new ModelStore('ir.module.module', 'Module', fields, 'name', true);
    db.models.set('ir.module.module', store);
  }
  return store;
}

/** Sets the state of module `name` in `db` (`installed`, `uninstalled`…), adding its row when new. */
export function setModuleState(db: Database, methods: Map<string, Map<string, MethodSpec>>, name: string, state: string): void {
  const store = moduleStore(db, methods);
  const row = [...store.rows.values()].find((r) => r.v.name === name);
  if (row !== undefined) row.v.state = state;
  else store.insert({ id: store.nextId, v: { name, state }, extra: {} });
  if (name === 'rpc_helper' && loadedStates.has(state)) addRpcConfigField(db);
  db.bump();
}

function moduleLoaded(db: Database, name: string): boolean {
  const store = db.model('ir.module.module');
  if (store === undefined) return false;
  return [...store.rows.values()].some((r) => r.v.name === name && loadedStates.has(String(r.v.state)));
}

/** `ir.model.rpc_config_edit` (a stored Text field of rpc_helper), on a copy of the store's field list. */
function addRpcConfigField(db: Database): void {
  const old = db.model('ir.model');
  if (old === undefined || old.fields.has('rpc_config_edit')) return;
  const fields = new Map(old.fields);
  fields.set('rpc_config_edit', fieldFromAttrs('rpc_config_edit', fieldAttrs('text', 'Rpc Config Edit')));
  const store = new ModelStore(old.name, old.description, fields, old.order, old.seeded);
  for (const row of old.rows.values()) store.insert({ ...row, v: { rpc_config_edit: false, ...row.v } });
  db.models.set('ir.model', store);
}

/** Writes `rpc_config_edit` of `model`'s ir.model row (rpc_helper must be installed); `false` clears it. */
export function setRpcConfig(db: Database, model: string, text: string | false): void {
  const store = db.model('ir.model');
  if (store === undefined || !store.fields.has('rpc_config_edit')) throw new Error(`rpc_helper is not installed in ${db.name}`);
  const row = [...store.rows.values()].find((r) => r.v.model === model);
  if (row === undefined) throw new Error(`no ir.model row for ${model}`);
  // the module's inverse stores the text re-dumped; json.loads must accept it
  if (text !== false) JSON.parse(text);
  row.v.rpc_config_edit = text;
  db.bump();
}

/**
 * rpc_helper's `_rpc_allowed` (patch.py): `ir.model._get_rpc_config(model).get("disable")`, then
 * `"all" not in config and method not in config` (Python's `in`: a list's items, a str's
 * substrings, a dict's keys). Undefined when the call may run.
 */
export function rpcHelperRefusal(db: Database, model: string, method: Value): OdooError | undefined {
  if (!moduleLoaded(db, 'rpc_helper')) return undefined;
  const row = [...(db.model('ir.model')?.rows.values() ?? [])].find((r) => r.v.model === model);
  const text = row?.v.rpc_config_edit;
  const config: unknown = typeof text === 'string' && text !== '' ? JSON.parse(text) : {};
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return undefined;
  const disable = (config as Record<string, unknown>).disable;
  if (disable === undefined || disable === null) return undefined;
  const has = (item: Value): boolean => {
    if (Array.isArray(disable)) return typeof item === 'string' && disable.includes(item);
    if (typeof disable === 'string') return typeof item === 'string' && disable.includes(item);
    if (typeof disable === 'object') return typeof item === 'string' && Object.hasOwn(disable, item);
    const type = typeof disable === 'boolean' ? 'bool' : Number.isInteger(disable) ? 'int' : 'float';
    throw new OdooError('builtins.TypeError', `argument of type '${type}' is not iterable`, 500);
  };
  return has('all') || has(method) ? userError(`RPC call on ${model} is not allowed`) : undefined;
}
