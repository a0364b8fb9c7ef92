/**
 * One SQL transaction per JSON-2 call (Odoo: `addons/rpc/controllers/json2.py`): every mutation goes through here, so a call
 * that fails half-way leaves the database as it was.
 */
import type { Database } from './database.ts';
import type { Stored } from './fields.ts';
import type { ModelStore, Row } from './model.ts';

type Undo = () => void;

function copyValues(v: Record<string, Stored>): Record<string, Stored> {
  const out: Record<string, Stored> = {};
  for (const [k, val] of Object.entries(v)) out[k] = Array.isArray(val) ? [...val] : val;
  return out;
}

/** The undo log of one call. */
export class Transaction {
  #undo: Undo[] = [];
  #touched = new Set<Row>();

  constructor(readonly db: Database) {}

  /** Call before changing a row's values; the first call per row saves them. */
  touch(row: Row): void {
    this.db.bump();
    if (this.#touched.has(row)) return;
    this.#touched.add(row);
    const saved = copyValues(row.v);
    const extra = { ...row.extra };
    this.#undo.push(() => {
      row.v = saved;
      row.extra = extra;
    });
  }

  /** Adds a new row to a model. */
  insert(model: ModelStore, row: Row): void {
    this.db.bump();
    const nextId = model.nextId;
    model.insert(row);
    this.#touched.add(row);
    this.#undo.push(() => {
      model.rows.delete(row.id);
      model.nextId = nextId;
    });
  }

  /** Removes a row from a model, remembering it as deleted. */
  remove(model: ModelStore, row: Row): void {
    this.db.bump();
    model.rows.delete(row.id);
    model.deleted.add(row.id);
    this.#undo.push(() => {
      model.rows.set(row.id, row);
      model.deleted.delete(row.id);
    });
  }

  /** Undoes every change, newest first. */
  rollback(): void {
    for (const undo of this.#undo.reverse()) undo();
    this.#undo = [];
    this.#touched.clear();
    this.db.bump();
  }
}
