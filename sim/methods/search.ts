/**
 * `search`, `search_count`, `search_read`, `read`, `name_search` (odoo/orm/models.py, 19.0
 * signatures). `search_read` forwards `**read_kwargs` to `_read_format(fnames, load)`, so any other
 * key is a TypeError (500) after the search ran, as in Odoo.
 */
import { type Struct, type Value } from '../../src/value.ts';
import { checkModelAccess, recordRule, ruleAccessError } from '../orm/access.ts';
import { displayNameOf } from '../orm/database.ts';
import { typeError } from '../errors.ts';
import { readRows, resolveReadFields } from '../orm/orm-read.ts';
import { searchCount, searchRows } from '../orm/orm-search.ts';
import type { Row } from '../orm/model.ts';
import { type Call, type MethodImpl, namesArg } from './call.ts';

const likeOperators = new Set(['like', 'ilike', '=like', '=ilike']);

export const search: MethodImpl = (call) => {
  checkModelAccess(call.env, call.model, 'read');
  const rows = searchRows(call.env, call.model, call.arg('domain'), {
    offset: call.arg('offset'),
    limit: call.arg('limit'),
    order: call.arg('order'),
  });
  return rows.map((r) => r.id);
};

export const searchCountMethod: MethodImpl = (call) => {
  checkModelAccess(call.env, call.model, 'read');
  return searchCount(call.env, call.model, call.arg('domain'), call.arg('limit'));
};

/** `load == '_classic_read'` selects `[id, name]` pairs for many2one. */
function isClassic(load: Value): boolean {
  return load === '_classic_read';
}

/** The rows of `browse(ids)` that exist, in the given order (duplicates kept), as `read` sees them. */
export function browseRows(call: Call): Row[] {
  const out: Row[] = [];
  for (const id of call.ids) {
    const row = typeof id === 'number' ? call.model.get(id) : undefined;
    if (row !== undefined) out.push(row);
  }
  return out;
}

/**
 * `read(fields)`: the fields first (unknown, refused), then, on records only, the model's ACL and
 * its record rules (`fetch`: the records that exist and fail them raise `ir.rule`'s AccessError).
 */
export const read: MethodImpl = (call) => {
  const { env, model } = call;
  const fields = resolveReadFields(env, model, namesArg(call.arg('fields'), 'fields'));
  if (call.ids.length === 0) return [];
  checkModelAccess(env, model, 'read');
  const rows = browseRows(call);
  const rule = recordRule(env, model, 'read');
  const forbidden = rule === undefined ? [] : rows.filter((r) => !rule(r));
  if (forbidden.length > 0)
    throw ruleAccessError(
      env,
      model,
      forbidden.map((r) => r.id),
      'read',
    );
  return readRows(env, model, rows, fields, isClassic(call.arg('load')));
};

export const searchRead: MethodImpl = (call) => {
  const { env, model } = call;
  checkModelAccess(env, model, 'read');
  const fields = resolveReadFields(env, model, namesArg(call.arg('fields'), 'fields'));
  const rows = searchRows(env, model, call.arg('domain') ?? [], {
    offset: call.arg('offset'),
    limit: call.arg('limit'),
    order: call.arg('order'),
  });
  let load: Value = '_classic_read';
  for (const [key, value] of call.extra) {
    if (key === 'fnames') throw typeError("BaseModel._read_format() got multiple values for argument 'fnames'");
    if (key !== 'load') throw typeError(`BaseModel._read_format() got an unexpected keyword argument '${key}'`);
    load = value;
  }
  // search_read drops `active_test` before reading, so x2many values hide archived records again.
  return readRows(env.withContextKey('active_test', undefined), model, rows, fields, isClassic(load));
};

export const nameSearch: MethodImpl = (call) => {
  const { env, model } = call;
  checkModelAccess(env, model, 'read');
  const name = call.arg('name');
  const operator = call.arg('operator');
  const domain = call.arg('domain') ?? [];
  const nameFilter: Value[] =
    (name === '' || name === false || name === null) && likeOperators.has(String(operator)) ? [] : [['display_name', operator, name]];
  const full: Value = nameFilter.length === 0 ? domain : ['&', ...nameFilter, ...wrapDomain(domain)];
  const rows = searchRows(env, model, full, { limit: call.arg('limit') });
  return rows.map((r): Value => [r.id, displayNameOf(env.db, model, r)]);
};

/** A domain as one prefix-notation operand (`[a, b]` → `['&', a, b]`). */
function wrapDomain(domain: Value): Value[] {
  if (!Array.isArray(domain) || domain.length === 0) return [[1, '=', 1]];
  const terms = domain.filter((t) => Array.isArray(t)).length;
  const ops = domain.filter((t) => t === '&' || t === '|').length;
  const implicit = Math.max(0, terms - ops - 1);
  return [...Array<Value>(implicit).fill('&'), ...domain];
}

/** `res.users.context_get()`: `{lang, tz, uid}` of the caller. */
export const contextGet: MethodImpl = (call) => {
  const user = call.env.userRow();
  const out: Struct = new Map<string, Value>([
    ['lang', typeof user.v.lang === 'string' ? user.v.lang : 'en_US'],
    ['tz', typeof user.v.tz === 'string' ? user.v.tz : false],
    ['uid', call.env.uid],
  ]);
  return out;
};
