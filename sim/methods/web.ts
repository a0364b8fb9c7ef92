/**
 * `web_read(specification)` and `web_search_read` (addons/web/models/models.py): `read(load=None)`
 * plus nested specifications for relational fields — many2one as `{id, …, display_name}`, x2many as
 * lists of objects with optional `order`, `limit` and `context`.
 */
import { isTruthy, type Struct, type Value } from '../../src/value.ts';
import { checkModelAccess } from '../orm/access.ts';
import type { Env } from '../orm/env.ts';
import { typeError } from '../errors.ts';
import { isX2many, numberOf } from '../orm/fields.ts';
import type { ModelStore, Row } from '../orm/model.ts';
import { readRows, resolveReadFields } from '../orm/orm-read.ts';
import { intParam, searchCount, searchRows } from '../orm/orm-search.ts';
import { pyRepr } from '../python-repr.ts';
import type { MethodImpl } from './call.ts';

function specOf(v: Value | undefined, what: string): Struct {
  if (v instanceof Map) return v;
  throw typeError(`${what} must be a dict, not ${pyRepr(v ?? null)}`);
}

function withSpecContext(env: Env, spec: Struct): Env {
  const ctx = spec.get('context');
  if (!(ctx instanceof Map)) return env;
  return env.withContext(new Map([...env.context, ...ctx]));
}

/** `web_read` of ids (missing ids dropped, except when only `id` is asked). */
function webRead(env: Env, model: ModelStore, ids: number[], spec: Struct): Struct[] {
  const names = [...spec.keys()];
  if (names.length === 0 || (names.length === 1 && names[0] === 'id')) return ids.map((id) => new Map([['id', id]]));
  const rows = ids.map((id) => model.get(id)).filter((r): r is Row => r !== undefined);
  const values = readRows(env, model, rows, resolveReadFields(env, model, names), false);
  for (const [name, raw] of spec) {
    const fieldSpec = specOf(raw, `specification of ${name}`);
    const f = model.field(name);
    const comodel = f?.relation === undefined ? undefined : env.db.model(f.relation);
    if (f === undefined || comodel === undefined) continue;
    const subEnv = withSpecContext(env, fieldSpec);
    if (f.type === 'many2one') {
      const sub = fieldSpec.get('fields');
      if (!(sub instanceof Map)) continue;
      const extra = new Map(sub);
      extra.delete('display_name');
      const coIds = [...new Set(values.map((v) => v.get(name)).filter((v): v is number => typeof v === 'number'))];
      const data = new Map(webRead(subEnv, comodel, coIds, extra).map((v) => [v.get('id') as number, v]));
      for (const v of values) {
        const id = v.get(name);
        if (typeof id !== 'number') continue;
        const co: Struct = data.get(id) ?? new Map([['id', id]]);
        if (sub.has('display_name')) co.set('display_name', env.db.displayName(comodel.name, id));
        v.set(name, sub.size === 1 && sub.has('id') ? id : co);
      }
    } else if (isX2many(f) && fieldSpec.size > 0) {
      const order = fieldSpec.get('order');
      if (typeof order === 'string' && order !== '') {
        const all = [...new Set(values.flatMap((v) => v.get(name) as number[]))];
        const sorted = searchRows(subEnv, comodel, [['id', 'in', all]], { order }).map((r) => r.id);
        const rank = new Map(sorted.map((id, i) => [id, i]));
        for (const v of values) {
          const list = (v.get(name) as number[]).filter((id) => rank.has(id));
          v.set(
            name,
            list.sort((a, b) => (rank.get(a) as number) - (rank.get(b) as number)),
          );
        }
      }
      const sub = fieldSpec.get('fields');
      if (!(sub instanceof Map)) continue;
      const limit = intParam('limit', fieldSpec.get('limit'));
      const wanted = [...new Set(values.flatMap((v) => (v.get(name) as number[]).slice(0, limit)))];
      const data = new Map(webRead(subEnv, comodel, wanted, sub).map((v) => [v.get('id') as number, v]));
      for (const v of values) {
        v.set(
          name,
          (v.get(name) as number[]).map((id): Value => data.get(id) ?? new Map([['id', id]])),
        );
      }
    }
  }
  return values;
}

export const webReadMethod: MethodImpl = (call) => {
  checkModelAccess(call.env, call.model, 'read');
  const ids = call.ids.map((id) => numberOf(id)).filter((n): n is number => n !== undefined);
  return webRead(call.env, call.model, ids, specOf(call.arg('specification'), 'specification'));
};

export const webSearchRead: MethodImpl = (call) => {
  const { env, model } = call;
  checkModelAccess(env, model, 'read');
  const spec = specOf(call.arg('specification'), 'specification');
  const offset = intParam('offset', call.arg('offset')) ?? 0;
  const limit = intParam('limit', call.arg('limit'));
  const countLimit = intParam('count_limit', call.arg('count_limit'));
  const domain = call.arg('domain');
  const rows = searchRows(env, model, domain, { offset, limit: limit ?? null, order: call.arg('order') });
  const records = webRead(
    env,
    model,
    rows.map((r) => r.id),
    spec,
  );
  if (records.length === 0)
    return new Map<string, Value>([
      ['length', 0],
      ['records', []],
    ]);
  const current = records.length + offset;
  const limitReached = records.length === limit;
  const countLimitReached = countLimit !== undefined && countLimit > 0 && countLimit <= current;
  const force = isTruthy(env.context.get('force_search_count') ?? false);
  const length =
    limit !== undefined && limit > 0 && ((limitReached && !countLimitReached) || force)
      ? searchCount(env, model, domain, countLimit ?? null)
      : current;
  return new Map<string, Value>([
    ['length', length],
    ['records', records],
  ]);
};
