/**
 * `read()` / `_read_format()`: field values as JSON-2 returns them. many2one as `[id, display_name]`
 * (or the bare id unless `load='_classic_read'`), x2many as ids sorted by the comodel's `_order`,
 * empty scalars as `false`, floats always as floats, binaries as base64 (or a size with `bin_size`).
 */
import { isTruthy, type Struct, type Value } from '../../src/value.ts';
import { checkedFieldNames, hasFieldAccess } from './access.ts';
import { displayNameOf } from './database.ts';
import type { Env } from './env.ts';
import { type FieldDef, isX2many, scalarToValue } from './fields.ts';
import type { ModelStore, Row } from './model.ts';
import { defaultCompare, isOrderComplete, type RowCompare } from './order.ts';
import { many2oneId, x2manyIds } from './relations.ts';
import { rulesFor } from '../rules/index.ts';

const compareCache = new WeakMap<ModelStore, { version: number; cmp: RowCompare }>();

function comodelCompare(env: Env, comodel: ModelStore): RowCompare {
  const cached = compareCache.get(comodel);
  if (cached !== undefined && cached.version === env.db.version) return cached.cmp;
  const cmp = defaultCompare(env.db, comodel);
  compareCache.set(comodel, { version: env.db.version, cmp });
  return cmp;
}

/**
 * The field names `read(fields)` returns: none given, every field the caller may read
 * (`fields_get`); else each name in turn, an unknown one raising `Invalid field 'x' on 'model'`
 * and one the caller may not read Odoo's AccessError (`_determine_fields_to_fetch`).
 */
export function resolveReadFields(env: Env, model: ModelStore, fields: string[] | undefined): FieldDef[] {
  if (fields === undefined || fields.length === 0)
    return [...model.fields.values()].filter((f) => f.name !== 'id' && hasFieldAccess(env, model, f));
  const out: FieldDef[] = [];
  const seen = new Set<string>();
  for (const f of checkedFieldNames(env, model, fields)) {
    if (f.name === 'id' || seen.has(f.name)) continue;
    seen.add(f.name);
    out.push(f);
  }
  return out;
}

/** `tools.human_size` of a base64 value's decoded size ("12.34 Kb"). */
function humanSize(base64: string): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  let size = Math.floor((base64.length * 3) / 4) - padding;
  const units = ['bytes', 'Kb', 'Mb', 'Gb', 'Tb'];
  let i = 0;
  while (size >= 1024 && i < units.length - 1) {
    size /= 1024;
    i++;
  }
  return `${size.toFixed(2)} ${units[i]}`;
}

/** The sorted ids of an x2many, as `read` shows them. */
export function x2manyValue(env: Env, row: Row, f: FieldDef): number[] {
  const ids = x2manyIds(env.db, row, f, env.activeTest);
  const comodel = f.relation === undefined ? undefined : env.db.model(f.relation);
  if (comodel === undefined || !comodel.seeded || ids.length < 2) return ids;
  // Without every `_order` field (res.groups has no `sequence` here) the stored order is the best known.
  if (!isOrderComplete(comodel)) return f.type === 'many2many' ? ids : [...ids].sort((a, b) => a - b);
  const present: Row[] = [];
  const ghosts: number[] = [];
  for (const id of ids) {
    const co = comodel.get(id);
    if (co === undefined) ghosts.push(id);
    else present.push(co);
  }
  return [...present.sort(comodelCompare(env, comodel)).map((r) => r.id), ...ghosts];
}

/** One field of one row as `read` returns it; `classic` is `load == '_classic_read'`. */
export function readField(env: Env, model: ModelStore, row: Row, f: FieldDef, classic: boolean): Value {
  if (f.name === 'id') return row.id;
  if (f.name === 'display_name') return displayNameOf(env.db, model, row);
  const computed = rulesFor(model.name).computed?.[f.name];
  if (computed !== undefined) return scalarToValue(f, computed(env.db, row));
  if (f.type === 'many2one') {
    const id = many2oneId(env.db, row, f);
    if (id === false || f.relation === undefined || !env.db.isReferencable(f.relation, id)) return false;
    return classic ? [id, env.db.displayName(f.relation, id)] : id;
  }
  if (isX2many(f)) return x2manyValue(env, row, f);
  const v = row.v[f.name] ?? false;
  if (f.type === 'binary' && typeof v === 'string' && isTruthy(env.context.get('bin_size') ?? false)) {
    return humanSize(v);
  }
  return scalarToValue(f, v);
}

/** `read()` of rows (in the given order): `{id, ...fields}` per row. */
export function readRows(env: Env, model: ModelStore, rows: Row[], fields: FieldDef[], classic: boolean): Struct[] {
  return rows.map((row) => {
    const out: Struct = new Map([['id', row.id]]);
    for (const f of fields) out.set(f.name, readField(env, model, row, f, classic));
    return out;
  });
}
