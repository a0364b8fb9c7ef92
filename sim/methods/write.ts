/**
 * `create`, `write`, `unlink`, `copy`, `name_create` and the archive actions. JSON-2 always returns
 * a list of ids from `create` (Odoo: `odoo/orm/models.py`); `write`/`unlink` on missing ids raise MissingError;
 * `action_archive`, `action_unarchive` and `toggle_active` return None.
 */
import { isTruthy, type Struct, type Value } from '../../src/value.ts';
import { checkModelAccess } from '../orm/access.ts';
import { displayNameOf, recNameOf } from '../orm/database.ts';
import { assertionError, typeError } from '../errors.ts';
import { storedToValue } from '../orm/field-convert.ts';
import { isX2many } from '../orm/fields.ts';
import type { Row } from '../orm/model.ts';
import { createRecords, existingOrMissing, unlinkRecords, writeRecords } from '../orm/orm-write.ts';
import { pyRepr } from '../python-repr.ts';
import { x2manyIds } from '../orm/relations.ts';
import { rulesFor } from '../rules/index.ts';
import type { Call, MethodImpl } from './call.ts';

export const create: MethodImpl = (call) => {
  checkModelAccess(call.env, call.model, 'create');
  const vals = call.arg('vals_list');
  const list = vals instanceof Map ? [vals] : vals;
  if (!Array.isArray(list)) throw typeError(`'${pyRepr(vals)}' is not a list of dicts`);
  return createRecords(call.env, call.model, list);
};

export const write: MethodImpl = (call) => {
  checkModelAccess(call.env, call.model, 'write');
  writeRecords(call.env, call.model, existingOrMissing(call.env, call.model, call.ids), call.arg('vals'));
  return true;
};

export const unlink: MethodImpl = (call) => {
  checkModelAccess(call.env, call.model, 'unlink');
  unlinkRecords(call.env, call.model, existingOrMissing(call.env, call.model, call.ids));
  return true;
};

/** `copy_data`: stored fields except `copy=False` ones, many2many as a set command. */
function copyValues(call: Call, row: Row): Struct {
  const { env, model } = call;
  const rules = rulesFor(model.name);
  const vals: Struct = new Map();
  for (const f of model.fields.values()) {
    if (!f.store || f.name === 'id' || f.name === 'create_date' || f.name === 'write_date') continue;
    if (rules.copyExclude?.includes(f.name) || rules.computed?.[f.name] !== undefined) continue;
    if (f.type === 'one2many') continue;
    if (isX2many(f)) vals.set(f.name, [[6, 0, x2manyIds(env.db, row, f, false)]]);
    else vals.set(f.name, storedToValue(f, row.v[f.name] ?? false));
  }
  for (const [k, v] of Object.entries(rules.copyDefaults?.(env, row) ?? {})) vals.set(k, v);
  const given = call.arg('default');
  if (given instanceof Map) for (const [k, v] of given) vals.set(k, v);
  return vals;
}

export const copy: MethodImpl = (call) => {
  checkModelAccess(call.env, call.model, 'create');
  const rows = existingOrMissing(call.env, call.model, call.ids);
  return rows.flatMap((row) => createRecords(call.env, call.model, [copyValues(call, row)]));
};

/** `tools.parse_contact_from_email`: "Name <email>" → name and email (res.partner.name_create). */
function parseContact(text: string): [string, string | false] {
  const m = /^\s*"?([^"<]*?)"?\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(text);
  if (m !== null) return [m[1] as string, m[2] as string];
  return /^[^\s@]+@[^\s@]+$/.test(text.trim()) ? ['', text.trim()] : [text, false];
}

export const nameCreate: MethodImpl = (call) => {
  const { env, model } = call;
  checkModelAccess(env, model, 'create');
  const recName = recNameOf(env.db, model);
  if (recName === undefined) return false;
  const name = call.arg('name');
  const vals: Struct = new Map([[recName, name]]);
  if (model.name === 'res.partner' && typeof name === 'string') {
    const [person, email] = parseContact(name);
    vals.set(recName, person || email);
    if (email !== false) vals.set('email', email);
  }
  const [id] = createRecords(env, model, [vals]);
  const row = model.get(id as number) as Row;
  return [row.id, displayNameOf(env.db, model, row)];
};

function setActive(call: Call, pick: (row: Row) => boolean | undefined): Value {
  const { env, model } = call;
  if (!model.hasActive) throw assertionError(`No 'active' field on model ${model.name}`);
  checkModelAccess(env, model, 'write');
  const rows = existingOrMissing(env, model, call.ids);
  const groups = new Map<boolean, Row[]>();
  for (const row of rows) {
    const target = pick(row);
    if (target === undefined) continue;
    groups.set(target, [...(groups.get(target) ?? []), row]);
  }
  for (const [active, group] of groups) writeRecords(env, model, group, new Map([['active', active]]));
  return null;
}

export const actionArchive: MethodImpl = (call) => setActive(call, (r) => (isTruthy(r.v.active ?? false) ? false : undefined));
export const actionUnarchive: MethodImpl = (call) => setActive(call, (r) => (isTruthy(r.v.active ?? false) ? undefined : true));
export const toggleActive: MethodImpl = (call) => setActive(call, (r) => !isTruthy(r.v.active ?? false));
