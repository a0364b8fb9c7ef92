/**
 * create / write / unlink on the in-memory rows, inside the call's transaction: defaults (context
 * `default_*` keys first), sequences, conversions, x2many commands, constraints, stored computed
 * fields, `create_date`/`write_date` in UTC, unlink guards and `ondelete` behaviour.
 */
import type { Struct, Value } from '../../src/value.ts';
import {
  checkChecks,
  checkConstrains,
  checkForeignKeys,
  checkRecursion,
  checkRequired,
  checkUniques,
  foreignKeyError,
} from './constraints.ts';
import type { Env } from './env.ts';
import { missingError, typeError, userError } from '../errors.ts';
import { convertForWrite } from './field-convert.ts';
import { emptyStored, type FieldDef, isX2many, type Stored } from './fields.ts';
import type { ModelStore, Row } from './model.ts';
import { pyRepr } from '../python-repr.ts';
import { rulesFor } from '../rules/index.ts';
import { applyX2many, type RecordWrites } from './x2many-commands.ts';

/** Fields a client cannot set: magic and computed ones Odoo recomputes itself. */
const ignoredOnWrite = new Set(['id', 'display_name', 'create_date', 'write_date', 'create_uid', 'write_uid']);

/** `browse(ids)` for write/unlink: the rows, or Odoo's MissingError naming the absent ids. */
export function existingOrMissing(env: Env, model: ModelStore, ids: Value[]): Row[] {
  const rows: Row[] = [];
  const missing: Value[] = [];
  for (const id of ids) {
    const row = typeof id === 'number' ? model.get(id) : undefined;
    if (row === undefined) missing.push(id);
    else if (!rows.includes(row)) rows.push(row);
  }
  if (missing.length > 0) {
    const recs = `${model.name}(${missing.map(pyRepr).join(', ')}${missing.length === 1 ? ',' : ''})`;
    throw missingError(`Record does not exist or has been deleted.\n(Record: ${recs}, User: ${env.uid})`);
  }
  return rows;
}

function asVals(v: Value): Struct {
  if (!(v instanceof Map)) throw typeError(`vals must be a dict, not ${pyRepr(v)}`);
  return new Map(v);
}

/** Replaces inverse-computed keys (`company_type`) by the fields they write. */
function applyInverses(model: ModelStore, vals: Struct): void {
  for (const [field, inverse] of Object.entries(rulesFor(model.name).inverses ?? {})) {
    if (!vals.has(field)) continue;
    const written = inverse(vals.get(field) as Value);
    vals.delete(field);
    for (const [k, v] of Object.entries(written)) if (!vals.has(k)) vals.set(k, v);
  }
}

function nextSequence(model: ModelStore, field: string, prefix: string, padding: number): string {
  let max = 0;
  for (const row of model.rows.values()) {
    const v = row.v[field];
    if (typeof v === 'string' && v.startsWith(prefix) && /^\d+$/.test(v.slice(prefix.length))) {
      max = Math.max(max, Number(v.slice(prefix.length)));
    }
  }
  return `${prefix}${String(max + 1).padStart(padding, '0')}`;
}

function withDefaults(env: Env, model: ModelStore, given: Struct): Struct {
  const vals = new Map(given);
  for (const [key, v] of env.context) {
    if (key.startsWith('default_') && model.fields.has(key.slice(8)) && !vals.has(key.slice(8))) vals.set(key.slice(8), v);
  }
  const rules = rulesFor(model.name);
  for (const [field, dflt] of Object.entries(rules.defaults ?? {})) if (!vals.has(field)) vals.set(field, dflt(env));
  if (model.fields.has('active') && !vals.has('active')) vals.set('active', true);
  const seq = rules.sequence;
  if (seq !== undefined && [undefined, false, null, '', '/', 'New'].includes(vals.get(seq.field) as never)) {
    vals.set(seq.field, nextSequence(model, seq.field, seq.prefix, seq.padding));
  }
  rules.prepareCreate?.(env, vals, createRecords);
  applyInverses(model, vals);
  return vals;
}

/** `create(vals_list)`: the new ids, in order. */
export function createRecords(env: Env, model: ModelStore, valsList: Value[]): number[] {
  const ids: number[] = [];
  for (const given of valsList) {
    const vals = withDefaults(env, model, asVals(given));
    const row: Row = { id: model.nextId, v: {}, extra: {} };
    for (const f of model.fields.values()) if (f.name !== 'id') row.v[f.name] = emptyStored(f);
    const x2many: [string, Value][] = [];
    for (const [key, value] of vals) {
      const f = model.field(key);
      if (f === undefined || ignoredOnWrite.has(key)) continue;
      if (isX2many(f)) x2many.push([key, value]);
      else row.v[key] = convertForWrite(model, f, value);
    }
    for (const stamp of ['create_date', 'write_date']) if (model.fields.has(stamp)) row.v[stamp] = env.nowText;
    // the INSERT: NOT NULL, foreign keys, UNIQUE and CHECK constraints
    checkRequired(model, row);
    checkForeignKeys(env, model, row, vals.keys());
    checkUniques(model, [row]);
    checkChecks(model, [row]);
    env.tx.insert(model, row);
    for (const [key, value] of x2many) applyX2many(env, model, row, model.field(key) as FieldDef, value, recordWrites);
    rulesFor(model.name).recompute?.(env, [row], new Set(model.fields.keys()));
    // `_validate_fields` on the fields given or defaulted
    checkConstrains(env, model, [row], new Set(vals.keys()));
    ids.push(row.id);
  }
  return ids;
}

/** `write(vals)` on existing rows. */
export function writeRecords(env: Env, model: ModelStore, rows: Row[], given: Value): void {
  const vals = asVals(given);
  applyInverses(model, vals);
  const changed = new Set<string>();
  const scalars: [string, Stored][] = [];
  const x2many: [string, Value][] = [];
  for (const [key, value] of vals) {
    const f = model.field(key);
    if (f === undefined || ignoredOnWrite.has(key) || rulesFor(model.name).computed?.[key] !== undefined) continue;
    changed.add(key);
    if (isX2many(f)) x2many.push([key, value]);
    else scalars.push([key, convertForWrite(model, f, value)]);
  }
  if (rows.length === 0) return;
  const refusal = rulesFor(model.name).writeGuard?.(env, rows, vals);
  if (refusal !== undefined) throw userError(refusal);
  for (const row of rows) {
    env.tx.touch(row);
    for (const [key, v] of scalars) row.v[key] = v;
    if (model.fields.has('write_date')) row.v.write_date = env.nowText;
    for (const [key, value] of x2many) applyX2many(env, model, row, model.field(key) as FieldDef, value, recordWrites);
    checkRequired(model, row, changed);
    checkForeignKeys(env, model, row, changed);
  }
  checkRecursion(env.db, model, rows);
  checkUniques(model, rows, changed);
  checkChecks(model, rows, changed);
  rulesFor(model.name).recompute?.(env, rows, changed);
  checkConstrains(env, model, rows, changed);
}

/** `unlink()`: guards, `ondelete` of many2one pointing here (cascade/set null/restrict), then removal. */
export function unlinkRecords(env: Env, model: ModelStore, rows: Row[]): void {
  const rules = rulesFor(model.name);
  for (const row of rows) {
    const refusal = rules.unlinkGuard?.(row);
    if (refusal !== undefined) throw userError(refusal);
  }
  const ids = new Set(rows.map((r) => r.id));
  const parents: [ModelStore, Row, string][] = [];
  for (const row of rows) {
    for (const f of model.fields.values()) {
      const pid = row.v[f.name];
      if (f.type !== 'many2one' || typeof pid !== 'number' || f.relation === undefined) continue;
      const parentModel = env.db.model(f.relation);
      const o2m = [...(parentModel?.fields.values() ?? [])].find(
        (p) => p.type === 'one2many' && p.relation === model.name && p.relationField === f.name,
      );
      const parentRow = parentModel?.get(pid);
      if (parentModel !== undefined && o2m !== undefined && parentRow !== undefined && !ids.has(pid))
        parents.push([parentModel, parentRow, o2m.name]);
    }
    env.tx.remove(model, row);
  }
  for (const other of env.db.models.values()) {
    for (const f of other.fields.values()) {
      if (f.relation !== model.name || (f.type !== 'many2one' && f.type !== 'many2many')) continue;
      const cascade = [...model.fields.values()].some(
        (p) => p.type === 'one2many' && p.relation === other.name && p.relationField === f.name,
      );
      const doomed: Row[] = [];
      const nulled: Row[] = [];
      for (const r of other.rows.values()) {
        const v = r.v[f.name];
        if (f.type === 'many2many') {
          if (Array.isArray(v) && v.some((id) => ids.has(id))) {
            env.tx.touch(r);
            r.v[f.name] = v.filter((id) => !ids.has(id));
          }
        } else if (typeof v === 'number' && ids.has(v)) {
          if (f.required && cascade) doomed.push(r);
          else if (f.required) throw foreignKeyError(other, f);
          else {
            env.tx.touch(r);
            r.v[f.name] = false;
            nulled.push(r);
          }
        }
      }
      if (nulled.length > 0) rulesFor(other.name).recompute?.(env, nulled, new Set([f.name]));
      if (doomed.length > 0) unlinkRecords(env, other, doomed);
    }
  }
  for (const [parentModel, parentRow, o2m] of parents) {
    if (parentModel.rows.has(parentRow.id)) rulesFor(parentModel.name).recompute?.(env, [parentRow], new Set([o2m]));
  }
}

/** What x2many commands run on a comodel (`x2many-commands.ts`). */
const recordWrites: RecordWrites = { create: createRecords, write: writeRecords, unlink: unlinkRecords };
