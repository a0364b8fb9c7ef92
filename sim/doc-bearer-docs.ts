/**
 * What `/doc-bearer` documents, per database: the method entries recorded from Odoo 19
 * (`fixtures/odoo-data/_method-signatures.json`, 8 models) plus the simulator's custom methods, and a
 * version bumped on every change — Odoo's registry sequence, which its ETag covers.
 */
import { readFileSync } from 'node:fs';
import { parseJson } from '../src/json/index.ts';
import { isStruct, type Value } from '../src/value.ts';
import { customMethods } from './methods/custom.ts';
import { odooDataUrl } from './seed.ts';

/** Method entries by model, then method name, in the recorded order. */
type Docs = Map<string, Map<string, Value>>;

let recorded: Docs | undefined;

/** `_method-signatures.json`, parsed losslessly once per process (callers copy before changing it). */
function recordedDocs(): Docs {
  if (recorded !== undefined) return recorded;
  const raw = parseJson(readFileSync(new URL('_method-signatures.json', odooDataUrl), 'utf8'));
  if (!isStruct(raw)) throw new Error('odoo-data: _method-signatures.json is not an object');
  recorded = new Map();
  for (const [model, methods] of raw) {
    if (!isStruct(methods)) throw new Error(`odoo-data: _method-signatures.json ${model} is not an object`);
    recorded.set(model, new Map(methods));
  }
  return recorded;
}

/** One database's documentation. */
export class DocStore {
  /** Bumped on every change, so every ETag changes (Odoo's registry sequence does the same). */
  version = 0;
  readonly #models: Docs;

  constructor() {
    this.#models = new Map([...recordedDocs()].map(([model, methods]) => [model, new Map(methods)]));
    for (const custom of customMethods) this.#models.get(custom.model)?.set(custom.method, custom.doc);
  }

  /** The documented models, in the recorded order. */
  models(): string[] {
    return [...this.#models.keys()];
  }

  /** A model's method entries, or `undefined` when the model is not documented. */
  methods(model: string): ReadonlyMap<string, Value> | undefined {
    return this.#models.get(model);
  }

  /** Adds, replaces (`doc`) or removes (`undefined`) one method entry, as a module upgrade would. */
  setMethod(model: string, method: string, doc: Value | undefined): void {
    let methods = this.#models.get(model);
    if (methods === undefined) this.#models.set(model, (methods = new Map()));
    if (doc === undefined) methods.delete(method);
    else methods.set(method, doc);
    this.version++;
  }
}

/** What the `/doc-bearer` routes keep: one store per database name, made on first use. */
export interface DocBearerStores {
  docs: Map<string, DocStore>;
}

/** The store of database `db`, seeded on first use (so databases created later have one too). */
export function docsFor(state: DocBearerStores, db: string): DocStore {
  let store = state.docs.get(db);
  if (store === undefined) state.docs.set(db, (store = new DocStore()));
  return store;
}
