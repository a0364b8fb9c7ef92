/**
 * Domain semantics beyond the captured examples (which `sim/search-examples.test.ts` replays): negative
 * operators, `=?`, `any`, hierarchies by name, x2many conditions, datetimes, upper-case operators,
 * implicit active filter, orders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import type { Struct } from '../../src/value.ts';
import { type Simulator, startSimulator } from '../index.ts';
import { json2 } from '../test-support.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

async function ids(model: string, domain: string, extra = ''): Promise<number[]> {
  const a = await json2(sim, model, 'search', parseJson(`{"domain": ${domain}, "order": "id"${extra}}`), {
    key: sim.keyFor('demo', 'admin'),
  });
  if (a.status !== 200) throw new Error(a.text);
  return a.value as number[];
}

async function count(model: string, domain: string, context = '{}'): Promise<number> {
  const a = await json2(sim, model, 'search_count', parseJson(`{"domain": ${domain}, "context": ${context}}`), {
    key: sim.keyFor('demo', 'admin'),
  });
  if (a.status !== 200) throw new Error(a.text);
  return a.value as number;
}

describe('domains', () => {
  it('treats negative operators as complements, empty values included', async () => {
    const all = await count('res.partner', '[]');
    for (const [pos, neg] of [
      ['[["email", "ilike", "example.com"]]', '[["email", "not ilike", "example.com"]]'],
      ['[["state_id", "in", [13, 47]]]', '[["state_id", "not in", [13, 47]]]'],
      ['[["parent_id.name", "=", "Acme Corporation"]]', '[["parent_id.name", "!=", "Acme Corporation"]]'],
      ['[["category_id", "=", 7]]', '[["category_id", "!=", 7]]'],
    ]) {
      expect((await count('res.partner', pos as string)) + (await count('res.partner', neg as string))).toBe(all);
    }
  });

  it('skips =? with a false value', async () => {
    expect(await count('res.partner', '[["country_id", "=?", false]]')).toBe(await count('res.partner', '[]'));
    expect(await count('res.partner', '[["country_id", "=?", 203]]')).toBe(await count('res.partner', '[["country_id", "=", 203]]'));
  });

  it('lower-cases operators', async () => {
    expect(await ids('res.partner', '[["name", "ILIKE", "gemini furn"]]')).toEqual([10]);
  });

  it('evaluates any / not any on relations', async () => {
    expect(await ids('sale.order', '[["order_line", "any", [["product_id.default_code", "=", "FURN_8888"]]]]')).toEqual(
      await ids('sale.order', '[["order_line.product_id.default_code", "=", "FURN_8888"]]'),
    );
    const without = await ids('res.partner', '[["is_company", "=", true], ["child_ids", "not any", []]]');
    expect(without).toContain(12);
    expect(without).not.toContain(9);
  });

  it('resolves child_of with a name and parent_of', async () => {
    expect(await ids('res.partner', '[["id", "child_of", "Gemini Furniture"]]')).toEqual(
      await ids('res.partner', '[["id", "child_of", 10]]'),
    );
    expect(await ids('res.partner.category', '[["id", "parent_of", 6]]')).toEqual([1, 6]);
    expect(await ids('res.partner', '[["category_id", "child_of", 1]]')).toEqual([8, 9, 10, 11]);
  });

  it('compares x2many fields with ids, names and false', async () => {
    expect(await ids('res.partner', '[["category_id", "=", "Services"]]')).toEqual([15]);
    expect(await ids('res.partner', '[["category_id", "ilike", "supplies"]]')).toEqual([8, 11]);
    expect(await count('res.partner', '[["category_id", "=", false]]')).toBe((await count('res.partner', '[]')) - 5);
  });

  it('compares datetimes with date-only strings and dates with datetimes', async () => {
    expect(await count('sale.order', '[["date_order", ">=", "2026-11-01"]]')).toBe(
      await count('sale.order', '[["date_order", ">=", "2026-11-01 00:00:00"]]'),
    );
    expect(await count('sale.order', '[["validity_date", "=", "2026-12-22 10:00:00"]]')).toBe(
      await count('sale.order', '[["validity_date", "=", "2026-12-22"]]'),
    );
  });

  it('does not add the active filter when the domain names active', async () => {
    expect(await count('res.partner', '[["active", "in", [true, false]]]')).toBe(42);
    expect(await count('res.lang', '[]')).toBe(2);
    expect(await count('res.lang', '[]', '{"active_test": false}')).toBe(92);
  });

  it('searches display_name through the rec names', async () => {
    expect(await ids('res.country.state', '[["display_name", "=", "CA"], ["country_id.code", "=", "US"]]')).toEqual(
      await ids('res.country.state', '[["code", "=", "CA"], ["country_id.code", "=", "US"]]'),
    );
  });

  it('uses SQL LIKE wildcards and escapes', async () => {
    expect(await ids('res.partner', '[["name", "=like", "Gem_ni%"]]')).toEqual([10]);
    expect(await ids('res.partner', '[["name", "=like", "Gem\\\\_ni%"]]')).toEqual([]);
  });

  it('orders by many2one through the comodel order, with offset and limit', async () => {
    const orders = await json2(
      sim,
      'sale.order',
      'search_read',
      parseJson('{"domain": [], "fields": ["partner_id"], "order": "partner_id desc, id", "limit": 3, "offset": 1}'),
      { key: sim.keyFor('demo', 'admin') },
    );
    const names = (orders.value as Struct[]).map((r) => (r.get('partner_id') as [number, string])[1]);
    expect(names).toEqual([...names].sort().reverse());
  });

  it('reports an unknown order field', async () => {
    const a = await json2(sim, 'res.partner', 'search', parseJson('{"domain": [], "order": "nofield"}'), {
      key: sim.keyFor('demo', 'admin'),
    });
    expect(a.status).toBe(500);
    expect((a.value as Struct).get('message')).toBe("Invalid field 'nofield' on model 'res.partner'");
  });

  it('counts with a limit', async () => {
    expect(
      await json2(sim, 'res.partner', 'search_count', parseJson('{"domain": [], "limit": 3}'), { key: sim.keyFor('demo', 'admin') }).then(
        (a) => a.text,
      ),
    ).toBe('3');
  });
});
