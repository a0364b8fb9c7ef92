/**
 * Python's `repr()` of the values the simulator puts into Odoo messages ("Invalid field x in condition
 * ('name', '=', 'a')", "Wrong value for m.f: 'x'", "res.partner(9,)").
 */
import { floatRepr } from '../src/python/float-repr.ts';
import { PyBinary, PyDateTime, PyDecimal, PyFloat, type Value } from '../src/value.ts';

/** `repr(str)`: single quotes unless the text holds `'` and no `"`; escapes as CPython does. */
export function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp >= 0x80 && cp < 0xa0) out += `\\x${cp.toString(16)}`;
    else if (cp >= 0xd800 && cp < 0xe000) out += `\\u${cp.toString(16)}`;
    else out += ch;
  }
  return out + quote;
}

/** `repr(value)` for a decoded JSON value: `None`, `True`, `[1, 'a']`, `{'k': 2.0}`. */
export function pyRepr(v: Value): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'boolean':
      return v ? 'True' : 'False';
    case 'number':
    case 'bigint':
      return String(v);
    case 'string':
      return reprString(v);
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, item]) => `${reprString(k)}: ${pyRepr(item)}`).join(', ')}}`;
  if (v instanceof PyFloat) return floatRepr(v.value);
  if (v instanceof PyDateTime) return `datetime.datetime(${v.odoo})`;
  if (v instanceof PyBinary) return `<xmlrpc.client.Binary>`;
  if (v instanceof PyDecimal) return `Decimal('${v.text}')`;
  return String(v);
}

/** `repr(tuple)`: `(1,)` for one item, `(1, 2)` otherwise. */
export function reprTuple(items: Value[]): string {
  return items.length === 1 ? `(${pyRepr(items[0] as Value)},)` : `(${items.map(pyRepr).join(', ')})`;
}

/** `str(value)`: like repr, except a top-level string is itself. */
export function pyStr(v: Value): string {
  return typeof v === 'string' ? v : pyRepr(v);
}
