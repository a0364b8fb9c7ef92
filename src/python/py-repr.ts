/**
 * Python's `repr()` and `str()` of the values `xmlrpc.client.loads` produces, for the one message
 * that prints arbitrary values: the `Fault` a request body can raise (`<Fault code: 'text'>`).
 */
import { floatRepr } from './float-repr.ts';
import { pyRepr } from './int-text.ts';
import { PyBinary, PyDateTime, PyDecimal, PyFloat, type Value } from '../value.ts';

/** `repr(v)`; a Binary has no stable repr in Python (it prints its address): a fixed one is used. */
export function reprValue(v: Value): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return pyRepr(v);
  if (v instanceof PyFloat) return floatRepr(v.value);
  if (Array.isArray(v)) return `[${v.map(reprValue).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, item]) => `${pyRepr(k)}: ${reprValue(item)}`).join(', ')}}`;
  if (v instanceof PyDateTime) return datetimeRepr(v.odoo);
  if (v instanceof PyDecimal) return `Decimal(${pyRepr(v.text)})`;
  return '<xmlrpc.client.Binary object at 0x7f0000000000>';
}

/** `str(v)`: the text itself for str, Odoo's text for datetime and Decimal, else `repr`. */
export function strValue(v: Value): string {
  if (typeof v === 'string') return v;
  if (v instanceof PyDateTime) return v.odoo;
  if (v instanceof PyDecimal) return v.text;
  return reprValue(v);
}

/** The type name CPython prints in "argument after ** must be a mapping, not <name>". */
export function typeNameOf(v: Value): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'int';
  if (typeof v === 'string') return 'str';
  if (v instanceof PyFloat) return 'float';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'dict';
  if (v instanceof PyDateTime) return 'datetime.datetime';
  if (v instanceof PyBinary) return 'Binary';
  return 'decimal.Decimal';
}

/** `datetime.datetime(2024, 1, 2, 3, 4, 5)`: trailing zero seconds are dropped, as Python does. */
function datetimeRepr(odoo: string): string {
  const [y, mo, d, h, mi, s] = odoo.split(/[- :]/).map(Number);
  const fields = s ? [y, mo, d, h, mi, s] : [y, mo, d, h, mi];
  return `datetime.datetime(${fields.join(', ')})`;
}
