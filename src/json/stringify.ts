/**
 * Lossless JSON writing: ints as written, floats always as floats (`2240.0`, Python's repr),
 * big ints exact, dicts in member order. Optionally with Python `json.dumps` spacing, which is how
 * Odoo's own JSON answers look.
 */
import { floatJson } from '../python/float-repr.ts';
import { PyBinary, PyDateTime, PyDecimal, PyFloat, type Value } from '../value.ts';

export interface StringifyJsonOptions {
  /** Python's default separators `', '` and `': '` (Odoo's answers) instead of compact output. */
  python?: boolean;
  /** Escape every non-ASCII character as `\uXXXX` (Python's `ensure_ascii=True`). */
  ensureAscii?: boolean;
}

/** Writes a {@link Value} as JSON text. A `<dateTime.iso8601>` goes out as Odoo's string form. */
export function stringifyJson(value: Value, options: StringifyJsonOptions = {}): string {
  return pieces(value, options).join('');
}

/** Bodies up to this many UTF-16 units are joined, then encoded: one step, fastest for small calls. */
const joinUpTo = 1 << 16;

/**
 * The same JSON as UTF-8 bytes (a request body). A big body is written piece by piece into one
 * buffer: a megabytes-long string (an attachment's base64) is then copied once, into the bytes,
 * instead of into its quoted form, the joined text and the bytes.
 */
export function stringifyJsonBytes(value: Value, options: StringifyJsonOptions = {}): Buffer {
  const out = pieces(value, options);
  let units = 0;
  for (const s of out) units += s.length;
  if (units <= joinUpTo) return Buffer.from(out.join(''), 'utf8');
  let size = 0;
  for (const s of out) size += Buffer.byteLength(s, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const s of out) at += bytes.write(s, at, 'utf8');
  return bytes;
}

function pieces(value: Value, options: StringifyJsonOptions): string[] {
  const out: string[] = [];
  write(value, out, options.python ? ', ' : ',', options.python ? ': ' : ':', options.ensureAscii === true);
  return out;
}

function write(v: Value, out: string[], comma: string, colon: string, ascii: boolean): void {
  if (v === null) {
    out.push('null');
    return;
  }
  switch (typeof v) {
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
    case 'number':
    case 'bigint':
      out.push(String(v));
      return;
    case 'string':
      quote(v, ascii, out);
      return;
  }
  if (Array.isArray(v)) {
    out.push('[');
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(comma);
      write(v[i] as Value, out, comma, colon, ascii);
    }
    out.push(']');
    return;
  }
  if (v instanceof Map) {
    out.push('{');
    let first = true;
    for (const [k, item] of v) {
      if (!first) out.push(comma);
      first = false;
      quote(k, ascii, out);
      out.push(colon);
      write(item, out, comma, colon, ascii);
    }
    out.push('}');
    return;
  }
  if (v instanceof PyFloat) out.push(floatJson(v.value));
  else if (v instanceof PyDateTime) quote(v.odoo, ascii, out);
  else if (v instanceof PyBinary) quote(v.base64, ascii, out);
  else if (v instanceof PyDecimal) out.push(v.text);
}

/** What JSON.stringify escapes (a quote, a backslash, controls, lone surrogates: all surrogates, to be safe). */
// eslint-disable-next-line no-control-regex -- JSON escapes the C0 controls
const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex -- JSON escapes the C0 controls
const needsEscapeAscii = /["\\\u0000-\u001f\u0080-\uffff]/;

/** Pushes `s` as a JSON string literal. */
function quote(s: string, ascii: boolean, out: string[]): void {
  // nothing to escape (base64, most text): the string itself between quotes, as three pieces, so a
  // long one is never copied into a concatenation of its own
  if (!(ascii ? needsEscapeAscii : needsEscape).test(s)) {
    out.push('"', s, '"');
    return;
  }
  const q = JSON.stringify(s);
  out.push(ascii ? q.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : q);
}
