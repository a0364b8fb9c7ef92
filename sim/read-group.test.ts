/**
 * Grouping and the web read methods: `read_group` (lazy and not), `formatted_read_group` orders,
 * limits and granularities, `web_read` / `web_search_read` nested specifications.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../src/json/index.ts';
import type { Struct, Value } from '../src/value.ts';
import { type Simulator, startSimulator } from './index.ts';
import { json2 } from './test-support.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

async function call(model: string, method: string, json: string): Promise<Value> {
  const a = await json2(sim, model, method, parseJson(json), { key: sim.keyFor('demo', 'admin') });
  if (a.status !== 200) throw new Error(a.text);
  return a.value as Value;
}

describe('read_group', () => {
  it('names the count after the groupby when lazy and adds __domain with the search domain', async () => {
    const groups = (await call(
      'sale.order',
      'read_group',
      '{"domain": [["state", "=", "sale"]], "fields": ["amount_total"], "groupby": ["partner_id", "state"]}',
    )) as Struct[];
    const first = groups[0] as Struct;
    expect([...first.keys()]).toEqual(['partner_id', 'partner_id_count', 'amount_total', '__domain', '__context']);
    // `Domain(domain) & group`: the search domain first (odoo/orm/models.py read_group)
    expect(first.get('__domain')).toEqual([
      '&',
      ['state', '=', 'sale'],
      ['partner_id', '=', (first.get('partner_id') as Value[])[0] as Value],
    ]);
    expect(first.get('__context')).toEqual(new Map([['group_by', ['state']]]));
    const total = groups.reduce((s, g) => s + (g.get('partner_id_count') as number), 0);
    expect(total).toBe(15);
  });

  it('counts with __count when not lazy and groups by every field', async () => {
    const groups = (await call(
      'sale.order',
      'read_group',
      '{"domain": [], "fields": [], "groupby": ["state", "invoice_status"], "lazy": false}',
    )) as Struct[];
    expect([...(groups[0] as Struct).keys()]).toEqual(['state', 'invoice_status', '__count', '__domain']);
  });
});

describe('formatted_read_group', () => {
  it('orders groups by an aggregate, with limit and offset', async () => {
    const groups = (await call(
      'sale.order',
      'formatted_read_group',
      '{"domain": [], "groupby": ["partner_id"], "aggregates": ["__count", "amount_total:max"], "order": "__count desc, partner_id", "limit": 2, "offset": 1}',
    )) as Struct[];
    expect(groups.length).toBe(2);
    expect((groups[0] as Struct).get('__count') as number).toBeGreaterThanOrEqual((groups[1] as Struct).get('__count') as number);
  });

  it('groups dates by day, week, quarter and year with en_US labels', async () => {
    const label = async (granularity: string) => {
      const groups = (await call(
        'sale.order',
        'formatted_read_group',
        `{"domain": [["id", "=", 4]], "groupby": ["date_order:${granularity}"]}`,
      )) as Struct[];
      return (groups[0] as Struct).get(`date_order:${granularity}`);
    };
    expect(await label('day')).toEqual(['2026-11-21 00:00:00', '21 Nov 2026']);
    expect(await label('week')).toEqual(['2026-11-16 00:00:00', 'W47 2026']);
    expect(await label('quarter')).toEqual(['2026-10-01 00:00:00', 'Q4 2026']);
    expect(await label('year')).toEqual(['2026-01-01 00:00:00', '2026']);
  });

  it('groups a many2many and an empty group last', async () => {
    const groups = (await call(
      'res.partner',
      'formatted_read_group',
      '{"domain": [["is_company", "=", true]], "groupby": ["category_id"], "aggregates": ["__count"]}',
    )) as Struct[];
    const last = groups[groups.length - 1] as Struct;
    expect(last.get('category_id')).toBe(false);
    // `(many2many, '=', False)` would bypass record rules: Odoo writes 'not any' (addons/web/models/models.py)
    expect(last.get('__extra_domain')).toEqual([['category_id', 'not any', []]]);
  });

  it('averages as floats and sums integers as ints', async () => {
    const [group] = (await call(
      'res.partner',
      'formatted_read_group',
      '{"domain": [], "groupby": [], "aggregates": ["color:sum", "credit_limit:avg"]}',
    )) as Struct[];
    expect(typeof group?.get('color:sum')).toBe('number');
    expect(group?.get('__extra_domain')).toEqual([]);
  });
});

describe('web_read / web_search_read', () => {
  it('reads nested many2one and x2many specifications', async () => {
    const rows = (await call(
      'sale.order',
      'web_read',
      '{"ids": [1], "specification": {"partner_id": {"fields": {"display_name": {}, "email": {}}}, "order_line": {"fields": {"product_id": {}}, "limit": 2, "order": "id desc"}, "user_id": {}}}',
    )) as Struct[];
    const row = rows[0] as Struct;
    expect([...(row.get('partner_id') as Struct).keys()]).toEqual(['id', 'email', 'display_name']);
    expect(typeof row.get('user_id')).toBe('number');
    const lines = row.get('order_line') as Struct[];
    expect(lines.map((l) => [...l.keys()])).toEqual([['id', 'product_id'], ['id', 'product_id'], ['id']]);
    expect((lines[0] as Struct).get('id') as number).toBeGreaterThan((lines[1] as Struct).get('id') as number);
  });

  it('counts the full length only when the page is full', async () => {
    const page = (await call('res.partner', 'web_search_read', '{"domain": [], "specification": {"name": {}}, "limit": 5}')) as Struct;
    expect(page.get('length')).toBe(39);
    const all = (await call(
      'res.partner',
      'web_search_read',
      '{"domain": [["id", "in", [9, 10]]], "specification": {}, "limit": 5}',
    )) as Struct;
    expect(all.get('length')).toBe(2);
    expect(all.get('records')).toEqual([new Map([['id', 9]]), new Map([['id', 10]])]);
  });
});
