/**
 * A written value in stored form (`convert_to_cache`): `None`/`False` empty, ints through `int()`,
 * floats rounded to their digits, selections checked, dates through `Date.to_date` /
 * `Datetime.to_datetime` (`strptime` with Odoo's formats), many2one ids. x2many go through commands.
 */
import { floatRepr } from '../../src/python/float-repr.ts';
import { isTruthy, PyFloat, type Value } from '../../src/value.ts';
import { valueError } from '../errors.ts';
import { type FieldDef, numberOf, type Stored } from './fields.ts';
import type { ModelStore } from './model.ts';
import { pyRepr, reprString } from '../python-repr.ts';
import { rulesFor } from '../rules/index.ts';

const directives: Record<string, string> = {
  Y: '(\\d{4})',
  m: '(\\d{1,2})',
  d: '(\\d{1,2})',
  H: '(\\d{1,2})',
  M: '(\\d{1,2})',
  S: '(\\d{1,2})',
};

/** `datetime.strptime(text, fmt)` for Odoo's `%Y-%m-%d %H:%M:%S` prefixes; returns the normalized text. */
function strptime(text: string, fmt: string): string {
  let src = '';
  const order: string[] = [];
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i] as string;
    if (c === '%' && i + 1 < fmt.length) {
      const d = fmt[++i] as string;
      src += directives[d] ?? '';
      order.push(d);
    } else src += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  const m = new RegExp(`^${src}`).exec(text);
  if (m === null) throw valueError(`time data ${reprString(text)} does not match format ${reprString(fmt)}`);
  if (m[0].length < text.length) throw valueError(`unconverted data remains: ${text.slice(m[0].length)}`);
  const parts: Record<string, number> = { Y: 1900, m: 1, d: 1, H: 0, M: 0, S: 0 };
  order.forEach((d, i) => (parts[d] = Number(m[i + 1])));
  const { Y = 1900, m: mo = 1, d = 1, H = 0, M = 0, S = 0 } = parts;
  const days = new Date(Date.UTC(Y, mo, 0)).getUTCDate();
  if (mo < 1 || mo > 12 || d < 1 || d > days || H > 23 || M > 59 || S > 61) {
    throw valueError(`time data ${reprString(text)} does not match format ${reprString(fmt)}`);
  }
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(Y, 4)}-${p(mo)}-${p(d)} ${p(H)}:${p(M)}:${p(S)}`;
}

const datetimeFormat = '%Y-%m-%d %H:%M:%S';

/** `fields.Datetime.to_datetime`: the format is cut to the text's length, as Odoo does. */
export function toDatetime(text: string): string {
  return strptime(text, datetimeFormat.slice(0, Math.max(0, text.length - 2)));
}

/** `fields.Date.to_date`: the first 10 characters as `%Y-%m-%d`. */
export function toDate(text: string): string {
  return strptime(text.slice(0, 10), '%Y-%m-%d').slice(0, 10);
}

function toInt(v: Value): number {
  if (v === true) return 1;
  const n = numberOf(v);
  if (n !== undefined) return Math.trunc(n);
  if (typeof v === 'string' && /^\s*[-+]?\d+(_\d+)*\s*$/.test(v)) return Number(v.replace(/_/g, ''));
  throw valueError(`invalid literal for int() with base 10: ${pyRepr(v)}`);
}

function toFloat(v: Value): number {
  if (v === true) return 1;
  const n = numberOf(v);
  if (n !== undefined) return n;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw valueError(`could not convert string to float: ${pyRepr(v)}`);
}

/** `float_round(value, precision_digits)` with half-up rounding. */
function roundTo(x: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.sign(x) * (Math.round(Math.abs(x) * factor + Number.EPSILON * factor) / factor);
}

/**
 * A small part of `tools.html_sanitize` (html fields sanitize by default): script and style
 * elements, event-handler attributes and `javascript:` URLs are removed; the rest is kept as written.
 */
export function sanitizeHtml(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<(script|style)\b[^>]*\/?>/gi, '')
    .replace(/<[a-z][^>]*>/gi, (tag) =>
      tag.replace(/\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '').replace(/\s+(href|src)\s*=\s*(["'])\s*javascript:[^"']*\2/gi, ''),
    );
}

/** Converts a written scalar or many2one value; raises Odoo's errors for bad values. */
export function convertForWrite(model: ModelStore, f: FieldDef, v: Value): Stored {
  const empty = v === null || v === false;
  switch (f.type) {
    case 'boolean':
      return isTruthy(v);
    case 'integer':
    case 'many2one_reference':
      return empty ? 0 : toInt(v);
    case 'float':
    case 'monetary': {
      const x = empty ? 0 : toFloat(v);
      return f.digits === undefined ? x : roundTo(x, f.digits[1]);
    }
    case 'selection':
      if (empty) return false;
      if (
        typeof v !== 'string' ||
        (f.selection !== undefined && !f.selection.includes(v) && !rulesFor(model.name).methodSelections?.includes(f.name))
      ) {
        throw valueError(`Wrong value for ${model.name}.${f.name}: ${pyRepr(v)}`);
      }
      return v;
    case 'date':
      if (empty) return false;
      if (typeof v !== 'string') throw valueError(`Wrong value for ${model.name}.${f.name}: ${pyRepr(v)}`);
      return toDate(v);
    case 'datetime':
      if (empty) return false;
      if (typeof v !== 'string') throw valueError(`Wrong value for ${model.name}.${f.name}: ${pyRepr(v)}`);
      return toDatetime(v);
    case 'many2one': {
      if (empty) return false;
      const id = numberOf(Array.isArray(v) ? (v[0] as Value) : v);
      if (id === undefined || !Number.isInteger(id)) throw valueError(`Wrong value for ${model.name}.${f.name}: ${pyRepr(v)}`);
      return id;
    }
    default: {
      if (empty) return false;
      const text = typeof v === 'string' ? v : v instanceof PyFloat ? floatRepr(v.value) : pyRepr(v);
      if (f.type === 'html') return sanitizeHtml(text);
      return f.type === 'char' && f.size !== undefined ? text.slice(0, f.size) : text;
    }
  }
}

/** A stored value back in written form (for `copy`): floats as floats. */
export function storedToValue(f: FieldDef, v: Stored): Value {
  if ((f.type === 'float' || f.type === 'monetary') && typeof v === 'number') return new PyFloat(v);
  if (Array.isArray(v)) return [...v];
  return v;
}
