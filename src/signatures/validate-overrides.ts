/**
 * Checks the parsed signatures file and turns it into signatures (source `override`), with one
 * message per mistake. Shape (parameters in declaration order, `self` left out, as `/doc-bearer`
 * lists them):
 *
 * ```yaml
 * res.partner:
 *   action_gateway_demo:
 *     level: record            # or "model" (@api.model: no ids)
 *     parameters:
 *       note: {}               # required
 *       flag: {default: false}
 *       options: {kind: VAR_KEYWORD}
 *     qualname: ResPartner.action_gateway_demo   # optional
 * ```
 */
import { defaultTextFromValue } from './default-text.ts';
import { qualnameFromModel } from './qualname.ts';
import { paramKinds, type MethodSignature, type Param, type ParamKind } from './signature.ts';

/** Declared signatures by model, then method. */
export type OverrideTable = ReadonlyMap<string, ReadonlyMap<string, MethodSignature>>;

const modelNamePattern = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;
const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
const qualnamePattern = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const methodKeys = ['level', 'parameters', 'qualname'];
// `annotation` and `doc` are accepted (and ignored) so a /doc-bearer entry can be pasted as is.
const paramKeys = ['default', 'kind', 'annotation', 'doc'];
const kindRank: Record<ParamKind, number> = {
  POSITIONAL_ONLY: 0,
  POSITIONAL_OR_KEYWORD: 1,
  VAR_POSITIONAL: 2,
  KEYWORD_ONLY: 3,
  VAR_KEYWORD: 4,
};

type Mapping = Record<string, unknown>;

function isMapping(v: unknown): v is Mapping {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A short description of a wrong value for a message. */
function found(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (isMapping(v)) return 'a mapping';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function unknownKeys(value: Mapping, allowed: readonly string[]): string[] {
  return Object.keys(value)
    .filter((k) => !allowed.includes(k))
    .map((k) => `unknown key ${JSON.stringify(k)} (expected ${allowed.join(', ')})`);
}

function validateParam(name: string, spec: unknown, problems: string[]): Param | undefined {
  const at = `parameter ${JSON.stringify(name)}`;
  if (name === 'self') return void problems.push(`${at} is implicit: list the parameters after it`);
  if (!identifierPattern.test(name)) return void problems.push(`${at} is not a Python identifier`);
  if (spec !== null && !isMapping(spec)) {
    return void problems.push(`${at} must be {} (required) or {default: …, kind: …}; found ${found(spec)}`);
  }
  const entries = spec ?? {};
  const before = problems.length;
  for (const p of unknownKeys(entries, paramKeys)) problems.push(`${at}: ${p}`);
  const kind = entries.kind ?? 'POSITIONAL_OR_KEYWORD';
  if (typeof kind !== 'string' || !(paramKinds as readonly string[]).includes(kind)) {
    problems.push(`${at}: "kind" must be one of ${paramKinds.join(', ')}; found ${found(kind)}`);
  } else if ('default' in entries && (kind === 'VAR_POSITIONAL' || kind === 'VAR_KEYWORD')) {
    problems.push(`${at}: a ${kind} parameter cannot have a default`);
  }
  if (problems.length > before) return undefined;
  const param: Param = { name, kind: kind as ParamKind };
  return 'default' in entries ? { ...param, default: defaultTextFromValue(entries.default) } : param;
}

/** Python's own rules on a parameter list: kinds in order, one `*args`/`**kwargs`, defaults last. */
function checkParamOrder(params: readonly Param[], problems: string[]): void {
  let withDefault: Param | undefined;
  params.forEach((param, i) => {
    const previous = params[i - 1];
    const at = `parameter ${JSON.stringify(param.name)}`;
    if (previous !== undefined && kindRank[param.kind] < kindRank[previous.kind]) {
      problems.push(
        `${at} (${param.kind}) cannot follow ${JSON.stringify(previous.name)} (${previous.kind}): Python orders them ` +
          'POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD',
      );
    } else if (previous?.kind === param.kind && (param.kind === 'VAR_POSITIONAL' || param.kind === 'VAR_KEYWORD')) {
      problems.push(`${at}: only one ${param.kind} parameter is allowed`);
    }
    if (param.kind !== 'POSITIONAL_ONLY' && param.kind !== 'POSITIONAL_OR_KEYWORD') return;
    if (param.default !== undefined) withDefault = param;
    else if (withDefault !== undefined) {
      problems.push(
        `${at} has no default but follows ${JSON.stringify(withDefault.name)}, which has one ` +
          '(Python: non-default argument follows default argument)',
      );
    }
  });
}

function validateMethod(model: string, method: string, spec: unknown, problems: string[]): MethodSignature | undefined {
  const mine: string[] = [];
  if (!identifierPattern.test(method)) mine.push('is not a Python method name');
  else if (method.startsWith('_')) mine.push('is private (leading "_"): Odoo refuses it over RPC, so its signature would never be used');
  else if (!isMapping(spec)) mine.push(`must be a mapping with "level" and "parameters"; found ${found(spec)}`);
  else {
    mine.push(...unknownKeys(spec, methodKeys));
    const levels = '"record" (the first legacy argument is the ids) or "model" (@api.model, no ids)';
    if (!('level' in spec)) mine.push(`"level" is missing: ${levels}`);
    else if (spec.level !== 'record' && spec.level !== 'model') mine.push(`"level" must be ${levels}; found ${found(spec.level)}`);
    if ('qualname' in spec && (typeof spec.qualname !== 'string' || !qualnamePattern.test(spec.qualname))) {
      mine.push(`"qualname" must be a dotted Python name such as ResPartner.${method}; found ${found(spec.qualname)}`);
    }
    const parameters = spec.parameters ?? {};
    const params: Param[] = [];
    if (!isMapping(parameters)) {
      mine.push(`"parameters" must map parameter names, in declaration order, to {} or {default, kind}; found ${found(parameters)}`);
    } else {
      for (const [name, paramSpec] of Object.entries(parameters)) {
        const param = validateParam(name, paramSpec, mine);
        if (param !== undefined) params.push(param);
      }
      checkParamOrder(params, mine);
    }
    if (mine.length === 0) {
      return {
        params,
        apiModel: spec.level === 'model',
        qualname: typeof spec.qualname === 'string' ? spec.qualname : qualnameFromModel(model, method),
        source: 'override',
      };
    }
  }
  for (const p of mine) problems.push(`${model}.${method}: ${p}`);
  return undefined;
}

/**
 * Validates a parsed signatures file (YAML or JSON, already parsed to plain data). Returns the
 * declared signatures and one problem per mistake; the table is complete only without problems.
 */
export function validateOverrides(tree: unknown): { table: OverrideTable; problems: string[] } {
  const problems: string[] = [];
  const table = new Map<string, Map<string, MethodSignature>>();
  if (tree === null || tree === undefined) return { table, problems: ['the file is empty: it must map model names to their methods'] };
  if (!isMapping(tree)) {
    return {
      table,
      problems: [`the file must map model names to their methods ({"res.partner": {"action_x": {…}}}); found ${found(tree)}`],
    };
  }
  for (const [model, methods] of Object.entries(tree)) {
    if (!modelNamePattern.test(model)) problems.push(`${JSON.stringify(model)} is not a model name`);
    else if (!isMapping(methods)) problems.push(`${model}: must map method names to signatures; found ${found(methods)}`);
    else if (Object.keys(methods).length === 0) problems.push(`${model}: declares no methods`);
    else {
      const signatures = new Map<string, MethodSignature>();
      for (const [method, spec] of Object.entries(methods)) {
        const sig = validateMethod(model, method, spec, problems);
        if (sig !== undefined) signatures.set(method, sig);
      }
      table.set(model, signatures);
    }
  }
  return { table, problems };
}
