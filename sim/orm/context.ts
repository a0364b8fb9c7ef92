/**
 * The JSON-2 `context` (Odoo: `addons/rpc/controllers/json2.py`): `with_context(context)` replaces the context through
 * `dict(context)`, so a non-object raises Python's dict() errors (corpus `err-json2-context-not-
 * object`); and `env.lang` refuses a language that is not active (`Invalid language code: xx`).
 */
import { isTruthy, type Struct, type Value } from '../../src/value.ts';
import type { Env } from './env.ts';
import { typeError, userError, valueError } from '../errors.ts';
import { pyStr } from '../python-repr.ts';

const typeNames = (v: Value): string => {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'int';
  return 'float';
};

/** The items `iter(v)` yields for a dict() update element, or undefined when it is not iterable. */
function iterate(v: Value): Value[] | undefined {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (v instanceof Map) return [...v.keys()];
  return undefined;
}

/** `dict(value)` for a JSON value, with CPython's errors. `None` is the empty context. */
export function contextFrom(value: Value | undefined): Struct {
  if (value === undefined || value === null) return new Map();
  if (value instanceof Map) return new Map(value);
  const items = iterate(value);
  if (items === undefined) throw typeError(`'${typeNames(value)}' object is not iterable`);
  const out: Struct = new Map();
  items.forEach((item, i) => {
    const pair = iterate(item);
    if (pair === undefined) throw typeError(`cannot convert dictionary update sequence element #${i} to a sequence`);
    if (pair.length !== 2) {
      throw valueError(`dictionary update sequence element #${i} has length ${pair.length}; 2 is required`);
    }
    const [key, v] = pair as [Value, Value];
    if (Array.isArray(key) || key instanceof Map) {
      throw typeError(`unhashable type: '${Array.isArray(key) ? 'list' : 'dict'}'`);
    }
    out.set(pyStr(key), v);
  });
  return out;
}

/** `env.lang`: a truthy context `lang` other than `en_US` must be an active `res.lang` code. */
export function checkLang(env: Env): void {
  const lang = env.context.get('lang');
  if (lang === undefined || !isTruthy(lang) || lang === 'en_US') return;
  const langs = env.db.model('res.lang');
  for (const row of langs?.rows.values() ?? []) {
    if (row.v.code === lang && row.v.active === true) return;
  }
  throw userError(`Invalid language code: ${pyStr(lang)}`);
}
