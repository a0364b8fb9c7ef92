/**
 * `ORDER BY` of a search: Odoo's order syntax (`name desc, id`, `date_order DESC NULLS LAST`),
 * PostgreSQL semantics (NULLs last ascending, first descending; booleans as `COALESCE(f, false)`;
 * many2one by the comodel's `_order`; text in code-point order, as Odoo's `LC_COLLATE 'C'` databases).
 */
import type { Database } from './database.ts';
import { valueError } from '../errors.ts';
import type { FieldDef } from './fields.ts';
import type { ModelStore, Row } from './model.ts';

export type RowCompare = (a: Row, b: Row) => number;

interface OrderTerm {
  field: FieldDef | 'id';
  desc: boolean;
  nullsFirst: boolean;
}

const termPattern = /^\s*("?)([a-z0-9_]+)\1(?:\s+(asc|desc))?(?:\s+nulls\s+(first|last))?\s*$/i;

function invalidOrder(order: string): Error {
  return valueError(
    `Invalid "order" specified (${order}). A valid "order" specification is a comma-separated list of valid ` +
      'field names (optionally followed by asc/desc for the direction)',
  );
}

/**
 * Parses an order text. Unknown fields raise, except in a model's own `_order` where fields the seed
 * did not export (`sequence`) are skipped.
 */
export function parseOrder(model: ModelStore, order: string, isDefault = false): OrderTerm[] {
  const terms: OrderTerm[] = [];
  if (order.trim() === '') return terms;
  for (const part of order.split(',')) {
    const m = termPattern.exec(part);
    if (m === null) throw invalidOrder(order);
    const name = m[2] as string;
    const desc = (m[3] ?? 'asc').toLowerCase() === 'desc';
    const nullsFirst = m[4] === undefined ? desc : m[4].toLowerCase() === 'first';
    if (name === 'id') {
      terms.push({ field: 'id', desc, nullsFirst });
      continue;
    }
    const field = model.field(name);
    if (field === undefined || !field.sortable) {
      if (isDefault) continue;
      throw valueError(`Invalid field '${name}' on model '${model.name}'`);
    }
    terms.push({ field, desc, nullsFirst });
  }
  return terms;
}

type Key = number | string | boolean | null;

function compareKeys(a: Key, b: Key): number {
  if (a === b) return 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? 1 : -1;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function termCompare(db: Database, term: OrderTerm, depth: number): RowCompare {
  const sign = term.desc ? -1 : 1;
  const nulls = term.nullsFirst ? -1 : 1;
  if (term.field === 'id') return (a, b) => sign * (a.id - b.id);
  const f = term.field;
  if (f.type === 'many2one') {
    const comodel = f.relation === undefined ? undefined : db.model(f.relation);
    const inner = comodel?.seeded && depth < 3 ? defaultCompare(db, comodel, depth + 1) : undefined;
    return (a, b) => {
      const ia = a.v[f.name];
      const ib = b.v[f.name];
      const ra = typeof ia === 'number' ? comodel?.get(ia) : undefined;
      const rb = typeof ib === 'number' ? comodel?.get(ib) : undefined;
      if (typeof ia !== 'number' || typeof ib !== 'number') {
        if (typeof ia === typeof ib) return 0;
        return typeof ia !== 'number' ? nulls : -nulls;
      }
      if (inner === undefined || ra === undefined || rb === undefined) return sign * (ia - ib);
      return sign * inner(ra, rb);
    };
  }
  const key = (r: Row): Key => {
    const v = r.v[f.name];
    if (f.type === 'boolean') return v === true;
    if (v === false || v === undefined || Array.isArray(v)) return null;
    return v;
  };
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null || kb === null) return ka === kb ? 0 : ka === null ? nulls : -nulls;
    return sign * compareKeys(ka, kb);
  };
}

function chain(compares: RowCompare[]): RowCompare {
  return (a, b) => {
    for (const cmp of compares) {
      const c = cmp(a, b);
      if (c !== 0) return c;
    }
    return a.id - b.id;
  };
}

/** True when every field of the model's `_order` exists (the seed may not export `sequence`). */
export function isOrderComplete(model: ModelStore): boolean {
  return model.order.split(',').every((part) => {
    const name = termPattern.exec(part)?.[2];
    return name === undefined || name === 'id' || model.fields.has(name);
  });
}

/** The comparator of a model's `_order`. */
export function defaultCompare(db: Database, model: ModelStore, depth = 0): RowCompare {
  return chain(parseOrder(model, model.order, true).map((t) => termCompare(db, t, depth)));
}

/** The comparator of an order text, or of the model's `_order` when it is empty. */
export function orderCompare(db: Database, model: ModelStore, order: string | undefined): RowCompare {
  if (order === undefined || order.trim() === '') return defaultCompare(db, model);
  return chain(parseOrder(model, order).map((t) => termCompare(db, t, 0)));
}
