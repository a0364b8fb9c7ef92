/**
 * Conditions on one stored scalar (SQL semantics): NULL never compares, `= False` is `IS NULL` (and
 * `''` for text fields), booleans are never NULL, datetimes compare as `YYYY-MM-DD HH:MM:SS` text,
 * LIKE patterns with `%`, `_` and backslash escapes.
 */
import { isTruthy, type Value } from '../../src/value.ts';
import { notImplemented } from '../errors.ts';
import { type FieldDef, isTextual, numberOf } from './fields.ts';

type Scalar = number | string | boolean;

const asList = (v: Value): Value[] => (Array.isArray(v) ? v : [v]);

/** The SQL value of a stored scalar: `null` for NULL (booleans are never NULL here). */
function sqlValue(type: string, v: unknown): Scalar | null {
  if (type === 'boolean') return v === true;
  if (v === false || v === undefined || v === null || Array.isArray(v)) return null;
  return v as Scalar;
}

/** A condition value in the field's terms: numbers for numeric fields, full datetimes, etc. */
function normalize(type: string, v: Value): Scalar | null {
  if (type === 'boolean') return isTruthy(v);
  if (v === false || v === null) return null;
  const n = numberOf(v);
  if (type === 'integer' || type === 'many2one_reference' || type === 'float' || type === 'monetary') {
    return n ?? (typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN);
  }
  if (typeof v !== 'string') return n !== undefined ? String(n) : String(v);
  if (type === 'datetime' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return `${v} 00:00:00`;
  if (type === 'date' && v.length > 10) return v.slice(0, 10);
  return v;
}

function compare(a: Scalar, b: Scalar): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

const regexCache = new Map<string, RegExp>();

/** A SQL LIKE pattern (`%`, `_`, backslash escapes) as a RegExp. */
function likeRegex(pattern: string, insensitive: boolean): RegExp {
  const key = `${insensitive ? 'i' : 's'}${pattern}`;
  let re = regexCache.get(key);
  if (re === undefined) {
    let src = '';
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i] as string;
      if (c === '\\' && i + 1 < pattern.length) src += (pattern[++i] as string).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      else if (c === '%') src += '.*';
      else if (c === '_') src += '.';
      else src += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
    re = new RegExp(`^${src}$`, insensitive ? 'isu' : 'su');
    if (regexCache.size > 500) regexCache.clear();
    regexCache.set(key, re);
  }
  return re;
}

/** A test of one stored scalar against a positive operator. */
export function scalarTest(type: string, op: string, value: Value): (v: unknown) => boolean {
  const textual = isTextual({ type } as FieldDef);
  const isNull = (x: Scalar | null) => x === null || (textual && x === '');
  if (op === 'in') {
    const items = asList(value);
    const set = new Set<Scalar>();
    let withNull = false;
    for (const item of items) {
      const n = normalize(type, item);
      if (n === null || (type === 'boolean' && n === false)) withNull = true;
      if (n !== null) set.add(n);
    }
    return (v) => {
      const x = sqlValue(type, v);
      if (isNull(x) || (type === 'boolean' && x === false)) return withNull || set.has(x as Scalar);
      return set.has(x as Scalar);
    };
  }
  const target = normalize(type, value);
  switch (op) {
    case '=':
      if (type === 'boolean') return (v) => sqlValue(type, v) === target;
      if (target === null) return (v) => isNull(sqlValue(type, v));
      return (v) => {
        const x = sqlValue(type, v);
        return x !== null && compare(x, target) === 0;
      };
    case '<':
    case '>':
    case '<=':
    case '>=':
      return (v) => {
        const x = sqlValue(type, v);
        if (x === null || target === null) return false;
        const c = compare(x, target);
        return op === '<' ? c < 0 : op === '>' ? c > 0 : op === '<=' ? c <= 0 : c >= 0;
      };
    case 'like':
    case 'ilike':
    case '=like':
    case '=ilike': {
      if (target === null) return (v) => isNull(sqlValue(type, v));
      const raw = String(target);
      const re = likeRegex(op.startsWith('=') ? raw : `%${raw}%`, op.endsWith('ilike'));
      return (v) => {
        const x = sqlValue(type, v);
        return x !== null && re.test(String(x));
      };
    }
    default:
      throw notImplemented(`the Odoo simulator does not evaluate operator '${op}' on ${type} fields`);
  }
}
