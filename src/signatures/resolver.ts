/**
 * Resolves the signature of `model.method` for a database: a chain of sources, first hit wins, with
 * the built-in table last (docs/architecture.md §4): the overrides file, then live `/doc-bearer` discovery
 * (the database's service key, else the caller's own key), then the table. A method none of them
 * knows is left to the caller (object.ts: the ids-only fallback, else a fault naming the overrides
 * file); {@link SignatureResolver.knowsModel} tells a model of the table from one it has never seen.
 */
import type { CallOrigin } from '../call.ts';
import { builtinTable, isBuiltinModel, lookupBuiltinSignature, type BuiltinTable } from './builtin-table.ts';
import { modelAbsent, type MethodSignature, type ModelAbsent } from './signature.ts';
import { createUpstreamChanges, type UpstreamChange, type UpstreamChanges } from './upstream-changes.ts';

/** One place signatures come from. `undefined` means "not mine", and the next source is asked. */
export interface SignatureSource {
  /** A short name for logs (`overrides`, `discovery`). */
  readonly name: string;
  /**
   * `origin` is the legacy call that needs the signature: a source that asks the upstream sends its
   * Host and forwarded headers (dbfilter). `callerKey` is the API key that call runs with: discovery
   * may ask with it where the database has no service key. Never logged.
   */
  lookup(
    db: string,
    model: string,
    method: string,
    origin?: CallOrigin,
    callerKey?: string,
  ): Promise<MethodSignature | ModelAbsent | undefined>;
}

export interface SignatureResolver {
  /**
   * The signature of `model.method` in `db`, or `undefined` when no source knows the method, or
   * {@link modelAbsent} when a source asked the upstream for this very call and it has no such model.
   */
  resolve(
    db: string,
    model: string,
    method: string,
    origin?: CallOrigin,
    callerKey?: string,
  ): Promise<MethodSignature | ModelAbsent | undefined>;
  /**
   * True when the built-in table describes `model` (686 models of two real installs): a method of it
   * that `resolve` does not know is then no public method of that model in either install.
   */
  knowsModel(model: string): boolean;
  /**
   * A JSON-2 refusal of a call bound by 19.0's signature (`sig` as {@link resolve} gave it): the
   * change it shows, remembered for the database, or undefined when it shows none. Only a binding
   * refusal counts, so the method did not run.
   */
  learnRefusal(db: string, model: string, method: string, err: unknown, origin?: CallOrigin): Promise<UpstreamChange | undefined>;
}

export interface SignatureResolverOptions {
  /** The built-in table. Default: the generated one; tests inject a changed clone. */
  table?: BuiltinTable;
  /** Sources asked before the table, in order (overrides, then discovery). Default: none. */
  sources?: readonly SignatureSource[];
  /**
   * The upstream's series as last seen (`server_serie`: `19.0`, `saas~19.1`, `20.0`), undefined
   * while unknown. Default: unknown. In front of 19.0 no upstream difference counts as a change.
   */
  upstreamSeries?: () => string | undefined;
  /** The memory of changed methods. Default: a new one (which tells nobody). */
  changes?: UpstreamChanges;
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

  const changes = options.changes ?? createUpstreamChanges();
  const upstreamSeries = options.upstreamSeries ?? (() => undefined);

  /** 19.0's signature, marked with the upstream's change of the method when it has one. */
  const changed = (v19: MethodSignature, change: UpstreamChange | undefined): MethodSignature | undefined =>
    change === undefined ? undefined : { ...v19, upstreamChange: change };

  return {
    async resolve(db, model, method, origin, callerKey) {
      // a method 19.0 had is bound by 19.0's signature, whatever the upstream now calls by its name
      const v19 = lookupBuiltinSignature(table, model, method);
      const series = v19 === undefined ? undefined : upstreamSeries();
      for (const source of sources) {
        const sig = await source.lookup(db, model, method, origin, callerKey);
        if (sig === undefined) continue;
        if (sig === modelAbsent) return sig;
        if (sig.source !== 'discovered' || v19 === undefined) return sig;
        const change = changes.changeOf(db, model, method, series) ?? changes.noteListed(db, model, method, v19, sig, series);
        if (change !== undefined) return { ...v19, upstreamChange: change };
        if (!isBuiltinModel(table, model)) return sig;
        const merged = { ...sig, apiModel: v19.apiModel, qualname: v19.qualname, ...bindingOf(v19) };
        const forwardedKeywords = forwardedBy(v19, sig);
        return forwardedKeywords.length === 0 ? merged : { ...merged, forwardedKeywords };
      }
      return v19 === undefined ? undefined : (changed(v19, changes.changeOf(db, model, method, series)) ?? v19);
    },
    knowsModel: (model) => isBuiltinModel(table, model),
    async learnRefusal(db, model, method, err) {
      const v19 = lookupBuiltinSignature(table, model, method);
      if (v19 === undefined) return undefined;
      return changes.learnRefusal(db, model, method, v19, err, upstreamSeries());
    },
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

/** The table's classmethod or staticmethod mark: `/doc-bearer` lists such a method like a record method. */
function bindingOf(v19: MethodSignature): Pick<MethodSignature, 'binding'> {
  return v19.binding === undefined ? {} : { binding: v19.binding };
}
