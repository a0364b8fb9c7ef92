/**
 * Legacy positional arguments → JSON-2 named arguments (docs/architecture.md §3 object, §4). Python's own
 * TypeError comes first, so a legacy client sees the fault Odoo's `call_kw` would raise; a call Python
 * accepts but JSON-2 cannot express is refused with a TypeError that says so (intended deviation).
 */
import { pythonError, type LegacyError } from '../errors.ts';
import type { Struct, Value } from '../value.ts';
import { bindPythonCall } from './python-call.ts';
import type { MethodSignature } from './signature.ts';

/**
 * Body keys JSON-2 peels off before binding (Odoo: `odoo/http.py` `Json2Dispatcher.dispatch`): an argument under one of these names
 * would become the record ids or the context instead of reaching the method.
 */
const reservedBodyKeys: ReadonlySet<string> = new Set(['ids', 'context']);

function unreachable(model: string, method: string, detail: string): LegacyError {
  const message = `cannot call ${model}.${method} through JSON-2 (named arguments only): ${detail}`;
  return pythonError('TypeError', message);
}

/**
 * Names the arguments of `method(recs, *args, **kwargs)` for a JSON-2 body. `args` come after the
 * ids split (record-level methods: legacy `args[1:]`), `kwargs` without `context` (call_kw pops it).
 *
 * Returns only what the caller supplied, never defaults (JSON-2 applies them): the positional
 * arguments under their parameter names in parameter order, then `kwargs` as given, in the caller's
 * order (VAR_KEYWORD extras unchanged), as the corpus's JSON-2 bodies have them.
 * Returns a fault-1 TypeError with CPython 3.11's text, prefixed with `sig.qualname`, when Python
 * would refuse the call; or one naming `model.method` when an argument would land in a
 * POSITIONAL_ONLY or VAR_POSITIONAL parameter, or under a body key JSON-2 reserves.
 */
export function bindArguments(
  sig: MethodSignature,
  model: string,
  method: string,
  args: readonly Value[],
  kwargs: Struct,
): Struct | LegacyError {
  const bound = bindPythonCall(sig, args, kwargs);
  if ('typeError' in bound) return pythonError('TypeError', bound.typeError);
  const { qualname } = sig;

  if (bound.varargs.length > 0) {
    const varargs = sig.params.find((p) => p.kind === 'VAR_POSITIONAL')?.name ?? 'args';
    const count = bound.varargs.length;
    const s = count === 1 ? '' : 's';
    return unreachable(model, method, `${qualname}() would receive ${count} positional argument${s} in '*${varargs}'`);
  }
  const named: Struct = new Map();
  for (const [i, param] of bound.positional.entries()) {
    if (param.kind === 'POSITIONAL_ONLY') {
      return unreachable(model, method, `${qualname}() would receive its positional-only argument '${param.name}'`);
    }
    named.set(param.name, args[i]!);
  }
  const positionalOnly = new Set(sig.params.filter((p) => p.kind === 'POSITIONAL_ONLY').map((p) => p.name));
  for (const [key, value] of kwargs) {
    // Python puts it in **kwargs; inspect.Signature.bind (JSON-2) refuses a keyword named like a `/` parameter.
    if (positionalOnly.has(key)) {
      const detail = `keyword argument '${key}' has the name of a positional-only parameter of ${qualname}()`;
      return unreachable(model, method, detail);
    }
    named.set(key, value);
  }
  for (const key of named.keys()) {
    if (reservedBodyKeys.has(key)) {
      const detail = `argument '${key}' would be taken as JSON-2's own '${key}', not passed to ${qualname}()`;
      return unreachable(model, method, detail);
    }
  }
  return named;
}
