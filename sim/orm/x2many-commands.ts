/**
 * x2many write commands (`Command` in odoo/fields.py): `(0, 0, vals)` create, `(1, id, vals)`
 * update, `(2, id)` delete, `(3, id)` unlink, `(4, id)` link, `(5,)` clear, `(6, 0, ids)` set; a
 * plain id list means "set". one2many commands act on the inverse many2one; many2many keep the
 * inverse side (`category_id` ↔ `partner_ids`) in step.
 */
import type { Value } from '../../src/value.ts';
import type { Env } from './env.ts';
import { valueError } from '../errors.ts';
import { type FieldDef, numberOf } from './fields.ts';
import type { ModelStore, Row } from './model.ts';
import { pyRepr } from '../python-repr.ts';
import { x2manyIds } from './relations.ts';

type Command = [number, number, Value];

/**
 * create / write / unlink of `orm-write.ts`, which a command runs on the comodel: handed in by the
 * writer that applies the commands, so the two files do not import each other.
 */
export interface RecordWrites {
  create(env: Env, model: ModelStore, valsList: Value[]): number[];
  write(env: Env, model: ModelStore, rows: Row[], given: Value): void;
  unlink(env: Env, model: ModelStore, rows: Row[]): void;
}

function parseCommands(model: ModelStore, f: FieldDef, value: Value): Command[] {
  if (value === false || value === null) return [[5, 0, false]];
  if (!Array.isArray(value)) throw valueError(`Wrong value for ${model.name}.${f.name}: ${pyRepr(value)}`);
  if (value.length > 0 && value.every((v) => numberOf(v) !== undefined)) return [[6, 0, value]];
  return value.map((cmd): Command => {
    if (cmd instanceof Map) return [0, 0, cmd];
    if (!Array.isArray(cmd) || numberOf(cmd[0] as Value) === undefined) {
      throw valueError(`Wrong value for ${model.name}.${f.name}: ${pyRepr(value)}`);
    }
    return [numberOf(cmd[0] as Value) as number, numberOf(cmd[1] ?? 0) ?? 0, cmd[2] ?? false];
  });
}

function idsOf(v: Value): number[] {
  return Array.isArray(v) ? v.map((x) => numberOf(x)).filter((n): n is number => n !== undefined) : [];
}

function existingRows(comodel: ModelStore, ids: number[]): Row[] {
  return ids.map((id) => comodel.get(id)).filter((r): r is Row => r !== undefined);
}

/** Adds/removes `row.id` in the inverse many2many of the linked records. */
function syncInverse(env: Env, model: ModelStore, f: FieldDef, row: Row, before: number[], after: number[]): void {
  const inverse = env.db.m2mInverse.get(`${model.name}.${f.name}`);
  const comodel = f.relation === undefined ? undefined : env.db.model(f.relation);
  if (inverse === undefined || comodel === undefined) return;
  const [, inverseField] = inverse;
  for (const id of before) {
    if (after.includes(id)) continue;
    const co = comodel.get(id);
    const list = co?.v[inverseField];
    if (co === undefined || !Array.isArray(list)) continue;
    env.tx.touch(co);
    co.v[inverseField] = list.filter((x) => x !== row.id);
  }
  for (const id of after) {
    if (before.includes(id)) continue;
    const co = comodel.get(id);
    if (co === undefined) continue;
    const list = co.v[inverseField];
    env.tx.touch(co);
    co.v[inverseField] = [...(Array.isArray(list) ? list : []), row.id];
  }
}

function applyMany2many(env: Env, model: ModelStore, f: FieldDef, comodel: ModelStore, row: Row, cmds: Command[], orm: RecordWrites): void {
  const before = Array.isArray(row.v[f.name]) ? [...(row.v[f.name] as number[])] : [];
  let ids = [...before];
  for (const [code, id, arg] of cmds) {
    if (code === 0) ids.push(...orm.create(env, comodel, [arg]));
    else if (code === 1) orm.write(env, comodel, existingRows(comodel, [id]), arg);
    else if (code === 2) {
      orm.unlink(env, comodel, existingRows(comodel, [id]));
      ids = ids.filter((x) => x !== id);
    } else if (code === 3) ids = ids.filter((x) => x !== id);
    else if (code === 4 && !ids.includes(id)) ids.push(id);
    else if (code === 5) ids = [];
    else if (code === 6) ids = [...new Set(idsOf(arg))];
  }
  env.tx.touch(row);
  row.v[f.name] = ids;
  syncInverse(env, model, f, row, before, ids);
}

function applyOne2many(env: Env, f: FieldDef, comodel: ModelStore, row: Row, cmds: Command[], orm: RecordWrites): void {
  const inverse = f.relationField as string;
  const inverseField = comodel.field(inverse);
  const detach = (ids: number[]) => {
    const rows = existingRows(comodel, ids);
    if (inverseField?.required) orm.unlink(env, comodel, rows);
    else orm.write(env, comodel, rows, new Map([[inverse, false]]));
  };
  for (const [code, id, arg] of cmds) {
    if (code === 0) {
      const vals = new Map(arg instanceof Map ? arg : []);
      vals.set(inverse, row.id);
      orm.create(env, comodel, [vals]);
    } else if (code === 1) orm.write(env, comodel, existingRows(comodel, [id]), arg);
    else if (code === 2) orm.unlink(env, comodel, existingRows(comodel, [id]));
    else if (code === 3) detach([id]);
    else if (code === 4) orm.write(env, comodel, existingRows(comodel, [id]), new Map([[inverse, row.id]]));
    else if (code === 5 || code === 6) {
      const keep = code === 6 ? idsOf(arg) : [];
      const current = x2manyIds(env.db, row, f, false).filter((x) => comodel.rows.has(x));
      detach(current.filter((x) => !keep.includes(x)));
      const link = keep.filter((x) => !current.includes(x));
      orm.write(env, comodel, existingRows(comodel, link), new Map([[inverse, row.id]]));
    }
  }
}

/** Applies a written x2many value to a row that already exists. */
export function applyX2many(env: Env, model: ModelStore, row: Row, f: FieldDef, value: Value, orm: RecordWrites): void {
  const cmds = parseCommands(model, f, value);
  const comodel = f.relation === undefined ? undefined : env.db.model(f.relation);
  if (comodel === undefined || !comodel.seeded) {
    // Records the simulator does not hold: keep the linked ids as written.
    let ids = Array.isArray(row.v[f.name]) ? [...(row.v[f.name] as number[])] : [];
    for (const [code, id, arg] of cmds) {
      if (code === 4 && !ids.includes(id)) ids.push(id);
      else if (code === 3 || code === 2) ids = ids.filter((x) => x !== id);
      else if (code === 5) ids = [];
      else if (code === 6) ids = idsOf(arg);
    }
    env.tx.touch(row);
    row.v[f.name] = ids;
    return;
  }
  if (f.type === 'one2many' && f.relationField !== undefined) applyOne2many(env, f, comodel, row, cmds, orm);
  else applyMany2many(env, model, f, comodel, row, cmds, orm);
}
