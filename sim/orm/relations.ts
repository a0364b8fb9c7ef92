/**
 * Relational values: the ids an x2many holds (one2many from its inverse many2one, many2many as
 * stored), with archived records hidden under `active_test` as Odoo's x2many reads do.
 */
import type { Database } from './database.ts';
import type { FieldDef, Stored } from './fields.ts';
import type { ModelStore, Row } from './model.ts';

/** True when a row of `model` passes `active_test` (models without `active` always pass). */
export function isVisible(model: ModelStore, row: Row, activeTest: boolean): boolean {
  return !activeTest || !model.hasActive || row.v.active === true;
}

/**
 * The ids of an x2many field of a row, unsorted. A one2many is computed from its inverse; ids the
 * seed listed for records it does not hold (states of countries outside the export) are kept.
 */
export function x2manyIds(db: Database, row: Row, field: FieldDef, activeTest: boolean): number[] {
  const comodel = field.relation === undefined ? undefined : db.model(field.relation);
  const stored = row.v[field.name];
  const listed = Array.isArray(stored) ? stored : [];
  if (comodel === undefined || !comodel.seeded) return [...listed];
  const out: number[] = [];
  if (field.type === 'one2many' && field.relationField !== undefined) {
    for (const id of listed) if (!comodel.rows.has(id) && !comodel.deleted.has(id)) out.push(id);
    for (const id of db.childrenOf(comodel, field.relationField, row.id)) {
      if (isVisible(comodel, comodel.get(id) as Row, activeTest)) out.push(id);
    }
    return out;
  }
  for (const id of listed) {
    const co = comodel.get(id);
    if (co === undefined) {
      if (!comodel.deleted.has(id)) out.push(id);
    } else if (isVisible(comodel, co, activeTest)) out.push(id);
  }
  return out;
}

/** The many2one id of a row, or false when empty or pointing at a deleted record. */
export function many2oneId(db: Database, row: Row, field: FieldDef): number | false {
  const id: Stored | undefined = row.v[field.name];
  if (typeof id !== 'number') return false;
  return field.relation !== undefined && db.model(field.relation)?.deleted.has(id) ? false : id;
}
