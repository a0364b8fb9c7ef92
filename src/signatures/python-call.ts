/**
 * CPython 3.11's argument binding for a plain function call `method(recs, *args, **kwargs)`, as
 * Odoo's `call_kw` makes it (odoo/service/model.py): the checks and TypeError texts of
 * `initialize_locals` and its helpers in Python/ceval.c, not those of `inspect.Signature.bind`.
 */
import type { Struct, Value } from '../value.ts';
import type { MethodSignature, Param } from './signature.ts';

/** A call Python accepts: where the positional arguments went. Keywords need no record: they all bind. */
export interface PythonBinding {
  /** The parameters of `sig.params` that received the legacy positional arguments, in order. */
  positional: Param[];
  /** The positional arguments a VAR_POSITIONAL parameter collects. */
  varargs: Value[];
}

/** A call Python refuses, with the message `str(TypeError)` prints. */
export interface PythonBindingError {
  typeError: string;
}

const plural = (count: number, word: string) => `${word}${count === 1 ? '' : 's'}`;

/** `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'` (ceval.c `format_missing`; names are repr()'d). */
function formatNames(names: readonly string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  if (quoted.length <= 2) return quoted.join(' and ');
  return `${quoted.slice(0, -2).join(', ')}, ${quoted.at(-2)}, and ${quoted.at(-1)}`;
}

/** ceval.c `missing_arguments`. */
function missingMessage(qualname: string, kind: 'positional' | 'keyword-only', names: readonly string[]): string {
  const n = names.length;
  return `${qualname}() missing ${n} required ${kind} ${plural(n, 'argument')}: ${formatNames(names)}`;
}

/** ceval.c `too_many_positional`; counts include `self`, as Python's do. */
function tooManyMessage(qualname: string, positional: readonly Param[], given: number, kwonlyGiven: number): string {
  const argcount = positional.length;
  const defcount = positional.filter((p) => p.default !== undefined).length;
  const takes = defcount > 0 ? `from ${argcount - defcount} to ${argcount}` : `${argcount}`;
  const noun = defcount > 0 ? 'arguments' : plural(argcount, 'argument');
  const kwonly =
    kwonlyGiven > 0 ? ` positional ${plural(given, 'argument')} (and ${kwonlyGiven} keyword-only ${plural(kwonlyGiven, 'argument')})` : '';
  const verb = given === 1 && kwonlyGiven === 0 ? 'was' : 'were';
  return `${qualname}() takes ${takes} positional ${noun} but ${given}${kwonly} ${verb} given`;
}

/**
 * Binds `args` (after the ids split) and `kwargs` (without `context`) to `sig` the way CPython 3.11
 * calls the function, `self` first. Returns where the positionals went, or Python's exact TypeError
 * text, checked in CPython's order: keywords in call order (unexpected / multiple values), then too
 * many positionals, then missing positionals, then missing keyword-only arguments.
 */
export function bindPythonCall(sig: MethodSignature, args: readonly Value[], kwargs: Struct): PythonBinding | PythonBindingError {
  const { qualname } = sig;
  // an override's `super().m(*args, kw=kw, **kwargs)`: its keywords first, then the caller's others
  const forwarded = sig.forwardedKeywords ?? [];
  if (forwarded.length > 0)
    kwargs = new Map([
      ...forwarded.map((name): [string, Value] => [name, kwargs.get(name) ?? null]),
      ...[...kwargs].filter(([k]) => !forwarded.includes(k)),
    ]);
  // `self` (`cls`) is positional-only too when the method has a `/`.
  const hasPosonly = sig.params.some((p) => p.kind === 'POSITIONAL_ONLY');
  const first = (name: string): Param => ({ name, kind: hasPosonly ? 'POSITIONAL_ONLY' : 'POSITIONAL_OR_KEYWORD' });
  // what Python fills before the legacy args: `recs` as self, or `cls` then `recs` in the first parameter
  const lead = sig.binding === 'classmethod' ? 2 : 1;
  const all = sig.binding === 'staticmethod' ? [...sig.params] : [first(sig.binding === 'classmethod' ? 'cls' : 'self'), ...sig.params];
  const positional = all.filter((p) => p.kind === 'POSITIONAL_ONLY' || p.kind === 'POSITIONAL_OR_KEYWORD');
  const posonly = positional.filter((p) => p.kind === 'POSITIONAL_ONLY');
  const kwonly = all.filter((p) => p.kind === 'KEYWORD_ONLY');
  const hasVarargs = all.some((p) => p.kind === 'VAR_POSITIONAL');
  const hasVarkw = all.some((p) => p.kind === 'VAR_KEYWORD');
  // What a keyword can name (co_varnames after the positional-only ones).
  const keywordTargets = [...positional.slice(posonly.length), ...kwonly];

  const filled = new Set<Param>();
  const argcount = lead + args.length;
  const n = Math.min(argcount, positional.length);
  for (const param of positional.slice(0, n)) filled.add(param);

  for (const key of kwargs.keys()) {
    const target = keywordTargets.find((p) => p.name === key);
    if (target === undefined) {
      if (hasVarkw) continue;
      // Checked against every keyword of the call, at the first one that names no parameter.
      const misused = posonly.filter((p) => kwargs.has(p.name)).map((p) => p.name);
      if (misused.length > 0) {
        const names = misused.join(', ');
        return { typeError: `${qualname}() got some positional-only arguments passed as keyword arguments: '${names}'` };
      }
      return { typeError: `${qualname}() got an unexpected keyword argument '${key}'` };
    }
    if (filled.has(target)) return { typeError: `${qualname}() got multiple values for argument '${key}'` };
    filled.add(target);
  }

  if (argcount > positional.length && !hasVarargs) {
    const kwonlyGiven = kwonly.filter((p) => filled.has(p)).length;
    return { typeError: tooManyMessage(qualname, positional, argcount, kwonlyGiven) };
  }
  const missing = positional.filter((p) => p.default === undefined && !filled.has(p)).map((p) => p.name);
  if (missing.length > 0) return { typeError: missingMessage(qualname, 'positional', missing) };
  const missingKwonly = kwonly.filter((p) => p.default === undefined && !filled.has(p)).map((p) => p.name);
  if (missingKwonly.length > 0) return { typeError: missingMessage(qualname, 'keyword-only', missingKwonly) };

  return { positional: positional.slice(lead, n), varargs: hasVarargs ? args.slice(Math.max(0, n - lead)) : [] };
}
