/**
 * `formatted_read_group` (19.0, addons/web) and the deprecated `read_group`: groups of the searched
 * records with `__extra_domain` / `__domain`, `__count` (or `<field>_count` when lazy), aggregates,
 * date groups as `[start, label]` (or the label alone, with `__range`, in `read_group`).
 */
import type { Struct, Value } from '../../src/value.ts';
import { checkModelAccess } from '../orm/access.ts';
import type { Env } from '../orm/env.ts';
import { notImplemented, valueError } from '../errors.ts';
import { aggregatorOf, isX2many } from '../orm/fields.ts';
import { aggregate, dateRange, type Group, type GroupKey, type GroupSpec, groupRows, keyCompare, parseGroupby } from '../orm/grouping.ts';
import { parseDomain } from '../orm/domain-parse.ts';
import { andDomainList } from '../orm/domain-print.ts';
import type { ModelStore } from '../orm/model.ts';
import { intParam, searchRows } from '../orm/orm-search.ts';
import { pyRepr } from '../python-repr.ts';
import { type MethodImpl, namesArg } from './call.ts';

/** The conditions selecting one group's value of one groupby. */
function groupConditions(g: GroupSpec, key: GroupKey): Value[] {
  const name = g.field.name;
  // `(x2many, '=', False)` would bypass record rules: Odoo writes the empty group as 'not any'
  if (key === null) return [isX2many(g.field) ? [name, 'not any', []] : [name, '=', false]];
  if (g.granularity !== undefined) {
    const range = dateRange(g, String(key));
    return [
      [name, '>=', range.from],
      [name, '<', range.to],
    ];
  }
  return [[name, '=', key]];
}

/** n-ary AND in prefix form, as `list(Domain.AND(...))` prints it. */
function andDomain(conditions: Value[]): Value[] {
  return conditions.length <= 1 ? conditions : [...Array<Value>(conditions.length - 1).fill('&'), ...conditions];
}

function groupValue(env: Env, g: GroupSpec, key: GroupKey, labelOnly: boolean): Value {
  if (key === null) return false;
  if (g.granularity !== undefined) {
    const range = dateRange(g, String(key));
    return labelOnly ? range.label : [range.from, range.label];
  }
  if (g.field.relation !== undefined && typeof key === 'number') return [key, env.db.displayName(g.field.relation, key)];
  return key;
}

/** `aggregates` items: `__count` or `field:fn`. */
function parseAggregate(spec: string): [string, string] {
  if (spec === '__count') return ['__count', 'count'];
  const [field, fn] = spec.split(':');
  if (field === undefined || fn === undefined) throw valueError(`Invalid aggregate specification ${pyRepr(spec)}`);
  return [field, fn];
}

function sortGroups(env: Env, groups: Group[], order: Value, specs: GroupSpec[], value: (g: Group, term: string) => Value): Group[] {
  if (typeof order !== 'string' || order.trim() === '') return groups;
  const terms = order.split(',').map((t) => {
    const [term = '', dir = 'asc'] = t.trim().split(/\s+/);
    return { term, desc: dir.toLowerCase() === 'desc' };
  });
  const keyOf = (g: Group, term: string): Value => {
    const i = specs.findIndex((s) => s.spec === term || s.field.name === term);
    return i >= 0 ? (g.keys[i] as Value) : value(g, term);
  };
  return [...groups].sort((a, b) => {
    for (const { term, desc } of terms) {
      // a groupby term orders its groups as the groupby does (a many2one by its comodel's order)
      const i = specs.findIndex((s) => s.spec === term || s.field.name === term);
      if (i >= 0) {
        const c = keyCompare(env, specs[i] as GroupSpec)(a.keys[i] as GroupKey, b.keys[i] as GroupKey);
        if (c !== 0) return desc ? -c : c;
        continue;
      }
      const x = keyOf(a, term);
      const y = keyOf(b, term);
      const nx = typeof x === 'object' && x !== null && 'value' in x ? (x as { value: number }).value : x;
      const ny = typeof y === 'object' && y !== null && 'value' in y ? (y as { value: number }).value : y;
      if (nx === ny) continue;
      if (nx === null || nx === false) return desc ? -1 : 1;
      if (ny === null || ny === false) return desc ? 1 : -1;
      const c = (nx as number | string) < (ny as number | string) ? -1 : 1;
      return desc ? -c : c;
    }
    return 0;
  });
}

function page<T>(items: T[], offset: Value, limit: Value): T[] {
  const start = intParam('offset', offset) ?? 0;
  const size = intParam('limit', limit);
  return items.slice(start, size === undefined || size <= 0 ? undefined : start + size);
}

function groupsOf(env: Env, model: ModelStore, domain: Value, specs: GroupSpec[]): Group[] {
  return groupRows(env, searchRows(env, model, domain ?? []), specs);
}

export const formattedReadGroup: MethodImpl = (call) => {
  const { env, model } = call;
  checkModelAccess(env, model, 'read');
  const having = call.arg('having');
  if (Array.isArray(having) && having.length > 0) throw notImplemented('the Odoo simulator does not model `having`');
  const specs = (namesArg(call.arg('groupby'), 'groupby') ?? []).map((s) => parseGroupby(model, s));
  const aggregates = namesArg(call.arg('aggregates'), 'aggregates') ?? [];
  const parsed = aggregates.map(parseAggregate);
  const value = (g: Group, term: string): Value => {
    const [field, fn] = parseAggregate(term);
    return aggregate(model, field, fn, g.rows);
  };
  const groups = page(
    sortGroups(env, groupsOf(env, model, call.arg('domain'), specs), call.arg('order'), specs, value),
    call.arg('offset'),
    call.arg('limit'),
  );
  return groups.map((group) => {
    const out: Struct = new Map();
    specs.forEach((g, i) => out.set(g.spec, groupValue(env, g, group.keys[i] as GroupKey, false)));
    out.set('__extra_domain', andDomain(specs.flatMap((g, i) => groupConditions(g, group.keys[i] as GroupKey))));
    aggregates.forEach((spec, i) => {
      const [field, fn] = parsed[i] as [string, string];
      out.set(spec, aggregate(model, field, fn, group.rows));
    });
    return out;
  });
};

/** read_group `fields`: `f`, `f:agg` or `alias:agg(f)` → [result key, field, function]. */
function parseReadGroupField(model: ModelStore, spec: string, groupbyFields: Set<string>): [string, string, string] | undefined {
  if (spec === '__count') return undefined;
  const m = /^(\w+)(?::(\w+)(?:\((\w+)\))?)?$/.exec(spec.trim());
  if (m === null) throw valueError(`Invalid field specification ${pyRepr(spec)}`);
  const [, key = '', fn, inner] = m;
  const field = inner ?? key;
  if (fn !== undefined) return [key, field, fn];
  const f = model.field(field);
  if (f === undefined) throw valueError(`Invalid field '${field}' on model '${model.name}'`);
  // read_group: a bare field takes its aggregator if it is stored and not grouped by
  const aggregator = aggregatorOf(f);
  if (aggregator === undefined || !f.store || groupbyFields.has(spec.trim())) return undefined;
  return [key, field, aggregator];
}

export const readGroup: MethodImpl = (call) => {
  const { env, model } = call;
  checkModelAccess(env, model, 'read');
  const raw = call.arg('groupby');
  const groupby = typeof raw === 'string' ? [raw] : (namesArg(raw, 'groupby') ?? []);
  const lazy = call.arg('lazy') !== false && call.arg('lazy') !== null && call.arg('lazy') !== 0;
  const lazyGroupby = lazy ? groupby.slice(0, 1) : groupby;
  // read_group keys its groupbys in a dict: a repeated spec groups once
  const specs = [...new Set(lazyGroupby)].map((s) => parseGroupby(model, s));
  const countKey = lazy && specs.length > 0 ? `${(groupby[0] as string).split(':')[0]}_count` : '__count';
  const fields = (namesArg(call.arg('fields'), 'fields') ?? [])
    .map((s) => parseReadGroupField(model, s, new Set(specs.map((g) => g.spec))))
    .filter((x): x is [string, string, string] => x !== undefined);
  const domain = call.arg('domain');
  const value = (g: Group, term: string): Value => {
    if (term === '__count' || term === countKey) return g.rows.length;
    const spec = fields.find(([key]) => key === term);
    return spec === undefined ? null : aggregate(model, spec[1], spec[2], g.rows);
  };
  const groups = page(
    sortGroups(env, groupsOf(env, model, domain, specs), call.arg('orderby'), specs, value),
    call.arg('offset'),
    call.arg('limit'),
  );
  return groups.map((group) => {
    const out: Struct = new Map();
    specs.forEach((g, i) => out.set(g.spec, groupValue(env, g, group.keys[i] as GroupKey, true)));
    out.set(countKey, group.rows.length);
    for (const [key, field, fn] of fields) out.set(key, aggregate(model, field, fn, group.rows));
    // `Domain(domain)` AND each group's conditions, printed as Odoo prints a Domain
    // ... but formats the row once per groupby of the list: a repeat conditions on the formatted value
    const seen = new Set<string>();
    const conditions = lazyGroupby.map((spec) => {
      const i = specs.findIndex((g) => g.spec === spec);
      const g = specs[i] as GroupSpec;
      const key = group.keys[i] as GroupKey;
      if (!seen.has(spec)) {
        seen.add(spec);
        return parseDomain(andDomain(groupConditions(g, key)));
      }
      const formatted = groupValue(env, g, key, true);
      if (formatted === false && isX2many(g.field)) return parseDomain([[g.field.name, 'not any', []]]);
      if (g.granularity !== undefined || Array.isArray(formatted)) return parseDomain([[g.field.name, '=', formatted]]);
      return parseDomain(andDomain(groupConditions(g, key)));
    });
    out.set('__domain', andDomainList([parseDomain(domain ?? []), ...conditions]));
    if (lazy && groupby.length > 1) out.set('__context', new Map<string, Value>([['group_by', groupby.slice(1)]]));
    const ranges: Struct = new Map();
    specs.forEach((g, i) => {
      if (g.granularity === undefined) return;
      const key = group.keys[i] as GroupKey;
      if (key === null) ranges.set(g.spec, false);
      else {
        const r = dateRange(g, String(key));
        ranges.set(
          g.spec,
          new Map<string, Value>([
            ['from', r.from],
            ['to', r.to],
          ]),
        );
      }
    });
    if (ranges.size > 0) out.set('__range', ranges);
    return out;
  });
};
