/**
 * The built-in signature table: the effective signatures of 19 Odoo 19.0 models, generated from
 * `fixtures/odoo-data/_method-table.json`, plus the generic `BaseModel`/`base` entries every other
 * model inherits. Plain data, so a test can clone it and inject a changed copy.
 */
import { builtinTableData } from './builtin-table.generated.ts';
import type { MethodSignature, Param, ParamKind } from './signature.ts';

/** `[name]` (required), `[name, default]`, or `[name, default | null, kind]` when not POSITIONAL_OR_KEYWORD. */
export type ParamRow = [name: string, defaultText?: string | null, kind?: ParamKind];

/** `[apiModel, params]` for one qualname. */
export type SignatureRow = [apiModel: boolean, params: ParamRow[]];

/**
 * The table's data. A method's name is the last dotted part of its qualname, so the method lists
 * only name qualnames.
 */
export interface BuiltinTable {
  /** Every distinct signature, by the qualname of the function that runs. */
  signatures: Record<string, SignatureRow>;
  /** Qualnames of the methods every model has from `BaseModel`/`base` (used for unknown models). */
  generic: string[];
  /** Per known model, the qualnames of its methods that differ from (or add to) `generic`. */
  models: Record<string, string[]>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The generated table, frozen: clone it (`structuredClone`) to make a changed copy. */
export const builtinTable: BuiltinTable = deepFreeze(builtinTableData);

/** The method name a qualname runs as: `BaseModel.search` → `search`. */
export function methodFromQualname(qualname: string): string {
  return qualname.slice(qualname.lastIndexOf('.') + 1);
}

interface TableIndex {
  generic: Map<string, string>;
  models: Map<string, Map<string, string>>;
}

// Built once per table object; rows are still read live, so a swapped parameter takes effect.
const indexes = new WeakMap<BuiltinTable, TableIndex>();

function indexByMethod(qualnames: readonly string[]): Map<string, string> {
  return new Map(qualnames.map((q) => [methodFromQualname(q), q]));
}

function tableIndex(table: BuiltinTable): TableIndex {
  let index = indexes.get(table);
  if (index === undefined) {
    index = {
      generic: indexByMethod(table.generic),
      models: new Map(Object.entries(table.models).map(([model, qs]) => [model, indexByMethod(qs)])),
    };
    indexes.set(table, index);
  }
  return index;
}

function paramFromRow([name, defaultText, kind]: ParamRow): Param {
  const param = { name, kind: kind ?? 'POSITIONAL_OR_KEYWORD' };
  return defaultText == null ? param : { ...param, default: defaultText };
}

/**
 * The table's signature for `model.method`: the model's own entry, else the generic one (source
 * `builtin` for the 19 known models, `generic` for any other model). `undefined` when neither has it.
 */
export function lookupBuiltinSignature(
  table: BuiltinTable,
  model: string,
  method: string,
): MethodSignature | undefined {
  const index = tableIndex(table);
  const known = index.models.get(model);
  const qualname = known?.get(method) ?? index.generic.get(method);
  if (qualname === undefined) return undefined;
  const row = table.signatures[qualname];
  if (row === undefined) return undefined;
  return {
    params: row[1].map(paramFromRow),
    apiModel: row[0],
    qualname,
    source: known === undefined ? 'generic' : 'builtin',
  };
}

/** True when the table describes `model` itself (one of the 19 models it was generated from). */
export function isBuiltinModel(table: BuiltinTable, model: string): boolean {
  return tableIndex(table).models.has(model);
}
