/**
 * `read_group` answered through `formatted_read_group`, as Odoo 19.0's `read_group`
 * (odoo/orm/models.py) builds its answer from the same `_read_group` rows: `fields` become
 * aggregates (a bare field takes its `aggregator`), dates group by month unless told, the count is
 * `<groupby>_count` when lazy, `orderby` is rewritten onto the aggregates, a lazy call expands the
 * groups of a `group_expand` field (`read_group_expand`), and each row gets `__domain` (the call's
 * domain AND the group's), `__context` (the groupbys left when lazy) and `__range` (date groups).
 */
import { pythonError } from '../errors.ts';
import { reprValue } from '../python/py-repr.ts';
import { isStruct, isTruthy, type Struct, type Value } from '../value.ts';
import { and, andChildren, type Domain, DomainShapeError, domainList, parseDomain } from './python-domain.ts';
import { cannotTranslate } from './untranslatable.ts';

/** What `fields_get` tells of one field (attributes `type`, `store`, `aggregator`, `related`, `relation`). */
export interface FieldInfo {
  type: string;
  store: boolean;
  aggregator?: string | undefined;
  related?: string | undefined;
  relation?: string | undefined;
}

export interface ReadGroupDeps {
  /** `model.method(**body)` upstream, with the caller's key and database. */
  ask(model: string, method: string, body: Struct): Promise<Value>;
  /** The fields of a model (cached by the caller). */
  fields(model: string): Promise<Map<string, FieldInfo>>;
}

const successor = 'formatted_read_group';
const timeGranularities = new Set(['hour', 'day', 'week', 'month', 'quarter', 'year']);
const groupSpecPattern = /^(\w+)(\.([\w.]+))?(?::(\w+))?$/;
const fieldAggPattern = /^(\w+)(?::(\w+)(?:\((\w+)\))?)?/;

interface Groupby {
  /** The spec as the caller wrote it: the key of the answer. */
  key: string;
  /** The spec `_read_group` takes (`date` → `date:month`). */
  annotated: string;
  field: string;
  type: string;
  granularity: string | undefined;
}

const isDate = (type: string) => type === 'date' || type === 'datetime';

function invalidField(name: string, model: string) {
  return pythonError('ValueError', `Invalid field ${reprValue(name)} on model ${reprValue(model)}`);
}

function parseGroupby(spec: string, model: string, fields: Map<string, FieldInfo>): Groupby {
  const m = groupSpecPattern.exec(spec);
  if (m === null) {
    throw pythonError(
      'ValueError',
      `Invalid aggregate/groupby specification ${reprValue(spec)}.\n` +
        '- Valid aggregate specification looks like "<field_name>:<agg>" example: "quantity:sum".\n' +
        '- Valid groupby specification looks like "<no_datish_field_name>" or "<datish_field_name>:<granularity>" example: "date:month" or "<properties_field_name>.<property>:<granularity>".',
    );
  }
  const [, name = '', , property, granularity] = m;
  const info = fields.get(name);
  if (info === undefined) throw invalidField(name, model);
  if (property !== undefined && info.type !== 'properties')
    throw pythonError('ValueError', `Property name ${reprValue(property)} has to be used on a property field.`);
  if (info.type === 'properties') throw cannotTranslate(model, 'read_group', successor, 'grouping by a property');
  const annotated = isDate(info.type) ? `${name}:${granularity ?? 'month'}` : spec;
  return { key: spec, annotated, field: name, type: info.type, granularity: isDate(info.type) ? (granularity ?? 'month') : undefined };
}

/**
 * `field.base_field.store and field.base_field.column_type`. `base_field` follows only the fields a
 * model inherits through `_inherits` (fields_get shows them as related `<link>.<same name>` over a
 * many2one), not other related fields.
 */
async function baseHasColumn(model: string, name: string, deps: ReadGroupDeps): Promise<boolean> {
  let fields = await deps.fields(model);
  let info = fields.get(name);
  for (let hops = 0; info !== undefined && hops < 10; hops++) {
    const [link, target, more] = info.related?.split('.') ?? [];
    const relation = link === undefined ? undefined : fields.get(link);
    if (target !== name || more !== undefined || relation?.type !== 'many2one' || relation.relation === undefined) break;
    fields = await deps.fields(relation.relation);
    info = fields.get(name);
  }
  return info !== undefined && info.store && info.type !== 'one2many' && info.type !== 'many2many';
}

/** `read_group`'s `annotated_aggregates`: answer key → `_read_group` aggregate, in dict order. */
async function aggregatesOf(
  model: string,
  specs: Value[],
  countKey: string,
  groupbyKeys: Set<string>,
  deps: ReadGroupDeps,
): Promise<Map<string, string>> {
  const out = new Map<string, string>([[countKey, '__count']]);
  const fields = await deps.fields(model);
  for (const spec of specs) {
    if (spec === '__count') continue;
    if (typeof spec !== 'string')
      throw cannotTranslate(model, 'read_group', successor, `a field specification that is not a string (${reprValue(spec)})`);
    const m = fieldAggPattern.exec(spec);
    if (m === null) throw pythonError('ValueError', `Invalid field specification ${reprValue(spec)}.`);
    const [, name = '', func, inner] = m;
    if (inner !== undefined) out.set(name, `${inner}:${func as string}`);
    else if (func !== undefined) out.set(name, `${name}:${func}`);
    else {
      const info = fields.get(name);
      if (info === undefined) throw invalidField(name, model);
      if (info.aggregator !== undefined && !groupbyKeys.has(spec) && (await baseHasColumn(model, name, deps)))
        out.set(name, `${name}:${info.aggregator}`);
    }
  }
  for (const agg of out.values()) {
    if (agg.endsWith(':recordset'))
      throw cannotTranslate(
        model,
        'read_group',
        successor,
        "a ':recordset' aggregate (read_group answers records, formatted_read_group ids)",
      );
  }
  return out;
}

/** `orderby` rewritten onto the `_read_group` specs, exactly as read_group does it (first match wins). */
function orderOf(orderby: string, groupbys: Groupby[], aggregates: Map<string, string>): string {
  const pairs: Array<[string, string]> = [...[...groupbys].reverse().map((g): [string, string] => [g.key, g.annotated]), ...aggregates];
  return orderby
    .split(',')
    .map((raw) => {
      const term = raw.trim();
      for (const [key, annotated] of pairs) {
        const name = key.split(':')[0] as string;
        if (term.startsWith(`${name} `) || term === name) return term.split(name).join(annotated);
      }
      return term;
    })
    .join(',');
}

function withContext(context: Value | undefined, expand: boolean): Struct {
  const ctx: Struct = isStruct(context ?? null) ? new Map(context as Struct) : new Map();
  if (expand) ctx.set('read_group_expand', true);
  else if (ctx.has('read_group_expand')) ctx.set('read_group_expand', false);
  return ctx;
}

/** `read_group(domain, fields, groupby, offset=0, limit=None, orderby=False, lazy=True)` through formatted_read_group. */
export async function readGroupThroughSuccessor(model: string, args: Struct, deps: ReadGroupDeps): Promise<Value> {
  const context = args.get('context');
  const fill = isStruct(context ?? null) ? (context as Struct).get('fill_temporal') : undefined;
  if (fill !== undefined && (isTruthy(fill) || isStruct(fill)))
    throw cannotTranslate(model, 'read_group', successor, "the 'fill_temporal' context (formatted_read_group fills dates in its own way)");
  const domain = args.get('domain') ?? [];
  const rawGroupby = args.get('groupby') ?? [];
  const groupbyList = typeof rawGroupby === 'string' ? [rawGroupby] : rawGroupby;
  if (!Array.isArray(groupbyList) || !groupbyList.every((g): g is string => typeof g === 'string')) {
    throw cannotTranslate(model, 'read_group', successor, `a groupby that is not a list of names (${reprValue(rawGroupby)})`);
  }
  const rawFields = args.get('fields') ?? [];
  if (!Array.isArray(rawFields))
    throw cannotTranslate(model, 'read_group', successor, `fields that are not a list (${reprValue(rawFields)})`);
  const lazy = isTruthy(args.has('lazy') ? (args.get('lazy') as Value) : true);
  const offset = args.get('offset') ?? 0;
  const limit = args.get('limit') ?? null;
  const orderby = args.get('orderby') ?? false;
  if (isTruthy(orderby) && typeof orderby !== 'string')
    throw cannotTranslate(model, 'read_group', successor, `an orderby that is not a string (${reprValue(orderby)})`);

  const fields = await deps.fields(model);
  const lazyGroupby = lazy ? groupbyList.slice(0, 1) : groupbyList;
  // a dict keyed by the spec as written: a repeated spec is one group key
  const byKey = new Map<string, Groupby>();
  for (const spec of lazyGroupby) byKey.set(spec, parseGroupby(spec, model, fields));
  const groupbys = [...byKey.values()];
  const countKey = lazy && lazyGroupby.length === 1 ? `${(lazyGroupby[0] as string).split(':')[0]}_count` : '__count';
  const aggregates = await aggregatesOf(model, rawFields, countKey, new Set(byKey.keys()), deps);
  const order = isTruthy(orderby) ? orderOf(orderby as string, groupbys, aggregates) : groupbys.map((g) => g.annotated).join(',');

  // read_group fills a lazy group_expand field's empty groups always; formatted_read_group only
  // without offset and limit, and reverses them on a looser test of the order.
  const first = groupbys[0];
  let expand = lazy && first !== undefined;
  if (expand && first !== undefined) {
    const reverses = order === `${first.key} desc`;
    const successorReverses = order.toLowerCase().includes(`${first.annotated} desc`);
    if (isTruthy(offset) || isTruthy(limit) || reverses !== successorReverses) {
      const probe = await deps.ask(
        model,
        successor,
        new Map<string, Value>([
          ['domain', [[0, '=', 1]]],
          ['groupby', [first.annotated]],
          ['context', withContext(context, true)],
        ]),
      );
      if (Array.isArray(probe) && probe.length > 0) {
        throw cannotTranslate(
          model,
          'read_group',
          successor,
          `a lazy read_group on '${first.field}', whose empty groups Odoo fills (group_expand), with an offset, a limit or this orderby`,
        );
      }
      expand = false;
    }
  }

  const body: Struct = new Map<string, Value>([
    ['domain', domain],
    ['groupby', groupbys.map((g) => g.annotated)],
    ['aggregates', [...new Set(aggregates.values())]],
    ['offset', offset],
    ['limit', limit],
    ['order', order],
    ['context', withContext(context, expand)],
  ]);
  const groups = await deps.ask(model, successor, body);
  if (!Array.isArray(groups)) throw cannotTranslate(model, 'read_group', successor, 'an answer that is not a list');
  let callDomain: Domain;
  try {
    callDomain = parseDomain(domain);
  } catch (err) {
    if (err instanceof DomainShapeError)
      throw cannotTranslate(model, 'read_group', successor, `a domain the gateway cannot rebuild (${err.message})`);
    throw err;
  }
  const rest = groupbyList.slice(lazyGroupby.length);
  return groups.map((group) => {
    if (!isStruct(group)) throw cannotTranslate(model, 'read_group', successor, 'a group that is not a dict');
    return rowOf(model, group, { groupbys, lazyGroupby, byKey, aggregates, countKey, expand, callDomain, rest });
  });
}

/** The condition read_group adds for a group value that is no longer `_read_group`'s own. */
function plainPart(g: Groupby, value: Value): Domain[] {
  const condition = (field: string, operator: string, v: Value): Domain[] => [{ kind: 'condition', field, operator, value: v }];
  if (!isTruthy(value) && g.type === 'many2many') return condition(g.field, 'not any', []);
  if (g.granularity !== undefined && !timeGranularities.has(g.granularity)) return condition(`${g.field}.${g.granularity}`, '=', value);
  return condition(g.field, '=', value);
}

interface RowPlan {
  groupbys: Groupby[];
  lazyGroupby: string[];
  byKey: Map<string, Groupby>;
  aggregates: Map<string, string>;
  countKey: string;
  expand: boolean;
  callDomain: Domain;
  rest: string[];
}

/** One read_group row from one formatted_read_group group. */
function rowOf(model: string, group: Struct, plan: RowPlan): Struct {
  const fail = (what: string) => cannotTranslate(model, 'read_group', successor, what);
  let extra: Domain[];
  try {
    extra = andChildren(parseDomain(group.get('__extra_domain') ?? []));
  } catch {
    throw fail('a group domain the gateway cannot rebuild');
  }
  // each groupby's share of the group domain: two conditions for a dated group, else one
  const parts = new Map<string, Domain[]>();
  const values = new Map<string, Value>();
  const range: Struct = new Map();
  let at = 0;
  for (const g of plan.groupbys) {
    const value = group.get(g.annotated);
    if (value === undefined) throw fail(`a group without '${g.annotated}'`);
    const timed = g.granularity !== undefined && timeGranularities.has(g.granularity);
    if (timed && isTruthy(value)) {
      if (!Array.isArray(value) || value.length !== 2) throw fail(`a date group value ${reprValue(value)}`);
      const end = extra[at + 1];
      if (end?.kind !== 'condition' || end.operator !== '<') throw fail('a date group domain without its end');
      parts.set(g.key, extra.slice(at, at + 2));
      values.set(g.key, value[1] as Value);
      range.set(
        g.key,
        new Map<string, Value>([
          ['from', value[0] as Value],
          ['to', end.value],
        ]),
      );
      at += 2;
    } else {
      parts.set(g.key, extra.slice(at, at + 1));
      values.set(g.key, value);
      if (timed) range.set(g.key, false);
      at += 1;
    }
  }
  if (at !== extra.length) throw fail('a group domain of another shape');

  const row: Struct = new Map();
  // the keys that still hold `_read_group`'s own group value: an aggregate of the same name
  // overwrites it in read_group's dict, and formatting then sees the aggregate
  const raw = new Set<string>();
  const setGroups = () => {
    for (const [key, value] of values) {
      row.set(key, value);
      raw.add(key);
    }
  };
  const count = group.get('__count');
  // read_group's filled (empty) groups list the aggregates first, then the group value
  const filled = plan.expand && count === 0;
  if (!filled) setGroups();
  for (const [key, spec] of plan.aggregates) {
    const value = group.get(spec);
    if (value === undefined) throw fail(`a group without '${spec}'`);
    row.set(key, value);
    raw.delete(key);
  }
  if (filled) setGroups();
  if (group.has('__fold')) row.set('__fold', group.get('__fold') as Value);
  // read_group formats the row once per groupby of the list; a repeated groupby, or one an
  // aggregate overwrote, conditions on the value the row holds by then
  const formatted = new Set<string>();
  const ranges: Struct = new Map();
  const domains: Domain[] = [plan.callDomain];
  for (const spec of plan.lazyGroupby) {
    const g = plan.byKey.get(spec) as Groupby;
    if (raw.has(spec)) {
      raw.delete(spec);
      formatted.add(spec);
      domains.push(and(parts.get(spec) ?? []));
      const r = range.get(spec);
      if (r !== undefined) ranges.set(spec, r);
    } else {
      const value = row.get(spec) ?? false;
      const timed = g.granularity !== undefined && timeGranularities.has(g.granularity);
      if (timed && isTruthy(value) && !formatted.has(spec)) throw fail(`an aggregate named like the date groupby '${spec}'`);
      if (timed && !isTruthy(value)) ranges.set(spec, false);
      domains.push(and(plainPart(g, value)));
    }
  }
  const domain = and(domains);
  row.set('__domain', domainList(domain));
  if (plan.rest.length > 0) row.set('__context', new Map<string, Value>([['group_by', plan.rest]]));
  if (ranges.size > 0) row.set('__range', ranges);
  return row;
}
