/**
 * `inspect.Signature.bind(records, **kwargs)` as JSON-2 uses it (Odoo: `addons/rpc/controllers/json2.py`): named arguments
 * only, checked in parameter order, with Python's messages; `**kwargs` parameters take the rest.
 */
import type { Value } from '../../src/value.ts';
import { unprocessable } from '../errors.ts';
import type { MethodParam } from '../seed.ts';

export interface BoundArguments {
  /** Values given for named parameters. */
  args: Map<string, Value>;
  /** Keys collected by a VAR_KEYWORD parameter, in body order. */
  extra: Map<string, Value>;
}

/** Binds body keys to parameters; raises a 422 UnprocessableEntity with Python's TypeError text. */
export function bindArguments(params: MethodParam[], kwargs: Map<string, Value>): BoundArguments {
  const remaining = new Map(kwargs);
  const args = new Map<string, Value>();
  let acceptsExtra = false;
  for (const p of params) {
    if (p.kind === 'VAR_KEYWORD') {
      acceptsExtra = true;
      continue;
    }
    if (p.kind === 'VAR_POSITIONAL') continue;
    if (remaining.has(p.name) && p.kind !== 'POSITIONAL_ONLY') {
      args.set(p.name, remaining.get(p.name) as Value);
      remaining.delete(p.name);
    } else if (p.default === null) {
      throw unprocessable(`missing a required argument: '${p.name}'`);
    }
  }
  if (remaining.size > 0 && !acceptsExtra) {
    const first = [...remaining.keys()][0] as string;
    const positionalOnly = params.find((p) => p.name === first && p.kind === 'POSITIONAL_ONLY');
    throw unprocessable(
      positionalOnly === undefined
        ? `got an unexpected keyword argument '${first}'`
        : `'${first}' parameter is positional only, but was passed as a keyword`,
    );
  }
  return { args, extra: remaining };
}

/** A parameter's default from its Python repr in the method table (`None`, `0`, `'ilike'`, `()`). */
export function defaultFromRepr(repr: string | null): Value {
  if (repr === null || repr === 'None') return null;
  if (repr === 'True' || repr === 'False') return repr === 'True';
  if (/^-?\d+$/.test(repr)) return Number(repr);
  if (repr === '()' || repr === '[]') return [];
  if (repr === '{}') return new Map();
  const quoted = /^'(.*)'$/s.exec(repr) ?? /^"(.*)"$/s.exec(repr);
  return quoted !== null ? (quoted[1] as string) : repr;
}
