/**
 * A JSON-2 request body with every argument value replaced by a placeholder of its type (`"<int>"`,
 * `"<string>"`, …): what the migration report shows an integrator, so it can never hold a password,
 * a key or a customer's data. Member names stay (parameter, field and context names); long lists
 * keep their first items; the text is bounded.
 */
import { stringifyJson } from '../../json/index.ts';
import { isStruct, PyBinary, PyDateTime, PyDecimal, PyFloat, type Struct, type Value } from '../../value.ts';

/** Items of a list shown before `"…"`. */
const maxItems = 3;
/** Members of a dict shown before `"…": "…"`. */
const maxMembers = 40;
/** Longest member name kept. */
const maxNameLength = 100;
/** Longest placeholder body text: deeper levels collapse to `"…"` until it fits. */
export const maxPlaceholderBodyLength = 4000;

/** The placeholder of a scalar's type. */
function scalarPlaceholder(v: Value): Value {
  if (v === null) return null;
  if (typeof v === 'boolean') return '<bool>';
  if (typeof v === 'number' || typeof v === 'bigint') return '<int>';
  if (typeof v === 'string') return '<string>';
  if (v instanceof PyFloat) return '<float>';
  if (v instanceof PyDateTime) return '<datetime>';
  if (v instanceof PyBinary) return '<base64>';
  if (v instanceof PyDecimal) return '<decimal>';
  return '<value>';
}

function shape(v: Value, depth: number): Value {
  if (Array.isArray(v)) {
    if (depth === 0) return v.length === 0 ? [] : ['…'];
    const items = v.slice(0, maxItems).map((item) => shape(item, depth - 1));
    return v.length > maxItems ? [...items, '…'] : items;
  }
  if (isStruct(v)) {
    if (depth === 0) return v.size === 0 ? new Map() : new Map([['…', '…']]);
    const out: Struct = new Map();
    for (const [name, item] of v) {
      if (out.size === maxMembers) {
        out.set('…', '…');
        break;
      }
      out.set(name.length > maxNameLength ? `${name.slice(0, maxNameLength)}…` : name, shape(item, depth - 1));
    }
    return out;
  }
  return scalarPlaceholder(v);
}

/** The placeholder body of a JSON-2 request body, as JSON text of at most {@link maxPlaceholderBodyLength} characters. */
export function placeholderBody(body: Struct): string {
  for (let depth = 8; depth >= 1; depth--) {
    const text = stringifyJson(shape(body, depth), { python: true, ensureAscii: false });
    if (text.length <= maxPlaceholderBodyLength) return text;
  }
  // even the names alone are too long: as many as fit
  const names: Struct = new Map();
  for (const name of body.keys()) {
    names.set(name.slice(0, maxNameLength), '…');
    if (stringifyJson(names, { python: true }).length > maxPlaceholderBodyLength - 20) {
      names.delete(name.slice(0, maxNameLength));
      names.set('…', '…');
      break;
    }
  }
  return stringifyJson(names, { python: true });
}
