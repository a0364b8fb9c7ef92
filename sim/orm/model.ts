/**
 * One model of one database: its fields, default order, description and records indexed by id.
 * Records are `Row`s holding stored values; everything Odoo computes on read lives in the rules.
 */
import type { FieldDef, Stored } from './fields.ts';

/** One record. `extra` holds values Odoo keeps in fields the seed did not export (`company_name`). */
export interface Row {
  id: number;
  v: Record<string, Stored>;
  extra: Record<string, string>;
}

/** A model's records and definition. */
export class ModelStore {
  readonly rows = new Map<number, Row>();
  /** Ids unlinked during the run: references to them read as empty. */
  readonly deleted = new Set<number>();
  /** Sorted row lists per order text, valid while the database version is unchanged. */
  readonly sortedCache = new Map<string, { version: number; rows: Row[] }>();
  nextId = 1;

  constructor(
    readonly name: string,
    readonly description: string,
    readonly fields: Map<string, FieldDef>,
    /** The model's `_order`. */
    readonly order: string,
    /** False for models that exist in the method table but have no seed file. */
    readonly seeded: boolean,
  ) {}

  /** True when the model has an `active` field (`_active_name`). */
  get hasActive(): boolean {
    return this.fields.has('active');
  }

  field(name: string): FieldDef | undefined {
    return this.fields.get(name);
  }

  get(id: number): Row | undefined {
    return this.rows.get(id);
  }

  /** Adds a row, keeping `nextId` above every id in use. */
  insert(row: Row): void {
    this.rows.set(row.id, row);
    if (row.id >= this.nextId) this.nextId = row.id + 1;
  }

  /** A deep copy (rows and their lists), sharing the immutable field definitions. */
  clone(): ModelStore {
    const copy = new ModelStore(this.name, this.description, this.fields, this.order, this.seeded);
    for (const row of this.rows.values()) {
      const v: Record<string, Stored> = {};
      for (const [k, val] of Object.entries(row.v)) v[k] = Array.isArray(val) ? [...val] : val;
      copy.rows.set(row.id, { id: row.id, v, extra: { ...row.extra } });
    }
    for (const id of this.deleted) copy.deleted.add(id);
    copy.nextId = this.nextId;
    return copy;
  }
}
