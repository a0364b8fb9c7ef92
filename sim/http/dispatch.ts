/**
 * `web_json_2_rpc` (addons/rpc/controllers/json2.py, Odoo: `addons/rpc/controllers/json2.py`): model lookup (404),
 * `with_context(context)`, `get_public_method` (403 private / 404 unknown), ids on `@api.model`
 * methods (422), `signature.bind` (422), then the call inside one transaction; recordsets → ids.
 */
import { isTruthy, type Struct, type Value } from '../../src/value.ts';
import { syncApiKeys } from '../auth/apikeys-model.ts';
import { bindArguments } from '../methods/binding.ts';
import { checkLang, contextFrom } from '../orm/context.ts';
import type { Database } from '../orm/database.ts';
import { Env } from '../orm/env.ts';
import { accessError, notFound, notImplemented, typeError, unprocessable } from '../errors.ts';
import type { KeyStore } from '../auth/key-store.ts';
import { Call, type MethodImpl } from '../methods/call.ts';
import { methodImpl } from '../methods/index.ts';
import type { ModelStore } from '../orm/model.ts';
import { reprString } from '../python-repr.ts';
import type { SimRequestState } from '../auth/request-state.ts';
import type { MethodSpec } from '../seed.ts';
import { Transaction } from '../orm/transaction.ts';

/** `@api.private` BaseModel methods (Odoo: `odoo/orm/models.py` "PRIV"): they exist, so they answer 403, not 404. */
export const privateMethods: ReadonlySet<string> = new Set([
  'browse',
  'check_access',
  'concat',
  'ensure_one',
  'exists',
  'fetch',
  'filtered',
  'filtered_domain',
  'flush_model',
  'flush_recordset',
  'grouped',
  'invalidate_model',
  'invalidate_recordset',
  'lock_for_update',
  'mapped',
  'modified',
  'new',
  'search_fetch',
  'sorted',
  'sudo',
  'try_lock_for_update',
  'union',
  'with_company',
  'with_context',
  'with_env',
  'with_prefetch',
  'with_user',
]);

export interface DispatchContext {
  db: Database;
  uid: number;
  keys: KeyStore;
  now: Date;
  methods: Map<string, Map<string, MethodSpec>>;
  /** Odoo's `request` (its web session): the key flows need it. */
  request?: SimRequestState;
}

/** `Model.browse(ids)`: an int, a list, or any iterable (whose items then match nothing). */
export function browseIds(ids: Value | undefined): Value[] {
  if (ids === undefined || !isTruthy(ids)) return [];
  if (typeof ids === 'number' || typeof ids === 'bigint') return [Number(ids)];
  if (Array.isArray(ids)) return ids.map((id) => (typeof id === 'bigint' ? Number(id) : id));
  if (typeof ids === 'string') return [...ids];
  if (ids instanceof Map) return [...ids.keys()];
  throw typeError(`'${typeof ids === 'boolean' ? 'bool' : 'float'}' object is not iterable`);
}

/** `get_public_method`: 403 for private names, 404 for unknown ones. */
export function resolveMethod(ctx: DispatchContext, model: string, method: string): MethodSpec {
  const privateError = () => accessError(`Private methods (such as '${model}.${method}') cannot be called remotely.`);
  if (method.startsWith('_')) throw privateError();
  const spec = ctx.methods.get(model)?.get(method);
  if (spec !== undefined) return spec;
  if (privateMethods.has(method)) throw privateError();
  throw notFound(`The method '${model}.${method}' does not exist`);
}

/** Runs one JSON-2 call; throws an OdooError for every error answer. */
export function dispatchJson2(ctx: DispatchContext, modelName: string, methodName: string, params: Struct): Value {
  const model = ctx.db.model(modelName);
  if (model === undefined) throw notFound(`the model ${reprString(modelName)} does not exist`);
  const context = contextFrom(params.get('context'));
  const spec = resolveMethod(ctx, modelName, methodName);
  const rawIds = params.get('ids');
  if (spec.apiModel && rawIds !== undefined && isTruthy(rawIds)) {
    throw unprocessable(`cannot call ${modelName}.${methodName} with ids`);
  }
  const ids = spec.apiModel ? [] : browseIds(rawIds);
  const kwargs = new Map(params);
  kwargs.delete('ids');
  kwargs.delete('context');
  return invokeMethod(ctx, model, methodName, spec, ids, kwargs, context);
}

/** Binds named arguments and runs the method in one transaction (shared with `call_kw`). */
export function invokeMethod(
  ctx: DispatchContext,
  model: ModelStore,
  methodName: string,
  spec: MethodSpec,
  ids: Value[],
  kwargs: Struct,
  context: Struct,
): Value {
  const bound = bindArguments(spec.params, kwargs);
  const impl: MethodImpl | undefined = methodImpl(model.name, model.seeded, methodName);
  if (impl === undefined) {
    throw notImplemented(`the Odoo simulator does not model ${model.name}.${methodName} (${spec.qualname})`);
  }
  const tx = new Transaction(ctx.db);
  const env = new Env(ctx.db, ctx.uid, context, ctx.now, tx, ctx.request);
  checkLang(env);
  if (model.name === 'res.users.apikeys') syncApiKeys(ctx.db, ctx.keys);
  try {
    return impl(new Call(env, model, ids, methodName, spec, bound.args, bound.extra));
  } catch (err) {
    tx.rollback();
    throw err;
  }
}
