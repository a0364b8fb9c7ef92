/**
 * `odoo.service.model.call_kw` as `/web/dataset/call_kw` runs it (Odoo: `odoo/service/model.py`, `addons/web/controllers/dataset.py`):
 * positional `args` (ids first for record methods), `kwargs` with `context` popped and applied, and the `create` rule (`result.id` for a
 * dict, `result.ids` for a list).
 */
import { hasNonStringNames, isTruthy, type Struct, type Value } from '../../src/value.ts';
import { contextFrom } from '../orm/context.ts';
import { browseIds, type DispatchContext, invokeMethod, resolveMethod } from './dispatch.ts';
import { OdooError, typeError } from '../errors.ts';
import { typeNameOf } from '../../src/python/py-repr.ts';
import { reprString } from '../python-repr.ts';
import type { MethodSpec } from '../seed.ts';

const builtin = (cls: string, message: string): OdooError => new OdooError(`builtins.${cls}`, message, 500);

/** `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'`: how CPython lists missing arguments. */
function nameList(names: string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  if (quoted.length <= 2) return quoted.join(' and ');
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

/**
 * Positional arguments → named ones, in the method's parameter order, with the TypeErrors a Python
 * call raises first (too many positionals, then multiple values, then missing required ones; `self`
 * counted as Python counts it).
 */
function nameArguments(spec: MethodSpec, positional: Value[], kwargs: Struct): Struct {
  const slots = spec.params.filter((p) => p.kind === 'POSITIONAL_OR_KEYWORD' || p.kind === 'POSITIONAL_ONLY');
  if (positional.length > slots.length && !spec.params.some((p) => p.kind === 'VAR_POSITIONAL')) {
    const required = slots.filter((p) => p.default === null).length;
    const takes = required === slots.length ? `${slots.length + 1}` : `from ${required + 1} to ${slots.length + 1}`;
    throw typeError(`${spec.qualname}() takes ${takes} positional arguments but ${positional.length + 1} were given`);
  }
  const named: Struct = new Map();
  positional.forEach((v, i) => {
    const p = slots[i];
    if (p === undefined) return;
    if (kwargs.has(p.name) && p.kind !== 'POSITIONAL_ONLY')
      throw typeError(`${spec.qualname}() got multiple values for argument '${p.name}'`);
    named.set(p.name, v);
  });
  const accepts = new Set(spec.params.filter((p) => p.kind === 'POSITIONAL_OR_KEYWORD' || p.kind === 'KEYWORD_ONLY').map((p) => p.name));
  const extra = spec.params.some((p) => p.kind === 'VAR_KEYWORD');
  for (const [k, v] of kwargs) {
    if (!accepts.has(k) && !extra) throw typeError(`${spec.qualname}() got an unexpected keyword argument '${k}'`);
    named.set(k, v);
  }
  const missing = slots.filter((p) => p.default === null && !named.has(p.name)).map((p) => p.name);
  if (missing.length > 0) {
    throw typeError(
      `${spec.qualname}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${nameList(missing)}`,
    );
  }
  const missingKw = spec.params.filter((p) => p.kind === 'KEYWORD_ONLY' && p.default === null && !named.has(p.name)).map((p) => p.name);
  if (missingKw.length > 0) {
    throw typeError(
      `${spec.qualname}() missing ${missingKw.length} required keyword-only argument${missingKw.length === 1 ? '' : 's'}: ${nameList(missingKw)}`,
    );
  }
  return named;
}

/** `*args`: a list as is, a str as its chars, a dict as its keys; anything else is not iterable. */
function unpackArgs(args: Value): Value[] {
  if (Array.isArray(args)) return args;
  if (typeof args === 'string') return [...args];
  if (args instanceof Map) return [...args.keys()];
  throw typeError(`Value after * must be an iterable, not ${typeNameOf(args)}`);
}

/**
 * `ids, args = args[0], args[1:]` on whatever `args` is: a dict has no key 0 (its keys are str),
 * an empty str or list no item 0, a scalar no `[]`.
 */
function splitIds(args: Value): [Value, Value[]] {
  if (Array.isArray(args)) {
    if (args.length === 0) throw builtin('IndexError', 'list index out of range');
    return [args[0] as Value, args.slice(1)];
  }
  if (typeof args === 'string') {
    if (args === '') throw builtin('IndexError', 'string index out of range');
    return [args[0] as string, [...args.slice(1)]];
  }
  if (args instanceof Map) throw builtin('KeyError', '0');
  throw typeError(`'${typeNameOf(args)}' object is not subscriptable`);
}

/** Runs `model.method(*args, **kwargs)` for the session user; throws an OdooError as Odoo raises. */
export function callKw(ctx: DispatchContext, modelName: string, methodName: string, args: Value, kwargs: Struct): Value {
  const model = ctx.db.model(modelName);
  if (model === undefined) throw builtin('KeyError', reprString(modelName));
  let spec: MethodSpec;
  try {
    spec = resolveMethod(ctx, modelName, methodName);
  } catch (err) {
    // get_public_method raises AttributeError; JSON-2 turns it into a 404, call_kw does not
    if (err instanceof OdooError && err.status === 404) throw builtin('AttributeError', err.message);
    throw err;
  }
  let ids: Value[] = [];
  let positional: Value[];
  if (spec.apiModel) positional = unpackArgs(args);
  else {
    const [first, rest] = splitIds(args);
    ids = browseIds(first);
    positional = rest;
  }
  // `recs.with_context(kwargs.pop('context', None) or {})` runs `dict(context)` before the call
  const rest = new Map(kwargs);
  const context = contextFrom(isTruthy(rest.get('context') ?? null) ? rest.get('context') : null);
  rest.delete('context');
  // `method(recs, *args, **kwargs)`: CPython checks the keyword names before binding them
  if (hasNonStringNames(kwargs)) throw typeError('keywords must be strings');
  const named = nameArguments(spec, positional, rest);
  let result: Value;
  try {
    result = invokeMethod(ctx, model, methodName, spec, ids, named, context);
  } catch (err) {
    // a binding refusal is a TypeError here, not JSON-2's 422
    if (err instanceof OdooError && err.odooName === 'werkzeug.exceptions.UnprocessableEntity')
      throw typeError(`${spec.qualname}() ${err.message}`);
    throw err;
  }
  if (methodName === 'create' && Array.isArray(result))
    return positional[0] instanceof Map && result.length === 1 ? (result[0] as Value) : result;
  return result;
}
