/**
 * CPython 3.11's TypeError texts for calling a plain function positionally with the wrong number
 * of arguments (`exp_login() missing 1 required positional argument: 'password'`), for the legacy
 * services that dispatch `fn(*params)`.
 */

/** A plain function's positional parameters: names in order, how many have no default. */
export interface PositionalSignature {
  name: string;
  params: readonly string[];
  required: number;
}

/** The TypeError message for `name(*given)`, or `undefined` when the call binds. */
export function arityError(sig: PositionalSignature, given: number): string | undefined {
  const max = sig.params.length;
  if (given > max) {
    const takes =
      sig.required === max ? `${max} positional argument${max === 1 ? '' : 's'}` : `from ${sig.required} to ${max} positional arguments`;
    return `${sig.name}() takes ${takes} but ${given} ${given === 1 ? 'was' : 'were'} given`;
  }
  if (given < sig.required) {
    const missing = sig.params.slice(given, sig.required).map((p) => `'${p}'`);
    const n = missing.length;
    return `${sig.name}() missing ${n} required positional argument${n === 1 ? '' : 's'}: ${nameList(missing)}`;
  }
  return undefined;
}

/** Python's list: `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'`. */
function nameList(names: string[]): string {
  if (names.length <= 2) return names.join(' and ');
  return `${names.slice(0, -1).join(', ')}, and ${names.at(-1)}`;
}
