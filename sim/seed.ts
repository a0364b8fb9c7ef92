/**
 * Reads `fixtures/odoo-data/` once per process: every `<model>.json` (fields_get attributes, default
 * order, description, search_read records) and `_method-table.json` (the effective public methods of
 * each model; `_method-table-all.json` for a seeded model it lacks). Parsed losslessly, so attribute and record values keep Python's
 * int/float distinction.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseJson } from '../src/json/index.ts';
import type { Struct, Value } from '../src/value.ts';

/** The folder the seed is read from, resolved relative to this module. */
export const odooDataUrl = new URL('../fixtures/odoo-data/', import.meta.url);

/** One `<model>.json` file. */
export interface SeedModel {
  model: string;
  description: string;
  /** fields_get attributes per field, in export order. */
  fields: Map<string, Struct>;
  order: string;
  records: Struct[];
}

/** One parameter of `_method-table.json`: `[name, kind, default-repr or null]`. */
export interface MethodParam {
  name: string;
  kind: 'POSITIONAL_OR_KEYWORD' | 'KEYWORD_ONLY' | 'VAR_KEYWORD' | 'VAR_POSITIONAL' | 'POSITIONAL_ONLY';
  /** The Python repr of the default (`'None'`, `"'ilike'"`), or null when the parameter is required. */
  default: string | null;
}

/** One method of `_method-table.json`. */
export interface MethodSpec {
  /** `@api.model`: ids are refused over JSON-2. */
  apiModel: boolean;
  params: MethodParam[];
  /** Python qualname of the method that runs (`ResPartner.create`). */
  qualname: string;
}

/** Everything read from the data folder. */
export interface Seed {
  models: Map<string, SeedModel>;
  methods: Map<string, Map<string, MethodSpec>>;
}

let cached: Seed | undefined;

function readJson(name: string): Value {
  return parseJson(readFileSync(new URL(name, odooDataUrl), 'utf8'));
}

function asStruct(v: Value | undefined, what: string): Struct {
  if (!(v instanceof Map)) throw new Error(`odoo-data: ${what} is not an object`);
  return v;
}

function readModelFile(file: string): SeedModel {
  const data = asStruct(readJson(file), file);
  const fields = new Map<string, Struct>();
  for (const [name, attrs] of asStruct(data.get('fields'), `${file} fields`)) fields.set(name, asStruct(attrs, name));
  const records = data.get('records');
  if (!Array.isArray(records)) throw new Error(`odoo-data: ${file} records is not a list`);
  return {
    model: String(data.get('model')),
    description: String(data.get('description')),
    fields,
    order: String(data.get('order') ?? 'id'),
    records: records.map((r, i) => asStruct(r, `${file} record ${i}`)),
  };
}

/** One method entry of either method table. */
interface RawMethod {
  api_model: boolean;
  params: [string, MethodParam['kind'], string | null][];
  qualname: string;
}

function specsOf(methods: Record<string, RawMethod>): Map<string, MethodSpec> {
  const specs = new Map<string, MethodSpec>();
  for (const [name, m] of Object.entries(methods)) {
    specs.set(name, {
      apiModel: m.api_model,
      qualname: m.qualname,
      params: m.params.map(([pname, kind, dflt]) => ({ name: pname, kind, default: dflt })),
    });
  }
  return specs;
}

/**
 * `_method-table.json` (the demo install's 19 models), plus, for each seeded model it lacks
 * (ir.model.data), the table of `_method-table-all.json`: its `_shared` methods overlaid by its own.
 */
function readMethodTable(seeded: Iterable<string>): Map<string, Map<string, MethodSpec>> {
  const raw = JSON.parse(readFileSync(new URL('_method-table.json', odooDataUrl), 'utf8')) as Record<string, Record<string, RawMethod>>;
  const table = new Map<string, Map<string, MethodSpec>>(Object.entries(raw).map(([model, methods]) => [model, specsOf(methods)]));
  const missing = [...seeded].filter((model) => !table.has(model));
  if (missing.length === 0) return table;
  const all = JSON.parse(readFileSync(new URL('_method-table-all.json', odooDataUrl), 'utf8')) as {
    _shared: Record<string, RawMethod>;
    models: Record<string, { methods: Record<string, RawMethod>; lacks?: string[] }>;
  };
  for (const model of missing) {
    const entry = all.models[model];
    if (entry === undefined) throw new Error(`odoo-data: ${model} is in neither method table`);
    const specs = specsOf({ ...all._shared, ...entry.methods });
    for (const name of entry.lacks ?? []) specs.delete(name);
    table.set(model, specs);
  }
  return table;
}

let shared: Map<string, MethodSpec> | undefined;

/**
 * The BaseModel methods every model of `_method-table-all.json` shares (its `_shared` table): the
 * table of a model the recording does not have (`ir.access` on 20.0). A fresh copy on every call.
 */
export function sharedMethodSpecs(): Map<string, MethodSpec> {
  if (shared === undefined) {
    const all = JSON.parse(readFileSync(new URL('_method-table-all.json', odooDataUrl), 'utf8')) as { _shared: Record<string, RawMethod> };
    shared = specsOf(all._shared);
  }
  return new Map(shared);
}

/** The parsed data folder; read on first use and shared afterwards (callers must not mutate it). */
export function loadSeed(): Seed {
  if (cached !== undefined) return cached;
  const models = new Map<string, SeedModel>();
  for (const file of readdirSync(odooDataUrl).sort()) {
    if (!file.endsWith('.json') || file.startsWith('_')) continue;
    const seedModel = readModelFile(file);
    models.set(seedModel.model, seedModel);
  }
  cached = { models, methods: readMethodTable(models.keys()) };
  return cached;
}
