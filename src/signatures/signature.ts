/**
 * The shape of a method signature as the gateway needs it to turn legacy positional arguments into
 * JSON-2 named arguments: Python's parameters (after `self`), whether the method is model-level, and
 * the qualname of the function that actually runs (Python prefixes its TypeError texts with it).
 */

/** Python's `inspect.Parameter` kinds, by their `inspect` names. */
export const paramKinds = [
  /** Before a `/`: only reachable by position, so never through JSON-2. */
  'POSITIONAL_ONLY',
  /** A plain parameter: by position (legacy) or by name (JSON-2). */
  'POSITIONAL_OR_KEYWORD',
  /** `*args`: collects extra positionals; JSON-2 cannot fill it. */
  'VAR_POSITIONAL',
  /** After `*` or `*args`: by name only. */
  'KEYWORD_ONLY',
  /** `**kwargs`: collects unknown keywords, which pass through unchanged. */
  'VAR_KEYWORD',
] as const;

export type ParamKind = (typeof paramKinds)[number];

/** One parameter of a method, `self` excluded. */
export interface Param {
  readonly name: string;
  readonly kind: ParamKind;
  /**
   * The Python source text of the default (`None`, `0`, `'ilike'`, `()`), for messages and docs.
   * Absent when the parameter is required; always absent for `*args`/`**kwargs`.
   */
  readonly default?: string;
}

/**
 * Where a signature came from: the operator overrides file, live `/doc-bearer` discovery, the
 * built-in table for a model it knows, or the table's generic `BaseModel`/`base` entry for any other
 * model. Resolution tries them in that order (docs/architecture.md §4).
 */
export type SignatureSourceName = 'override' | 'discovered' | 'builtin' | 'generic';

/** What binding needs to know about one (model, method). */
export interface MethodSignature {
  /** Parameters after `self`, in declaration order. */
  readonly params: readonly Param[];
  /** `_api_model` on the function that runs: no ids; legacy `args` map straight to `params`. */
  readonly apiModel: boolean;
  /**
   * Set where the function that runs is a classmethod or staticmethod: it has no `self`, so
   * `call_kw`'s recordset lands in its first parameter (`params` are then those after `cls`).
   */
  readonly binding?: 'classmethod' | 'staticmethod';
  /** `__qualname__` of the function that runs, e.g. `ResPartner.name_create`, `BaseModel.search`. */
  readonly qualname: string;
  readonly source: SignatureSourceName;
  /** Odoo marks the method `@api.deprecated` but still serves it (`read_group`); from the built-in table. */
  readonly deprecated?: true;
  /**
   * Set where the override that runs takes `*args` and keyword-only parameters while `params`
   * describe the definition it calls (`super().message_post(*args, body=body, message_type=…, **kwargs)`):
   * those keyword-only names, which reach `params` by name whatever the caller sent, so Python's
   * TypeError there counts them as given.
   */
  readonly forwardedKeywords?: readonly string[];
  /**
   * Set where the upstream's method of this name no longer means what 19.0's meant (20.0's
   * `read_group`, a removed method): the params are still 19.0's, and the call must be answered
   * through a successor or refused, never sent as bound (`upstream-changes.ts`).
   */
  readonly upstreamChange?: UpstreamChange;
}

/** What the signatures layer learned about a method that is not 19.0's on the upstream. */
export interface UpstreamChange {
  /** What told: the upstream's series, its `/doc-bearer` listing, or its refusal of a 19.0 parameter. */
  readonly evidence: 'series' | 'doc-bearer' | 'refused-parameter';
  /** One sentence for the fault and the log: what differs (names and series, never argument values). */
  readonly what: string;
  /** The method to call instead over JSON-2, where Odoo names one. */
  readonly replacement?: string;
}

/** True when a plain or keyword-only parameter may be left out of a call (it has a default). */
export function hasDefault(param: Param): boolean {
  return param.default !== undefined;
}

/**
 * What a signature lookup answers when the upstream has just said the model itself does not exist
 * (`/doc-bearer/<model>.json`'s 404 for `model_name not in self.env`): the call that asked can give
 * Odoo's unknown-model fault without sending the call itself, one request to Odoo as natively.
 */
export const modelAbsent: unique symbol = Symbol('the upstream has no such model');
export type ModelAbsent = typeof modelAbsent;
