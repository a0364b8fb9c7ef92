/**
 * Resolves the signature of `model.method` for a database: a chain of sources, first hit wins, with
 * the built-in table last (docs/architecture.md §4): the overrides file, then live `/doc-bearer` discovery
 * (the database's service key, else the caller's own key), then the table. A method none of them
 * knows is left to the caller (object.ts: the ids-only fallback, else a fault naming the overrides
 * file); {@link SignatureResolver.knowsModel} tells a model of the table from one it has never seen.
 */
import type { CallOrigin } from '../call.ts';
import { builtinTable, isBuiltinModel, lookupBuiltinSignature, type BuiltinTable } from './builtin-table.ts';
import type { MethodSignature } from './signature.ts';

/** One place signatures come from. `undefined` means "not mine", and the next source is asked. */
export interface SignatureSource {
  /** A short name for logs (`overrides`, `discovery`). */
  readonly name: string;
  /**
   * `origin` is the legacy call that needs the signature: a source that asks the upstream sends its
   * Host and forwarded headers (dbfilter). `callerKey` is the API key that call runs with: discovery
   * may ask with it where the database has no service key. Never logged.
   */
  lookup(db: string, model: string, method: string, origin?: CallOrigin, callerKey?: string): Promise<MethodSignature | undefined>;
}

export interface SignatureResolver {
  /** The signature of `model.method` in `db`, or `undefined` when no source knows the method. */
  resolve(db: string, model: string, method: string, origin?: CallOrigin, callerKey?: string): Promise<MethodSignature | undefined>;
  /**
   * True when the built-in table describes `model` (686 models of two real installs): a method of it
   * that `resolve` does not know is then no public method of that model in either install.
   */
  knowsModel(model: string): boolean;
}

export interface SignatureResolverOptions {
  /** The built-in table. Default: the generated one; tests inject a changed clone. */
  table?: BuiltinTable;
  /** Sources asked before the table, in order (overrides, then discovery). Default: none. */
  sources?: readonly SignatureSource[];
}

/**
 * Creates a resolver over `options.sources` then the built-in table. A `discovered` signature takes
 * `apiModel` and `qualname` from the table where the table knows the model and the method:
 * `/doc-bearer` describes the base definition, while `_api_model` is read on the override that runs
 * and Python's TypeError texts name that override (Odoo: `addons/api_doc`).
 */
export function createSignatureResolver(options: SignatureResolverOptions = {}): SignatureResolver {
  const table = options.table ?? builtinTable;
  const sources = [...(options.sources ?? [])];

  return {
    async resolve(db, model, method, origin, callerKey) {
      for (const source of sources) {
        const sig = await source.lookup(db, model, method, origin, callerKey);
        if (sig === undefined) continue;
        if (sig.source !== 'discovered' || !isBuiltinModel(table, model)) return sig;
        const builtin = lookupBuiltinSignature(table, model, method);
        if (builtin === undefined) return sig;
        const merged = { ...sig, apiModel: builtin.apiModel, qualname: builtin.qualname };
        const forwardedKeywords = forwardedBy(builtin, sig);
        return forwardedKeywords.length === 0 ? merged : { ...merged, forwardedKeywords };
      }
      return lookupBuiltinSignature(table, model, method);
    },
    knowsModel: (model) => isBuiltinModel(table, model),
  };
}

/**
 * The keyword-only parameters an override taking `*args` passes on by name to the definition it
 * calls, where that definition takes no `*args` (it is then the one whose binding fails).
 */
function forwardedBy(running: MethodSignature, base: MethodSignature): string[] {
  const hasVarargs = (sig: MethodSignature) => sig.params.some((p) => p.kind === 'VAR_POSITIONAL');
  if (!hasVarargs(running) || hasVarargs(base)) return [];
  return running.params.filter((p) => p.kind === 'KEYWORD_ONLY').map((p) => p.name);
}
