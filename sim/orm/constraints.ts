/**
 * Database and Python constraints checked on create/write: NOT NULL on required stored fields, SQL
 * unique and CHECK constraints (IntegrityErrors, which JSON-2 turns into ValidationErrors "The
 * operation cannot be completed: …", `retrying()` in odoo/service/model.py), many2one targets that
 * must exist, the `_parent_name` recursion check and the models' `@api.constrains` methods.
 */
import { type Database, parentFieldOf } from './database.ts';
import type { Env } from './env.ts';
import { validationError } from '../errors.ts';
import { type FieldDef, isNumeric, isX2many } from './fields.ts';
import type { ModelStore, Row } from './model.ts';
import { rulesFor } from '../rules/index.ts';

const cannotComplete = 'The operation cannot be completed:';

/** Fields a NOT NULL constraint applies to: required, stored, scalar or many2one. */
function notNullFields(model: ModelStore): FieldDef[] {
  return [...model.fields.values()].filter(
    (f) => f.required && f.store && f.name !== 'id' && !isX2many(f) && !isNumeric(f) && f.type !== 'boolean',
  );
}

/** NOT NULL of the required fields among `names` (all of them on create). */
export function checkRequired(model: ModelStore, row: Row, names?: Set<string>): void {
  for (const f of notNullFields(model)) {
    if (names !== undefined && !names.has(f.name)) continue;
    const v = row.v[f.name];
    if (v !== false && v !== undefined) continue;
    throw validationError(
      `${cannotComplete} Missing required value for the field '${f.string}' (${f.name}).\n` +
        `Model: '${model.description}' (${model.name})\n` +
        '- create/update: a mandatory field is not set\n' +
        '- delete: another model requires the record being deleted, you can archive it instead\n',
    );
  }
}

/** SQL unique constraints of the model's rules, for rows whose fields in `names` changed. */
export function checkUniques(model: ModelStore, rows: Row[], names?: Set<string>): void {
  for (const rule of rulesFor(model.name).uniques ?? []) {
    if (names !== undefined && !rule.fields.some((f) => names.has(f))) continue;
    for (const row of rows) {
      const key = rule.fields.map((f) => row.v[f]);
      if (key.some((v) => v === false || v === undefined)) continue;
      for (const other of model.rows.values()) {
        if (other !== row && rule.fields.every((f, i) => other.v[f] === key[i])) {
          throw validationError(`${cannotComplete} ${rule.message}`);
        }
      }
    }
  }
}

/** SQL CHECK constraints of the model's rules, for rows where a field they read was written (all on create). */
export function checkChecks(model: ModelStore, rows: Row[], names?: Set<string>): void {
  for (const rule of rulesFor(model.name).checks ?? []) {
    if (names !== undefined && !rule.fields.some((f) => names.has(f))) continue;
    if (rows.some(rule.violated)) throw validationError(`${cannotComplete} ${rule.message}`);
  }
}

/** The model's `@api.constrains` methods whose fields are among `names` (create: the fields given or defaulted). */
export function checkConstrains(env: Env, model: ModelStore, rows: Row[], names: Set<string>): void {
  for (const rule of rulesFor(model.name).constrains ?? []) {
    if (!rule.fields.some((f) => names.has(f))) continue;
    const error = rule.check(env, rows);
    if (error !== undefined) throw error;
  }
}

/** The foreign key violation Odoo reports for a many2one pointing at no record. */
export function foreignKeyError(model: ModelStore, f: FieldDef): Error {
  return validationError(
    `${cannotComplete} another model requires the record being deleted. If possible, archive it instead.\n\n` +
      `Model: ${model.description} (${model.name})\nConstraint: ${model.name.replace(/\./g, '_')}_${f.name}_fkey\n`,
  );
}

/** Many2one values must point at existing records of seeded comodels (or at ones the seed references). */
export function checkForeignKeys(env: Env, model: ModelStore, row: Row, names: Iterable<string>): void {
  for (const name of names) {
    const f = model.field(name);
    const id = row.v[name];
    if (f?.type !== 'many2one' || typeof id !== 'number' || f.relation === undefined) continue;
    if (!env.db.isReferencable(f.relation, id)) throw foreignKeyError(model, f);
  }
}

/** `_check_recursion` on the parent field: a record may not be its own ancestor. */
export function checkRecursion(db: Database, model: ModelStore, rows: Row[]): void {
  const parent = parentFieldOf(db, model);
  if (parent === undefined) return;
  for (const row of rows) {
    const seen = new Set<number>();
    let current: Row | undefined = row;
    while (current !== undefined) {
      const up = current.v[parent.name];
      if (typeof up !== 'number') break;
      if (up === row.id || seen.has(up)) {
        const message = rulesFor(model.name).recursionMessage ?? `You cannot create recursive ${model.description} hierarchies.`;
        throw validationError(message);
      }
      seen.add(up);
      current = model.get(up);
    }
  }
}
