/**
 * `fields_get`, `default_get`, `has_access` and the deprecated `check_access_rights` (returns None
 * when allowed and `raise_exception` is true), `check_access_rule` and `check_field_access_rights`
 * (Odoo: `odoo/orm/models.py`).
 */
import type { Struct, Value } from '../../src/value.ts';
import {
  accessCheck,
  checkFieldAccess,
  checkModelAccess,
  hasFieldAccess,
  hasModelAccess,
  type Operation,
  operations,
} from '../orm/access.ts';
import { assertionError, typeError } from '../errors.ts';
import { aggregatorOf } from '../orm/fields.ts';
import { rulesFor } from '../rules/index.ts';
import { type Call, listArg, type MethodImpl, namesArg } from './call.ts';

export const fieldsGet: MethodImpl = (call) => {
  const allfields = namesArg(call.arg('allfields'), 'allfields');
  const attributes = namesArg(call.arg('attributes'), 'attributes');
  const out: Struct = new Map();
  for (const f of call.model.fields.values()) {
    if (allfields !== undefined && allfields.length > 0 && !allfields.includes(f.name)) continue;
    if (!hasFieldAccess(call.env, call.model, f)) continue;
    const attrs: Struct = new Map();
    for (const [k, v] of f.attrs) if (attributes === undefined || attributes.includes(k)) attrs.set(k, v);
    // the seed recorded no `aggregator`: given when asked for by name, from Odoo's default
    const aggregator = aggregatorOf(f);
    if (attributes?.includes('aggregator') === true && !attrs.has('aggregator') && aggregator !== undefined)
      attrs.set('aggregator', aggregator);
    out.set(f.name, attrs);
  }
  return out;
};

export const defaultGet: MethodImpl = (call) => {
  const { env, model } = call;
  const rules = rulesFor(model.name);
  const out: Struct = new Map();
  for (const name of namesArg(call.arg('fields'), 'fields') ?? []) {
    if (!model.fields.has(name)) continue;
    const fromContext = env.context.get(`default_${name}`);
    if (fromContext !== undefined) out.set(name, fromContext);
    else if (rules.defaults?.[name] !== undefined) out.set(name, rules.defaults[name](env));
    else if (name === 'active') out.set(name, true);
  }
  return out;
};

function operationArg(call: Call): Operation {
  const op = call.arg('operation');
  if (typeof op !== 'string' || !operations.includes(op as Operation)) throw assertionError('Invalid access mode');
  return op as Operation;
}

/** `has_access(operation)`: `not self._check_access(operation)`. */
export const hasAccess: MethodImpl = (call) => accessCheck(call.env, call.model, call.ids, operationArg(call)) === undefined;

/** `check_access_rule(operation)`: `check_access`, which raises what `_check_access` makes. */
export const checkAccessRule: MethodImpl = (call) => {
  const refused = accessCheck(call.env, call.model, call.ids, operationArg(call));
  if (refused !== undefined) throw refused();
  return null;
};

/**
 * `check_field_access_rights(operation, field_names)`: no names, those of the fields the caller may
 * access; else each known name checked in turn (unknown ones are skipped) and the names returned.
 */
export const checkFieldAccessRights: MethodImpl = (call) => {
  const { env, model } = call;
  const operation = call.arg('operation');
  const given = call.arg('field_names');
  if (
    given === null ||
    given === false ||
    given === '' ||
    given === 0 ||
    (Array.isArray(given) && given.length === 0) ||
    (given instanceof Map && given.size === 0)
  )
    return [...model.fields.values()].filter((f) => hasFieldAccess(env, model, f)).map((f) => f.name);
  for (const name of listArg(given, 'field_names') ?? []) {
    if (Array.isArray(name) || name instanceof Map) throw typeError(`unhashable type: '${Array.isArray(name) ? 'list' : 'dict'}'`);
    const f = typeof name === 'string' ? model.field(name) : undefined;
    if (f !== undefined) checkFieldAccess(env, model, f, operation);
  }
  return given;
};

export const checkAccessRights: MethodImpl = (call) => {
  const op = operationArg(call);
  const raise: Value = call.arg('raise_exception');
  if (raise !== false && raise !== null && raise !== 0) {
    checkModelAccess(call.env, call.model, op);
    return null;
  }
  return hasModelAccess(call.env, call.model, op);
};
