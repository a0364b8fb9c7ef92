/**
 * The simulator's own `json.dumps(value, ensure_ascii=False)` for its `/jsonrpc` answers: Python's
 * default separators (`, ` and `: `), ints exact, floats as `repr`, member order kept. Independent of
 * the gateway's JSON writer on purpose (see `xmlrpc-read.ts`).
 */
import { PyBinary, PyDateTime, PyDecimal, PyFloat, type Value } from '../../src/value.ts';
import type { Perturbation } from './xmlrpc-write.ts';
import { pythonFloatRepr } from './python-float.ts';

const escapes: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function quote(s: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${s.replace(/["\\\x00-\x1f]/g, (ch) => escapes[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function floatText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return pythonFloatRepr(x);
}

/** Writes `v` as Python's json module would. */
export function pythonJson(v: Value, perturb?: Perturbation): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return quote(v);
  if (v instanceof PyFloat)
    return perturb === 'double-as-int' && Number.isFinite(v.value) ? String(Math.trunc(v.value)) : floatText(v.value);
  if (v instanceof PyBinary) return quote(v.base64);
  if (v instanceof PyDateTime) return quote(v.odoo);
  if (v instanceof PyDecimal) return quote(v.text);
  if (Array.isArray(v)) return `[${v.map((item) => pythonJson(item, perturb)).join(', ')}]`;
  return `{${[...v].map(([k, item]) => `${quote(k)}: ${pythonJson(item, perturb)}`).join(', ')}}`;
}
