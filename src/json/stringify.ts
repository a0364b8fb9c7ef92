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
  const out: string[] = [];
  write(value, out, options.python ? ', ' : ',', options.python ? ': ' : ':', options.ensureAscii === true);
  return out.join('');
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
      out.push(quote(v, ascii));
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
      out.push(quote(k, ascii), colon);
      write(item, out, comma, colon, ascii);
    }
    out.push('}');
    return;
  }
  if (v instanceof PyFloat) out.push(floatJson(v.value));
  else if (v instanceof PyDateTime) out.push(quote(v.odoo, ascii));
  else if (v instanceof PyBinary) out.push(quote(v.base64, ascii));
  else if (v instanceof PyDecimal) out.push(v.text);
}

function quote(s: string, ascii: boolean): string {
  const q = JSON.stringify(s);
  return ascii ? q.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : q;
}
