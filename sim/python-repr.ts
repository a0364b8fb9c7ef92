/**
 * Python's `repr()` of the values the simulator puts into Odoo messages ("Invalid field x in condition
 * ('name', '=', 'a')", "Wrong value for m.f: 'x'", "res.partner(9,)"), from the product's own
 * Python-text module so both sides print values alike.
 */
import { pyRepr as reprText } from '../src/python/int-text.ts';
import { reprValue } from '../src/python/py-repr.ts';
import type { Value } from '../src/value.ts';

/** `repr(str)`. */
export const reprString = reprText;

/** `repr(value)` for a decoded JSON value: `None`, `True`, `[1, 'a']`, `{'k': 2.0}`. */
export const pyRepr = reprValue;

/** `repr(tuple)`: `(1,)` for one item, `(1, 2)` otherwise. */
export function reprTuple(items: Value[]): string {
  return items.length === 1 ? `(${reprValue(items[0] as Value)},)` : `(${items.map(reprValue).join(', ')})`;
}

/** `str(value)`: like repr, except a top-level string is itself. */
export function pyStr(v: Value): string {
  return typeof v === 'string' ? v : reprValue(v);
}
