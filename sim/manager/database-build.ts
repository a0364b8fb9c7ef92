/**
 * Builds a database from the seed: one model per `<model>.json` (rows in stored form, names of
 * referenced-but-absent records kept as ghosts), empty models for the rest of the method table,
 * `res.users.apikeys` with its fields, `ir.model` listing the models, `ir.access` (20.0's table has it)
 * stating the access rules, inverse many2many pairs,
 * passwords, synthetic partners.
 */
import type { Struct, Value } from '../../src/value.ts';
import { apiKeyFields } from '../auth/apikeys-model.ts';
import { formatDatetime } from '../clock.ts';
import { Database } from '../orm/database.ts';
import { fillIrAccess, irAccessDescription, irAccessFields, irAccessOrder } from '../orm/ir-access.ts';
import { fillIrModel, irModelDescription, irModelFields, irModelOrder } from '../orm/ir-model.ts';
import { emptyStored, type FieldDef, fieldFromAttrs, storedFromSeed } from '../orm/fields.ts';
import { ModelStore, type Row } from '../orm/model.ts';
import { rulesFor } from '../rules/index.ts';
import type { Seed, SeedModel } from '../seed.ts';

export interface BuildOptions {
  /** Extra synthetic `res.partner` rows (benchmarks). */
  generatedPartners: number;
  now: Date;
}

/** The demo passwords: `admin`/`admin`, `demo`/`demo`, anyone else their login. */
export function passwordFor(login: string): string {
  return login;
}

/** `display_name` as every Odoo model declares it, for seeds that did not export it. */
function displayNameField(): FieldDef {
  const attrs: Struct = new Map<string, Value>(
    Object.entries({
      company_dependent: false,
      default_export_compatible: false,
      groupable: false,
      readonly: true,
      required: false,
      searchable: true,
      sortable: false,
      store: false,
      string: 'Display Name',
      translate: false,
      type: 'char',
    }),
  );
  return fieldFromAttrs('display_name', attrs);
}

function modelFromSeed(seedModel: SeedModel): ModelStore {
  const fields = new Map<string, FieldDef>();
  for (const [name, attrs] of seedModel.fields) {
    fields.set(name, fieldFromAttrs(name, attrs));
    if (name === 'id' && !seedModel.fields.has('display_name')) fields.set('display_name', displayNameField());
  }
  return new ModelStore(seedModel.model, seedModel.description, fields, seedModel.order, true);
}

function addGhost(db: Database, model: string, id: number, name: string): void {
  let names = db.ghosts.get(model);
  if (names === undefined) db.ghosts.set(model, (names = new Map()));
  names.set(id, name);
}

function loadRows(db: Database, seedModel: SeedModel, seedIds: Map<string, Set<number>>): [Row, Struct][] {
  const model = db.model(seedModel.model) as ModelStore;
  const loaded: [Row, Struct][] = [];
  for (const record of seedModel.records) {
    const row: Row = { id: Number(record.get('id')), v: {}, extra: {} };
    for (const f of model.fields.values()) {
      if (f.name === 'id') continue;
      const value = record.get(f.name);
      row.v[f.name] = value === undefined ? emptyStored(f) : storedFromSeed(f, value);
      if (f.type === 'many2one' && Array.isArray(value) && f.relation !== undefined) {
        const [id, name] = value as [Value, Value];
        if (typeof id === 'number' && !seedIds.get(f.relation)?.has(id)) addGhost(db, f.relation, id, String(name));
      }
    }
    model.insert(row);
    loaded.push([row, record]);
  }
  return loaded;
}

/** Pairs many2many fields that are each other's inverse (`res.partner.category_id` ↔ `partner_ids`). */
function pairMany2many(db: Database): void {
  for (const model of db.models.values()) {
    for (const f of model.fields.values()) {
      if (f.type !== 'many2many' || f.relation === undefined || f.relation === model.name) continue;
      const comodel = db.model(f.relation);
      const candidates = [...(comodel?.fields.values() ?? [])].filter((g) => g.type === 'many2many' && g.relation === model.name);
      const inverse = candidates[0];
      if (candidates.length === 1 && inverse !== undefined) db.m2mInverse.set(`${model.name}.${f.name}`, [f.relation, inverse.name]);
    }
  }
}

function addGeneratedPartners(db: Database, count: number, now: Date): void {
  const partners = db.model('res.partner');
  if (partners === undefined || count <= 0) return;
  const stamp = formatDatetime(now);
  const width = Math.max(5, String(count).length);
  for (let i = 1; i <= count; i++) {
    const row: Row = { id: partners.nextId, v: {}, extra: {} };
    for (const f of partners.fields.values()) if (f.name !== 'id') row.v[f.name] = emptyStored(f);
    const name = `Generated Partner ${String(i).padStart(width, '0')}`;
    Object.assign(row.v, {
      name,
      complete_name: name,
      active: true,
      type: 'contact',
      commercial_partner_id: row.id,
      email: `generated${String(i).padStart(width, '0')}@example.com`,
      create_date: stamp,
      write_date: stamp,
    });
    partners.insert(row);
  }
}

/** A fresh database named `name`, built from the seed. */
export function buildDatabase(name: string, seed: Seed, opts: BuildOptions): Database {
  const models = new Map<string, ModelStore>();
  for (const seedModel of seed.models.values()) models.set(seedModel.model, modelFromSeed(seedModel));
  for (const modelName of seed.methods.keys()) {
    if (models.has(modelName)) continue;
    const isKeys = modelName === 'res.users.apikeys';
    if (modelName === 'ir.model') {
      models.set(modelName, new ModelStore(modelName, irModelDescription, irModelFields(), irModelOrder, true));
      continue;
    }
    if (modelName === 'ir.access') {
      models.set(modelName, new ModelStore(modelName, irAccessDescription, irAccessFields(), irAccessOrder, true));
      continue;
    }
    const fields = isKeys ? apiKeyFields() : new Map<string, FieldDef>();
    models.set(modelName, new ModelStore(modelName, isKeys ? 'Users API Keys' : modelName, fields, 'id', isKeys));
  }
  const db = new Database(name, models, rulesFor);
  const seedIds = new Map<string, Set<number>>();
  for (const seedModel of seed.models.values()) {
    seedIds.set(seedModel.model, new Set(seedModel.records.map((r) => Number(r.get('id')))));
  }
  const loaded: [string, Row, Struct][] = [];
  for (const seedModel of seed.models.values()) {
    for (const [row, record] of loadRows(db, seedModel, seedIds)) loaded.push([seedModel.model, row, record]);
  }
  for (const [model, row, record] of loaded) rulesFor(model).fromSeed?.(db, row, record);
  pairMany2many(db);
  fillIrModel(db);
  fillIrAccess(db);
  for (const user of db.model('res.users')?.rows.values() ?? []) {
    if (typeof user.v.login === 'string') db.passwords.set(user.id, passwordFor(user.v.login));
  }
  addGeneratedPartners(db, opts.generatedPartners, opts.now);
  return db;
}

/** An empty database named `name` (`_create_empty_database`, a restore that failed). */
export function emptyDatabase(name: string): Database {
  return new Database(name, new Map(), rulesFor);
}

/** Drops fields a later series removed (`model.field`) from `db`'s models, where they exist. */
export function withoutFields(db: Database, removed: readonly string[]): void {
  for (const name of removed) {
    const dot = name.lastIndexOf('.');
    db.model(name.slice(0, dot))?.fields.delete(name.slice(dot + 1));
  }
}
