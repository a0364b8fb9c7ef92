/**
 * `fields_get`, `default_get`, `has_access` and the deprecated `check_access_rights` (returns None
 * when allowed and `raise_exception` is true, Odoo: `odoo/orm/models.py`).
 */
import type { Struct, Value } from '../../src/value.ts';
import { checkModelAccess, hasModelAccess, type Operation, operations, recordRule } from '../access.ts';
import { assertionError } from '../errors.ts';
import { aggregatorOf } from '../fields.ts';
import { rulesFor } from '../rules/index.ts';
import { browseRows } from './search.ts';
import { type Call, type MethodImpl, namesArg } from './call.ts';

export const fieldsGet: MethodImpl = (call) => {
  const allfields = namesArg(call.arg('allfields'), 'allfields');
  const attributes = namesArg(call.arg('attributes'), 'attributes');
  const out: Struct = new Map();
  for (const f of call.model.fields.values()) {
    if (allfields !== undefined && allfields.length > 0 && !allfields.includes(f.name)) continue;
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

export const hasAccess: MethodImpl = (call) => {
  const op = operationArg(call);
  if (!hasModelAccess(call.env, call.model, op)) return false;
  const rule = recordRule(call.env, call.model);
  return rule === undefined || browseRows(call).every(rule);
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
