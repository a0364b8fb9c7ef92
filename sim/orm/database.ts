/**
 * One in-memory database: its models, the names of records the seed references but does not hold
 * (`crm.team` 1, currencies other than USD/EUR), a version counter for caches, and per-user passwords.
 */
import type { FieldDef } from './fields.ts';
import type { ModelStore, Row } from './model.ts';

/**
 * What a database reads of a model's rules (`ModelRules`, `rules/types.ts`). The rules are handed in,
 * not imported: they read the database themselves, and an import would close a circle.
 */
export interface NamingRules {
  recName?: string;
  parentField?: string;
  displayName?: (db: Database, row: Row) => string;
}

/** An inverse index `parent id → child ids` of a many2one, valid for one database version. */
interface InverseIndex {
  version: number;
  byParent: Map<number, number[]>;
}

export class Database {
  /** Bumped on every mutation; caches compare against it. */
  version = 0;
  /** Display names of records referenced by the seed but absent from it. */
  readonly ghosts = new Map<string, Map<number, string>>();
  /** Login passwords per uid (the simulator keeps them in clear). */
  readonly passwords = new Map<number, string>();
  /** For a many2many `model.field`, its inverse `[model, field]` when the seed shows one. */
  readonly m2mInverse = new Map<string, [string, string]>();
  #inverse = new Map<string, InverseIndex>();

  constructor(
    readonly name: string,
    readonly models: Map<string, ModelStore>,
    /** The rules of a model by name (`rulesFor`, `rules/index.ts`). */
    readonly rulesOf: (model: string) => NamingRules,
  ) {}

  model(name: string): ModelStore | undefined {
    return this.models.get(name);
  }

  bump(): void {
    this.version++;
  }

  /** `display_name` of a record: the model's rule, a ghost's captured name, or `model,id`. */
  displayName(model: string, id: number): string {
    const store = this.models.get(model);
    const row = store?.get(id);
    if (store !== undefined && row !== undefined) return displayNameOf(this, store, row);
    return this.ghosts.get(model)?.get(id) ?? `${model},${id}`;
  }

  /** True when an id can be shown in a relational value: an existing row, or a ghost of the seed. */
  isReferencable(model: string, id: number): boolean {
    const store = this.models.get(model);
    if (store?.rows.has(id)) return true;
    if (store?.deleted.has(id)) return false;
    return this.ghosts.get(model)?.has(id) ?? !store?.seeded;
  }

  /** Ids of `model` rows whose many2one `field` points at `parentId` (ascending ids). */
  childrenOf(model: ModelStore, field: string, parentId: number): number[] {
    const key = `${model.name}.${field}`;
    let index = this.#inverse.get(key);
    if (index === undefined || index.version !== this.version) {
      const byParent = new Map<number, number[]>();
      for (const row of model.rows.values()) {
        const p = row.v[field];
        if (typeof p !== 'number') continue;
        const list = byParent.get(p);
        if (list === undefined) byParent.set(p, [row.id]);
        else list.push(row.id);
      }
      index = { version: this.version, byParent };
      this.#inverse.set(key, index);
    }
    return index.byParent.get(parentId) ?? [];
  }

  /** Ids of `res.groups` whose full name (or name) is one of `names`. */
  groupIdsNamed(names: readonly string[]): Set<number> {
    const out = new Set<number>();
    const groups = this.models.get('res.groups');
    if (groups === undefined) return out;
    for (const row of groups.rows.values()) {
      const full = row.v.full_name;
      const name = row.v.name;
      if ((typeof full === 'string' && names.includes(full)) || (typeof name === 'string' && names.includes(name))) {
        out.add(row.id);
      }
    }
    return out;
  }

  /** A deep copy under another name (`duplicate`, `reset`). */
  clone(name: string): Database {
    const models = new Map<string, ModelStore>();
    for (const [k, m] of this.models) models.set(k, m.clone());
    const copy = new Database(name, models, this.rulesOf);
    for (const [k, names] of this.ghosts) copy.ghosts.set(k, new Map(names));
    for (const [uid, pw] of this.passwords) copy.passwords.set(uid, pw);
    for (const [k, v] of this.m2mInverse) copy.m2mInverse.set(k, v);
    return copy;
  }
}

/** The `_rec_name` of a model: its rule, else `name` when the field exists. */
export function recNameOf(db: Database, model: ModelStore): string | undefined {
  const rules = db.rulesOf(model.name);
  if (rules.recName !== undefined) return rules.recName;
  return model.fields.has('name') ? 'name' : undefined;
}

/** `display_name` of a row, by the model's rule or its rec name. */
export function displayNameOf(db: Database, model: ModelStore, row: Row): string {
  const rules = db.rulesOf(model.name);
  if (rules.displayName !== undefined) return rules.displayName(db, row);
  const recName = recNameOf(db, model);
  const v = recName === undefined ? undefined : row.v[recName];
  return typeof v === 'string' ? v : `${model.name},${row.id}`;
}

/** The many2one of a model that points at the model itself and serves as `_parent_name`. */
export function parentFieldOf(db: Database, model: ModelStore): FieldDef | undefined {
  const name = db.rulesOf(model.name).parentField ?? 'parent_id';
  const f = model.fields.get(name);
  return f !== undefined && f.type === 'many2one' && f.relation === model.name ? f : undefined;
}
