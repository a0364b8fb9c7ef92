/**
 * Python's `dict(x)` for a decoded legacy value, with CPython 3.11's error texts: used where Odoo
 * converts client data to a dict (`call_kw`'s `dict(kwargs)`, the JSON-RPC dispatcher's
 * `dict(params)`).
 */
import { pythonError, type LegacyError } from '../errors.ts';
import { isStruct, pyTypeName, type Struct, type Value } from '../value.ts';

/**
 * `dict(value)`: a dict is copied as is, `None` is refused, a sequence must hold (key, value) pairs.
 * `keys: 'keywords'` (the default) is for a dict that becomes `**kwargs`, whose keys must be strings;
 * `keys: 'any'` only refuses unhashable keys and keeps no pair: see {@link dictError}.
 */
export function dictFrom(value: Value, keys: 'keywords' | 'any' = 'keywords'): Struct | LegacyError {
  if (isStruct(value)) return value;
  const items = iterate(value);
  if (items === undefined) return pythonError('TypeError', `'${pyTypeName(value)}' object is not iterable`);
  const out: Struct = new Map();
  for (const [i, item] of items.entries()) {
    const pair = iterate(item);
    if (pair === undefined) return pythonError('TypeError', `cannot convert dictionary update sequence element #${i} to a sequence`);
    if (pair.length !== 2)
      return pythonError('ValueError', `dictionary update sequence element #${i} has length ${pair.length}; 2 is required`);
    const key = pair[0] as Value;
    if (keys === 'any') {
      if (Array.isArray(key) || isStruct(key)) return pythonError('TypeError', `unhashable type: '${pyTypeName(key)}'`);
      continue;
    }
    // Keys end up as keyword names (`**kwargs`), which Python requires to be strings.
    if (typeof key !== 'string') return pythonError('TypeError', 'keywords must be strings');
    out.set(key, pair[1] as Value);
  }
  return out;
}

/** The error `dict(value)` raises, if any, for a dict whose keys may be anything hashable (a context). */
export function dictError(value: Value): LegacyError | undefined {
  const made = dictFrom(value, 'any');
  return made instanceof Map ? undefined : made;
}

/** The items Python would iterate over, or `undefined` when the value is not iterable. */
function iterate(v: Value): Value[] | undefined {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (isStruct(v)) return [...v.keys()];
  return undefined;
}
