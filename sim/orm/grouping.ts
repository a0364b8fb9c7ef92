/**
 * The grouping core of `read_group` / `formatted_read_group`: groupby specs (`partner_id`,
 * `date_order:month`), group keys, date ranges and their en_US labels ("March 2030", "W11 2030",
 * "Q1 2030"), the groups' default order (the groupby fields' own orders, NULL groups last), and
 * aggregates (`__count`, `field:sum|avg|min|max|count|count_distinct|bool_and|bool_or|array_agg`).
 */
import { PyFloat, type Value } from '../../src/value.ts';
import { formatDatetime, parseOdooDatetime } from '../clock.ts';
import type { Env } from './env.ts';
import { notImplemented, valueError } from '../errors.ts';
import { type FieldDef, isFloat, isX2many } from './fields.ts';
import type { ModelStore, Row } from './model.ts';
import { defaultCompare } from './order.ts';
import { x2manyIds } from './relations.ts';

export interface GroupSpec {
  spec: string;
  field: FieldDef;
  granularity: string | undefined;
}

export type GroupKey = number | string | boolean | null;

export interface Group {
  keys: GroupKey[];
  rows: Row[];
}

const granularities = new Set(['day', 'week', 'month', 'quarter', 'year']);
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Parses `field` or `field:granularity` (dates default to `month`). */
export function parseGroupby(model: ModelStore, spec: string): GroupSpec {
  const [name = '', granularity] = spec.split(':');
  const field = model.field(name);
  if (field === undefined) throw valueError(`Invalid field '${name}' on model '${model.name}'`);
  const isDate = field.type === 'date' || field.type === 'datetime';
  if (granularity !== undefined && (!isDate || !granularities.has(granularity))) {
    throw notImplemented(`the Odoo simulator does not group by '${spec}' on ${model.name}`);
  }
  if (!field.groupable) throw valueError(`Field ${model.name}.${name} is not groupable`);
  return { spec, field, granularity: isDate ? (granularity ?? 'month') : undefined };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The start of the period holding a date/datetime text (PostgreSQL `date_trunc`, weeks on Monday). */
function periodStart(text: string, granularity: string): Date {
  const d = parseOdooDatetime(text.slice(0, 19)) ?? new Date(Number.NaN);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (granularity) {
    case 'day':
      return new Date(Date.UTC(y, m, d.getUTCDate()));
    case 'week':
      return new Date(Date.UTC(y, m, d.getUTCDate() - ((d.getUTCDay() + 6) % 7)));
    case 'quarter':
      return new Date(Date.UTC(y, m - (m % 3), 1));
    case 'year':
      return new Date(Date.UTC(y, 0, 1));
    default:
      return new Date(Date.UTC(y, m, 1));
  }
}

function periodEnd(start: Date, granularity: string): Date {
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth();
  const d = start.getUTCDate();
  if (granularity === 'day') return new Date(Date.UTC(y, m, d + 1));
  if (granularity === 'week') return new Date(Date.UTC(y, m, d + 7));
  if (granularity === 'quarter') return new Date(Date.UTC(y, m + 3, 1));
  if (granularity === 'year') return new Date(Date.UTC(y + 1, 0, 1));
  return new Date(Date.UTC(y, m + 1, 1));
}

/** en_US week of year (weeks start on Sunday, week 1 holds January 1st) and its year. */
function usWeek(d: Date): [number, number] {
  const sunday = (x: Date) => Date.UTC(x.getUTCFullYear(), x.getUTCMonth(), x.getUTCDate() - x.getUTCDay());
  const start = sunday(d);
  const nextYear = sunday(new Date(Date.UTC(d.getUTCFullYear() + 1, 0, 1)));
  if (start >= nextYear) return [1, d.getUTCFullYear() + 1];
  const first = sunday(new Date(Date.UTC(d.getUTCFullYear(), 0, 1)));
  return [Math.round((start - first) / 604_800_000) + 1, d.getUTCFullYear()];
}

/** babel's en_US label of a period (`MMMM yyyy`, `dd MMM yyyy`, `'W'w YYYY`, `QQQ yyyy`, `yyyy`). */
function periodLabel(start: Date, granularity: string): string {
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth();
  if (granularity === 'day') return `${pad(start.getUTCDate())} ${(months[m] as string).slice(0, 3)} ${y}`;
  if (granularity === 'week') {
    const [w, wy] = usWeek(start);
    return `W${w} ${wy}`;
  }
  if (granularity === 'quarter') return `Q${Math.floor(m / 3) + 1} ${y}`;
  if (granularity === 'year') return String(y);
  return `${months[m]} ${y}`;
}

/** The range of a date group: `from`/`to` in the field's text form, and the label. */
export function dateRange(g: GroupSpec, key: string): { from: string; to: string; label: string } {
  const start = periodStart(key, g.granularity as string);
  const end = periodEnd(start, g.granularity as string);
  const text = (d: Date) => (g.field.type === 'date' ? formatDatetime(d).slice(0, 10) : formatDatetime(d));
  return { from: text(start), to: text(end), label: periodLabel(start, g.granularity as string) };
}

function keysOf(env: Env, row: Row, g: GroupSpec): GroupKey[] {
  const v = g.field.name === 'id' ? row.id : row.v[g.field.name];
  if (isX2many(g.field)) {
    const ids = x2manyIds(env.db, row, g.field, true);
    return ids.length === 0 ? [null] : ids;
  }
  if (g.field.type === 'boolean') return [v === true];
  if (v === false || v === undefined || Array.isArray(v)) return [null];
  if (g.granularity !== undefined) return [dateRange(g, String(v)).from];
  return [v];
}

/** The order of one groupby's keys: the comodel's own order for many2one, NULL last. */
export function keyCompare(env: Env, g: GroupSpec): (a: GroupKey, b: GroupKey) => number {
  const comodel = g.field.relation === undefined ? undefined : env.db.model(g.field.relation);
  const rowCmp = comodel?.seeded ? defaultCompare(env.db, comodel) : undefined;
  return (a, b) => {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    if (rowCmp !== undefined && comodel !== undefined && typeof a === 'number' && typeof b === 'number') {
      const ra = comodel.get(a);
      const rb = comodel.get(b);
      if (ra !== undefined && rb !== undefined) return rowCmp(ra, rb);
    }
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a) < String(b) ? -1 : 1;
  };
}

/** Groups rows by the specs, in the groupby fields' default order. */
export function groupRows(env: Env, rows: Row[], specs: GroupSpec[]): Group[] {
  const groups = new Map<string, Group>();
  for (const row of rows) {
    let combos: GroupKey[][] = [[]];
    for (const g of specs) combos = combos.flatMap((c) => keysOf(env, row, g).map((k) => [...c, k]));
    for (const keys of combos) {
      const id = JSON.stringify(keys);
      const group = groups.get(id);
      if (group === undefined) groups.set(id, { keys, rows: [row] });
      else group.rows.push(row);
    }
  }
  const cmps = specs.map((g) => keyCompare(env, g));
  return [...groups.values()].sort((a, b) => {
    for (let i = 0; i < cmps.length; i++) {
      const c = (cmps[i] as (x: GroupKey, y: GroupKey) => number)(a.keys[i] as GroupKey, b.keys[i] as GroupKey);
      if (c !== 0) return c;
    }
    return 0;
  });
}

const precise = (x: number): number => Number.parseFloat(x.toPrecision(15));

/** One aggregate over a group's rows. */
export function aggregate(model: ModelStore, fieldName: string, fn: string, rows: Row[]): Value {
  if (fieldName === '__count' || (fieldName === 'id' && fn === 'count')) return rows.length;
  const f = model.field(fieldName);
  if (f === undefined) throw valueError(`Invalid field '${fieldName}' on model '${model.name}'`);
  const values = rows.map((r) => (fieldName === 'id' ? r.id : r.v[fieldName])).filter((v) => v !== false && v !== undefined);
  const nums = values.filter((v): v is number => typeof v === 'number');
  const asField = (x: number): Value => (isFloat(f) ? new PyFloat(precise(x)) : x);
  switch (fn) {
    case 'sum':
      return asField(nums.reduce((s, x) => s + x, 0));
    case 'avg':
      return nums.length === 0 ? null : new PyFloat(precise(nums.reduce((s, x) => s + x, 0) / nums.length));
    case 'min':
    case 'max': {
      if (values.length === 0) return f.type === 'many2one' ? false : null;
      const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const pick = fn === 'min' ? sorted[0] : sorted[sorted.length - 1];
      return typeof pick === 'number' ? asField(pick) : (pick as Value);
    }
    case 'count':
      return values.length;
    case 'count_distinct':
      return new Set(values.map((v) => JSON.stringify(v))).size;
    case 'bool_and':
      return rows.every((r) => r.v[fieldName] === true);
    case 'bool_or':
      return rows.some((r) => r.v[fieldName] === true);
    case 'array_agg':
      return rows.map((r): Value => {
        const v = fieldName === 'id' ? r.id : r.v[fieldName];
        return typeof v === 'number' && isFloat(f) ? new PyFloat(v) : (v ?? false);
      });
    default:
      throw valueError(`Invalid aggregation function ${JSON.stringify(fn)}.`);
  }
}
