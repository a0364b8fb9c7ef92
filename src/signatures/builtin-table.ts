/**
 * The built-in signature table: the effective public methods of the 686 models of two real Odoo 19.0
 * installs (`fixtures/odoo-data/_method-table-all.json`, with the demo install's qualnames for its 19
 * recorded models), plus the generic `base` entries every model has, which also serve models the
 * table does not know. Plain data, so a test can clone it and inject a changed copy.
 */
import { builtinTableData } from './builtin-table.generated.ts';
import { methodFromQualname } from './qualname.ts';
import type { MethodSignature, Param, ParamKind } from './signature.ts';
import { unboundMethods } from './unbound-methods.ts';

/** `[name]` (required), `[name, default]`, or `[name, default | null, kind]` when not POSITIONAL_OR_KEYWORD. */
export type ParamRow = [name: string, defaultText?: string | null, kind?: ParamKind];

/** `[apiModel, params]` for one qualname; a third element `true` when Odoo marks the method deprecated. */
export type SignatureRow = [apiModel: boolean, params: ParamRow[], deprecated?: true];

/**
 * The table's data. A method's name is the last dotted part of its qualname, so the method lists
 * only name qualnames.
 */
export interface BuiltinTable {
  /** Every distinct signature, by the qualname of the function that runs. */
  signatures: Record<string, SignatureRow>;
  /** Qualnames of the methods of the `base` model, which every model has (and unknown models get). */
  generic: string[];
  /** Per known model, the qualnames of its methods that differ from (or add to) `generic`. */
  models: Record<string, string[]>;
}

/**
 * Freezes the table down to each row's parameter list. The `[name, default, kind]` tuples inside
 * stay as they are: lookups copy them, and freezing ~8,000 small arrays cost 15 ms and 5 MiB of
 * RSS at start (BENCHMARKS.md).
 */
function freezeTable(table: BuiltinTable): BuiltinTable {
  for (const row of Object.values(table.signatures)) Object.freeze(Object.freeze(row)[1]);
  for (const qualnames of Object.values(table.models)) Object.freeze(qualnames);
  Object.freeze(table.signatures);
  Object.freeze(table.generic);
  Object.freeze(table.models);
  return Object.freeze(table);
}

/** The generated table, frozen: clone it (`structuredClone`) to make a changed copy. */
export const builtinTable: BuiltinTable = freezeTable(builtinTableData);

interface TableIndex {
  generic: Map<string, string>;
  /** Filled per model on its first lookup: most processes see a few dozen of the 686. */
  models: Map<string, Map<string, string>>;
  /**
   * Signatures already built, by source and qualname, for a frozen table only (the generated one):
   * its rows cannot change, so each is built once, not on every call (issue #41).
   */
  built: Map<string, MethodSignature> | undefined;
}

// Built once per table object; a table that is not frozen (a test's changed clone) has its rows
// read live, so a swapped parameter takes effect.
const indexes = new WeakMap<BuiltinTable, TableIndex>();

function indexByMethod(qualnames: readonly string[]): Map<string, string> {
  return new Map(qualnames.map((q) => [methodFromQualname(q), q]));
}

function tableIndex(table: BuiltinTable): TableIndex {
  let index = indexes.get(table);
  if (index === undefined) {
    index = { generic: indexByMethod(table.generic), models: new Map(), built: Object.isFrozen(table.signatures) ? new Map() : undefined };
    indexes.set(table, index);
  }
  return index;
}

/** The model's own methods by name, or `undefined` when the table does not know the model. */
function modelIndex(table: BuiltinTable, model: string): Map<string, string> | undefined {
  const index = tableIndex(table);
  let own = index.models.get(model);
  if (own === undefined && Object.hasOwn(table.models, model)) {
    own = indexByMethod(table.models[model] as string[]);
    index.models.set(model, own);
  }
  return own;
}

function paramFromRow([name, defaultText, kind]: ParamRow): Param {
  const param = { name, kind: kind ?? 'POSITIONAL_OR_KEYWORD' };
  return defaultText == null ? param : { ...param, default: defaultText };
}

/**
 * The table's signature for `model.method`: the model's own entry, else the generic one (source
 * `builtin` for a model the table knows, `generic` for any other model). `undefined` when neither
 * has it: for a known model, the method is in neither install (see {@link isBuiltinModel}).
 */
export function lookupBuiltinSignature(table: BuiltinTable, model: string, method: string): MethodSignature | undefined {
  const known = modelIndex(table, model);
  const index = tableIndex(table);
  const qualname = known?.get(method) ?? index.generic.get(method);
  if (qualname === undefined) return undefined;
  if (index.built === undefined) return buildSignature(table, qualname, known !== undefined);
  const key = `${known === undefined ? 'generic' : 'builtin'} ${qualname}`;
  let sig = index.built.get(key);
  if (sig === undefined) {
    sig = buildSignature(table, qualname, known !== undefined);
    if (sig === undefined) return undefined;
    index.built.set(key, freezeSignature(sig));
  }
  return sig;
}

/** Frozen all the way down: one object serves every call, so none may change it. */
function freezeSignature(sig: MethodSignature): MethodSignature {
  for (const param of sig.params) Object.freeze(param);
  Object.freeze(sig.params);
  return Object.freeze(sig);
}

function buildSignature(table: BuiltinTable, qualname: string, known: boolean): MethodSignature | undefined {
  const row = table.signatures[qualname];
  if (row === undefined) return undefined;
  const unbound = Object.hasOwn(unboundMethods, qualname) ? unboundMethods[qualname] : undefined;
  const sig: MethodSignature = {
    params: (unbound?.params ?? row[1]).map(paramFromRow),
    apiModel: row[0],
    qualname,
    source: known ? 'builtin' : 'generic',
    ...(unbound === undefined ? {} : { binding: unbound.binding }),
  };
  return row[2] === true ? { ...sig, deprecated: true } : sig;
}

/**
 * True when the table describes `model` itself (one of the 686 models of the two installs): a
 * method it does not list is then not a public method of that model in either install.
 */
export function isBuiltinModel(table: BuiltinTable, model: string): boolean {
  return modelIndex(table, model) !== undefined;
}
