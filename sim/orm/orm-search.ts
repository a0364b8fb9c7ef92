/**
 * `_search`: parse and compile the domain, add the implicit `active = True` unless the context's
 * `active_test` is off or the domain names `active` itself, apply record rules, order, offset, limit.
 */
import type { Value } from '../../src/value.ts';
import { recordRule } from './access.ts';
import { compileDomain } from './domain.ts';
import { mentionsField, parseDomain } from './domain-parse.ts';
import type { Env } from './env.ts';
import { typeError } from '../errors.ts';
import { numberOf } from './fields.ts';
import type { ModelStore, Row } from './model.ts';
import { orderCompare } from './order.ts';
import { pyRepr } from '../python-repr.ts';

export interface SearchOptions {
  offset?: Value;
  limit?: Value;
  order?: Value;
}

/** An integer parameter (`offset`, `limit`): `None`/`False` → undefined. */
export function intParam(name: string, v: Value | undefined): number | undefined {
  if (v === undefined || v === null || v === false) return undefined;
  const n = numberOf(v);
  if (n === undefined || !Number.isInteger(n)) throw typeError(`${name} must be an integer, not ${pyRepr(v)}`);
  return n;
}

function orderParam(v: Value | undefined): string | undefined {
  if (v === undefined || v === null || v === false) return undefined;
  if (typeof v !== 'string') throw typeError(`expected string or bytes-like object, got ${pyRepr(v)}`);
  return v;
}

/** The model's rows sorted by an order, cached until the database changes. */
function sortedRows(env: Env, model: ModelStore, order: string | undefined): Row[] {
  const key = order ?? '';
  const cached = model.sortedCache.get(key);
  if (cached !== undefined && cached.version === env.db.version) return cached.rows;
  const cmp = orderCompare(env.db, model, order);
  const rows = [...model.rows.values()].sort(cmp);
  model.sortedCache.set(key, { version: env.db.version, rows });
  return rows;
}

/** A predicate for the domain plus the implicit active filter and record rules. */
export function searchPredicate(env: Env, model: ModelStore, domain: Value): (row: Row) => boolean {
  const node = parseDomain(domain);
  const predicate = compileDomain(env, model, node);
  const activeOnly = env.activeTest && model.hasActive && !mentionsField(node, 'active');
  const rule = recordRule(env, model);
  return (row) => (!activeOnly || row.v.active === true) && (rule === undefined || rule(row)) && predicate(row);
}

/** `search()`: the matching rows in order, after offset and limit. */
export function searchRows(env: Env, model: ModelStore, domain: Value, opts: SearchOptions = {}): Row[] {
  const offset = intParam('offset', opts.offset) ?? 0;
  const limit = intParam('limit', opts.limit);
  const order = orderParam(opts.order);
  const test = searchPredicate(env, model, domain);
  const out: Row[] = [];
  let skipped = 0;
  for (const row of sortedRows(env, model, order)) {
    if (!test(row)) continue;
    if (skipped < offset) {
      skipped++;
      continue;
    }
    out.push(row);
    if (limit !== undefined && limit > 0 && out.length >= limit) break;
  }
  return out;
}

/** `search_count()`: the number of matching rows, at most `limit` when given. */
export function searchCount(env: Env, model: ModelStore, domain: Value, limitValue?: Value): number {
  const limit = intParam('limit', limitValue);
  const test = searchPredicate(env, model, domain);
  let count = 0;
  for (const row of model.rows.values()) {
    if (!test(row)) continue;
    count++;
    if (limit !== undefined && limit > 0 && count >= limit) break;
  }
  return count;
}
