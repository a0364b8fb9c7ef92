/**
 * 20.0's `read_group` (odoo/orm/models.py @00649da42372cf197edfbb2fa8ab437862e39be4): `_read_group`
 * with its records turned into ids. One tuple per group — the groupby values, then the aggregates —
 * sent by JSON-2 as arrays: a many2one (or many2many, or `id`) groupby as an id (`False` for none), a
 * `:recordset` aggregate as a list of ids, a date groupby as the start of its period (`date` or
 * naive `datetime` text, as JSON-2 serialises them), empty values as `False` (`0` for counts, `[]`
 * for `array_agg`). With no groupby it answers one row of aggregates; with neither groupby nor
 * aggregates it refuses. Groups come in the order of their groupby columns (a many2one by id, a
 * selection by its keys' order, NULL last) unless `order` says otherwise. Its errors are Odoo's
 * `ValueError`s (`_read_group_groupby`, `_read_group_select`, `_read_group_orderby`,
 * `parse_read_group_spec`). Datetimes are truncated in UTC, as `formatted_read_group` here does.
 */
import { PyFloat, type Value } from '../../src/value.ts';
import { checkModelAccess } from '../orm/access.ts';
import type { Env } from '../orm/env.ts';
import { notImplemented, OdooError, valueError } from '../errors.ts';
import { type FieldDef, isFloat, isRelational, isX2many } from '../orm/fields.ts';
import { aggregate, dateRange, type Group, type GroupKey, type GroupSpec, groupRows, keyCompare } from '../orm/grouping.ts';
import type { ModelStore, Row } from '../orm/model.ts';
import { intParam, searchRows } from '../orm/orm-search.ts';
import { pyRepr } from '../python-repr.ts';
import { x2manyIds } from '../orm/relations.ts';
import { type MethodImpl, namesArg } from './call.ts';

/** `regex_read_group_spec`: `field`, `field.path`, `field:fn` (matched from the start, anchored at the end). */
const specPattern = /^(\w+)(\.([\w.]+))?(?::(\w+))?$/;

/** `parse_read_group_spec`: [field, path, granularity or function]. */
function parseSpec(spec: string): [string, string | undefined, string | undefined] {
  const m = specPattern.exec(spec);
  if (m === null) {
    throw valueError(
      `Invalid aggregate/groupby specification ${pyRepr(spec)}.\n` +
        '- Valid aggregate specification looks like "<field_name>:<agg>" example: "quantity:sum".\n' +
        '- Valid groupby specification looks like "<no_datish_field_name>" or "<datish_field_name>:<granularity>" example: "date:month" or "<properties_field_name>.<property>:<granularity>".',
    );
  }
  return [m[1] as string, m[3], m[4]];
}

const granularities = new Set(['day', 'week', 'month', 'quarter', 'year']);

/** `_read_group_groupby`'s checks, then the simulator's grouping spec. */
function groupbySpec(model: ModelStore, spec: string): GroupSpec {
  const [name, path, granularity] = parseSpec(spec);
  const field = model.field(name);
  if (field === undefined) throw valueError(`Invalid field ${pyRepr(name)} on model ${pyRepr(model.name)}`);
  if (field.type === 'properties') throw notImplemented(`the Odoo simulator does not group by properties ('${spec}')`);
  if (path !== undefined) {
    if (field.type !== 'many2one') throw valueError(`Only many2one path is accepted for the ${pyRepr(spec)} groupby spec`);
    throw notImplemented(`the Odoo simulator does not group by a many2one path ('${spec}')`);
  }
  const isDate = field.type === 'date' || field.type === 'datetime';
  if (isDate && granularity === undefined) throw valueError(`Granularity not set on a date(time) field: ${pyRepr(spec)}`);
  if (!isDate && granularity !== undefined) throw valueError(`Granularity set on a no-datetime field or property: ${pyRepr(spec)}`);
  if (isDate && !granularities.has(granularity as string)) {
    throw notImplemented(`the Odoo simulator does not group by '${spec}' on ${model.name}`);
  }
  if (field.type === 'one2many' || (!field.store && name !== 'id')) {
    throw notImplemented(`the Odoo simulator does not group by '${spec}' on ${model.name}`);
  }
  return { spec, field, granularity };
}

/** `READ_GROUP_AGGREGATE`'s functions. */
const aggregateFunctions = new Set([
  'sum',
  'avg',
  'max',
  'min',
  'bool_and',
  'bool_or',
  'array_agg',
  'array_agg_distinct',
  'recordset',
  'count',
  'count_distinct',
]);

interface AggregateSpec {
  spec: string;
  field: FieldDef | undefined;
  fn: string;
}

/** `_read_group_select`'s checks. */
function aggregateSpec(model: ModelStore, spec: string): AggregateSpec {
  if (spec === '__count') return { spec, field: undefined, fn: 'count' };
  const [name, path, fn] = parseSpec(spec);
  if (path !== undefined) throw valueError(`Invalid ${pyRepr(spec)}, this dot notation is not supported`);
  const field = model.field(name);
  if (field === undefined) throw valueError(`Invalid field ${pyRepr(name)} on model ${pyRepr(model.name)} for ${pyRepr(spec)}.`);
  if (fn === undefined) throw valueError(`Aggregate method is mandatory for ${pyRepr(name)}`);
  if (fn === 'sum_currency') {
    if (field.type !== 'monetary') throw valueError(`Aggregator "sum_currency" only works on currency field for ${pyRepr(name)}`);
    throw notImplemented('the Odoo simulator does not convert currencies (sum_currency)');
  }
  if (!aggregateFunctions.has(fn)) throw valueError(`Invalid aggregate method ${pyRepr(fn)} for ${pyRepr(spec)}.`);
  if (fn === 'recordset' && !(isRelational(field) || name === 'id')) {
    throw valueError(`Aggregate method ${pyRepr(fn)} can be only used on relational field (or id) (for ${pyRepr(spec)}).`);
  }
  return { spec, field, fn };
}

/** `_read_group_empty_value` once records are ids: 0 for counts, [] for arrays and recordsets, else False. */
function emptyValue(a: AggregateSpec): Value {
  if (a.fn === 'count' || a.fn === 'count_distinct') return 0;
  if (a.fn === 'array_agg' || a.fn === 'array_agg_distinct' || a.fn === 'recordset') return [];
  return false;
}

/** `recordset`'s ids: the records the rows point at, deduplicated, without NULL, in row order. */
function relatedIds(env: Env, field: FieldDef, rows: Row[]): number[] {
  const ids = rows.flatMap((row): number[] => {
    if (field.name === 'id') return [row.id];
    if (isX2many(field)) return x2manyIds(env.db, row, field, false);
    const v = row.v[field.name];
    return typeof v === 'number' && v !== 0 ? [v] : [];
  });
  return [...new Set(ids)];
}

/** One aggregate of a group's rows (`ARRAY_AGG(… ORDER BY id)` for the array forms). */
function aggregateValue(env: Env, model: ModelStore, a: AggregateSpec, rows: Row[]): Value {
  if (a.spec === '__count') return rows.length;
  const field = a.field as FieldDef;
  const byId = [...rows].sort((x, y) => x.id - y.id);
  if (a.fn === 'recordset') {
    const ids = relatedIds(env, field, byId);
    return ids.length === 0 ? emptyValue(a) : ids;
  }
  if (a.fn === 'array_agg_distinct') {
    const values = aggregate(model, field.name, 'array_agg', byId) as Value[];
    const seen = new Map(values.filter((v) => v !== false).map((v) => [JSON.stringify(v), v] as const));
    return [...seen.values()].sort((x, y) => (String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0));
  }
  if (rows.length === 0) return emptyValue(a);
  const value = aggregate(model, field.name, a.fn, byId);
  return value === null ? emptyValue(a) : value;
}

/** A group's value of one groupby column, records as ids. */
function groupValue(g: GroupSpec, key: GroupKey): Value {
  if (key === null) return false;
  if (g.granularity !== undefined) return dateRange(g, String(key)).from;
  if (typeof key === 'number' && isFloat(g.field)) return new PyFloat(key);
  return key;
}

/** `regex_order_part_read_group`, fully matched. */
const orderPart = /^\s*(([a-z0-9_]+)(\.([\w.]+))?(:([a-z_]+))?)(\s+(desc|asc))?(\s+(nulls first|nulls last))?\s*$/i;

type Compare = (a: Group, b: Group) => number;

/** Compares two keys of one groupby column: NULL as the largest value (PostgreSQL's order). */
function columnCompare(env: Env, g: GroupSpec, traverseMany2one: boolean): (a: GroupKey, b: GroupKey) => number {
  if (traverseMany2one && g.field.type === 'many2one') return keyCompare(env, g);
  const selection = g.field.type === 'selection' ? (g.field.selection ?? []) : undefined;
  return (a, b) => {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    if (selection !== undefined) return selection.indexOf(String(a)) - selection.indexOf(String(b));
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a) < String(b) ? -1 : 1;
  };
}

const valueRank = (v: Value): number | string | undefined => {
  if (v === null || v === false) return undefined;
  if (v instanceof PyFloat) return v.value;
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (v === true) return 1;
  return JSON.stringify(v);
};

/** `_read_group_orderby`: the groups' comparator, or undefined for none. */
function groupOrder(env: Env, model: ModelStore, order: Value, specs: GroupSpec[]): Compare | undefined {
  const given = typeof order === 'string' && order !== '' ? order : undefined;
  const text = given ?? specs.map((s) => s.spec).join(',');
  if (text === '') return undefined;
  const compares: Compare[] = text.split(',').map((part) => {
    const m = orderPart.exec(part);
    if (m === null) throw valueError(`Invalid order ${pyRepr(text)} for _read_group()`);
    const term = m[1] as string;
    const desc = (m[8] ?? 'asc').toLowerCase() === 'desc';
    const nulls = m[10]?.toLowerCase();
    const nullsFirst = nulls === undefined ? desc : nulls === 'nulls first';
    const i = specs.findIndex((s) => s.spec === term);
    if (i >= 0) {
      const cmp = columnCompare(env, specs[i] as GroupSpec, given !== undefined);
      return (a, b) => {
        const x = a.keys[i] as GroupKey;
        const y = b.keys[i] as GroupKey;
        if (x === null || y === null) return x === y ? 0 : (x === null) === nullsFirst ? -1 : 1;
        const c = cmp(x, y);
        return desc ? -c : c;
      };
    }
    let spec: AggregateSpec;
    try {
      spec = aggregateSpec(model, term);
    } catch (err) {
      if (err instanceof OdooError && err.odooName === 'builtins.ValueError') {
        throw valueError(`Order term ${pyRepr(part)} is not a valid aggregate nor valid groupby`);
      }
      throw err;
    }
    return (a, b) => {
      const x = valueRank(aggregateValue(env, model, spec, a.rows));
      const y = valueRank(aggregateValue(env, model, spec, b.rows));
      if (x === undefined || y === undefined) return x === y ? 0 : (x === undefined) === nullsFirst ? -1 : 1;
      const c = x < y ? -1 : x > y ? 1 : 0;
      return desc ? -c : c;
    };
  });
  return (a, b) => {
    for (const c of compares) {
      const r = c(a, b);
      if (r !== 0) return r;
    }
    return 0;
  };
}

function page<T>(items: T[], offset: Value, limit: Value): T[] {
  const start = intParam('offset', offset) ?? 0;
  const size = intParam('limit', limit);
  // `LIMIT` only when the limit is truthy
  return items.slice(start, size === undefined || size <= 0 ? undefined : start + size);
}

export const tupleReadGroup: MethodImpl = (call) => {
  const { env, model } = call;
  checkModelAccess(env, model, 'read');
  const groupby = (namesArg(call.arg('groupby'), 'groupby') ?? []).map((s) => groupbySpec(model, s));
  const aggregates = (namesArg(call.arg('aggregates'), 'aggregates') ?? []).map((s) => aggregateSpec(model, s));
  const having = call.arg('having');
  if (Array.isArray(having) && having.length > 0) throw notImplemented('the Odoo simulator does not model `having`');
  const rows = searchRows(env, model, call.arg('domain') ?? []);
  if (groupby.length === 0) {
    if (aggregates.length === 0) throw valueError('Need groupby or aggregates.');
    // one row of aggregates, as PostgreSQL answers an aggregate query without GROUP BY
    return page([aggregates.map((a) => aggregateValue(env, model, a, rows))], call.arg('offset'), call.arg('limit'));
  }
  let groups = groupRows(env, rows, groupby);
  const compare = groupOrder(env, model, call.arg('order'), groupby);
  if (compare !== undefined) groups = [...groups].sort(compare);
  return page(groups, call.arg('offset'), call.arg('limit')).map((group) => [
    ...groupby.map((g, i) => groupValue(g, group.keys[i] as GroupKey)),
    ...aggregates.map((a) => aggregateValue(env, model, a, group.rows)),
  ]);
};

/** True when a bound `read_group` is 20.0's (its table entry has `aggregates`), not 19.0's. */
export function isTupleReadGroup(params: readonly { name: string }[]): boolean {
  return params.some((p) => p.name === 'aggregates');
}
