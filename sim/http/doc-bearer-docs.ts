/**
 * What `/doc-bearer` documents, per database: the method entries recorded from Odoo 19
 * (`fixtures/odoo-data/_method-signatures.json`, 8 models) plus the simulator's custom methods, as the
 * series played has them (`sim/persona.ts`: its removed methods left out, 20.0's `read_group` in),
 * and a version bumped on every change — Odoo's registry sequence, which its ETag covers.
 */
import { readFileSync } from 'node:fs';
import { parseJson } from '../../src/json/index.ts';
import { isStruct, type Value } from '../../src/value.ts';
import { customMethods } from '../methods/custom.ts';
import type { Persona } from '../persona.ts';
import { odooDataUrl } from '../seed.ts';

/** Method entries by model, then method name, in the recorded order. */
type Docs = Map<string, Map<string, Value>>;

let recorded: Docs | undefined;

/**
 * 20.0's `read_group` as `/doc-bearer` documents a BaseModel method (odoo/orm/models.py
 * @00649da42372cf197edfbb2fa8ab437862e39be4: `@typing.final @api.model`, no `@api.readonly`).
 */
function tupleReadGroupDoc(): Value {
  const param = (annotation: string, dflt?: Value): Value =>
    new Map<string, Value>(
      dflt === undefined
        ? [['annotation', annotation]]
        : [
            ['default', dflt],
            ['annotation', annotation],
          ],
    );
  return new Map<string, Value>([
    ['signature', '(domain, groupby=(), aggregates=(), having=(), offset=0, limit=None, order=None) -> list[tuple]'],
    [
      'parameters',
      new Map<string, Value>([
        ['domain', param('DomainType')],
        ['groupby', param('Sequence[str]', [])],
        ['aggregates', param('Sequence[str]', [])],
        ['having', param('DomainType', [])],
        ['offset', param('int', 0)],
        ['limit', param('int | None', null)],
        ['order', param('str | None', null)],
      ]),
    ],
    ['api', ['model']],
    ['model', 'core'],
    ['module', 'core'],
  ]);
}

/** A method list with `read_group` in its (sorted) place. */
function withMethod(methods: Map<string, Value>, name: string, doc: Value): Map<string, Value> {
  const entries = [...methods].filter(([m]) => m !== name);
  const at = entries.findIndex(([m]) => m > name);
  entries.splice(at === -1 ? entries.length : at, 0, [name, doc]);
  return new Map(entries);
}

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

  constructor(persona: Persona) {
    this.#models = new Map([...recordedDocs()].map(([model, methods]) => [model, new Map(methods)]));
    for (const custom of customMethods) this.#models.get(custom.model)?.set(custom.method, custom.doc);
    for (const [model, methods] of this.#models) {
      for (const name of persona.removedMethods) {
        const dot = name.lastIndexOf('.');
        if (dot === -1) methods.delete(name);
        else if (name.slice(0, dot) === model) methods.delete(name.slice(dot + 1));
      }
      if (persona.readGroup === 'tuples') this.#models.set(model, withMethod(methods, 'read_group', tupleReadGroupDoc()));
    }
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
  /** The series played: what its stores document. */
  persona: Persona;
}

/** The store of database `db`, seeded on first use (so databases created later have one too). */
export function docsFor(state: DocBearerStores, db: string): DocStore {
  let store = state.docs.get(db);
  if (store === undefined) state.docs.set(db, (store = new DocStore(state.persona)));
  return store;
}
