/**
 * CRUD round trips over JSON-2: create (dict or list → list of ids) with defaults and UTC stamps,
 * computed names, write, x2many commands, unlink with its side effects, copy, name_create, archiving.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import type { Struct, Value } from '../../src/value.ts';
import { type Simulator, startSimulator } from '../index.ts';
import { json2 } from '../test-support.ts';

const now = new Date(Date.UTC(2030, 2, 15, 8, 30, 5));
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ now: () => now });
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

async function call(model: string, method: string, json: string, as = 'admin'): Promise<Value> {
  const a = await json2(sim, model, method, parseJson(json), { key: sim.keyFor('demo', as) });
  if (a.status !== 200) throw new Error(`${model}.${method} answered ${a.status}: ${a.text}`);
  return a.value as Value;
}

async function text(model: string, method: string, json: string): Promise<string> {
  const a = await json2(sim, model, method, parseJson(json), { key: sim.keyFor('demo', 'admin') });
  return a.text;
}

describe('create', () => {
  it('returns a list of ids for a dict and for a list', async () => {
    const one = (await call('res.partner', 'create', '{"vals_list": {"name": "Solo"}}')) as number[];
    const two = (await call('res.partner', 'create', '{"vals_list": [{"name": "A"}, {"name": "B"}]}')) as number[];
    expect(one.length).toBe(1);
    expect(two).toEqual([(one[0] as number) + 1, (one[0] as number) + 2]);
  });

  it('applies defaults, context defaults and UTC create/write dates', async () => {
    const [id] = (await call(
      'res.partner',
      'create',
      '{"vals_list": [{"name": "Fresh"}], "context": {"default_function": "Buyer"}}',
    )) as number[];
    expect(
      await text(
        'res.partner',
        'read',
        `{"ids": [${id}], "fields": ["type", "active", "is_company", "function", "email", "credit_limit", "color", "category_id", "create_date", "write_date", "display_name", "company_type"]}`,
      ),
    ).toBe(
      `[{"id": ${id}, "type": "contact", "active": true, "is_company": false, "function": "Buyer", "email": false, "credit_limit": 0.0, "color": 0, "category_id": [], "create_date": "2030-03-15 08:30:05", "write_date": "2030-03-15 08:30:05", "display_name": "Fresh", "company_type": "person"}]`,
    );
  });

  it('computes "Company, Person" names and follows renames', async () => {
    const [id] = (await call('res.partner', 'create', '{"vals_list": [{"name": "Zoe Child", "parent_id": 9}]}')) as number[];
    expect(await text('res.partner', 'read', `{"ids": [${id}], "fields": ["complete_name", "commercial_partner_id"]}`)).toBe(
      `[{"id": ${id}, "complete_name": "Acme Corporation, Zoe Child", "commercial_partner_id": [9, "Acme Corporation"]}]`,
    );
    await call('res.partner', 'write', '{"ids": [9], "vals": {"name": "Acme Renamed"}}');
    expect(await text('res.partner', 'name_search', '{"name": "Zoe Child"}')).toBe(`[[${id}, "Acme Renamed, Zoe Child"]]`);
    const parent = (await call('res.partner', 'read', '{"ids": [9], "fields": ["child_ids"]}')) as Struct[];
    expect(parent[0]?.get('child_ids')).toContain(id);
  });

  it('creates one2many children and links many2many through commands', async () => {
    const [id] = (await call(
      'res.partner',
      'create',
      '{"vals_list": [{"name": "Parent Co", "is_company": true, "child_ids": [[0, 0, {"name": "Kid", "category_id": [[6, 0, [1, 2]]]}]]}]}',
    )) as number[];
    const [parent] = (await call('res.partner', 'read', `{"ids": [${id}], "fields": ["child_ids"]}`)) as Struct[];
    const [kid] = parent?.get('child_ids') as number[];
    expect(await text('res.partner', 'read', `{"ids": [${kid}], "fields": ["parent_id", "category_id"]}`)).toBe(
      `[{"id": ${kid}, "parent_id": [${id}, "Parent Co"], "category_id": [2, 1]}]`,
    );
    const [tag] = (await call('res.partner.category', 'read', '{"ids": [1], "fields": ["partner_ids"]}')) as Struct[];
    expect(tag?.get('partner_ids')).toEqual([kid]);
  });

  it('numbers sale orders and totals their lines', async () => {
    const [id] = (await call(
      'sale.order',
      'create',
      '{"vals_list": [{"partner_id": 11, "order_line": [[0, 0, {"product_id": 6, "product_uom_qty": 2, "price_unit": 10.25}], [0, 0, {"name": "Fee", "price_unit": 5, "discount": 10}]]}]}',
    )) as number[];
    expect(
      await text(
        'sale.order',
        'read',
        `{"ids": [${id}], "fields": ["name", "state", "partner_invoice_id", "amount_untaxed", "amount_total", "date_order", "user_id"]}`,
      ),
    ).toBe(
      `[{"id": ${id}, "name": "S00021", "state": "draft", "partner_invoice_id": [11, "Ready Mat"], "amount_untaxed": 25.0, "amount_total": 25.0, "date_order": "2030-03-15 08:30:05", "user_id": [2, "Mitchell Admin"]}]`,
    );
  });

  it('creates a user together with its partner', async () => {
    const [uid] = (await call('res.users', 'create', '{"vals_list": [{"name": "New User", "login": "newbie"}]}')) as number[];
    const [user] = (await call('res.users', 'read', `{"ids": [${uid}], "fields": ["partner_id", "login"]}`)) as Struct[];
    expect((user?.get('partner_id') as Value[])[1]).toBe('New User');
  });
});

describe('write, unlink, copy', () => {
  it('writes values and stamps write_date', async () => {
    expect(await text('res.partner', 'write', '{"ids": [9, 15], "vals": {"ref": "X-1", "credit_limit": 12}}')).toBe('true');
    expect(await text('res.partner', 'read', '{"ids": [15, 9], "fields": ["ref", "credit_limit", "write_date"]}')).toBe(
      '[{"id": 15, "ref": "X-1", "credit_limit": 12.0, "write_date": "2030-03-15 08:30:05"}, {"id": 9, "ref": "X-1", "credit_limit": 12.0, "write_date": "2030-03-15 08:30:05"}]',
    );
  });

  it('writes company_type through its inverse', async () => {
    await call('res.partner', 'write', '{"ids": [36], "vals": {"company_type": "company"}}');
    expect(await text('res.partner', 'read', '{"ids": [36], "fields": ["is_company", "complete_name"]}')).toBe(
      '[{"id": 36, "is_company": true, "complete_name": "Addison Olson"}]',
    );
  });

  it('unlinks, cascades order lines and clears references', async () => {
    expect(await text('sale.order', 'unlink', '{"ids": [1]}')).toBe('true');
    expect(await text('sale.order.line', 'search_count', '{"domain": [["order_id", "=", 1]]}')).toBe('0');
    expect(await text('sale.order', 'read', '{"ids": [1], "fields": ["name"]}')).toBe('[]');
    const [company] = (await call('res.partner', 'read', '{"ids": [8], "fields": ["child_ids"]}')) as Struct[];
    const child = (company?.get('child_ids') as number[])[0] as number;
    const [before] = (await call('res.partner', 'read', `{"ids": [${child}], "fields": ["name"]}`)) as Struct[];
    await call('res.partner', 'unlink', '{"ids": [8]}');
    expect(await text('res.partner', 'read', `{"ids": [${child}], "fields": ["parent_id", "complete_name"]}`)).toBe(
      `[{"id": ${child}, "parent_id": false, "complete_name": "${String(before?.get('name'))}"}]`,
    );
  });

  it('refuses to delete a record another one requires', async () => {
    const a = await json2(sim, 'res.partner', 'unlink', parseJson('{"ids": [10]}'), { key: sim.keyFor('demo', 'admin') });
    expect(a.status).toBe(422);
    expect(String((a.value as Struct).get('message'))).toMatch(
      /^The operation cannot be completed: another model requires the record being deleted/,
    );
  });

  it('copies into a list of new ids', async () => {
    const ids = (await call('res.partner', 'copy', '{"ids": [9], "default": {"ref": "COPY"}}')) as number[];
    expect(ids.length).toBe(1);
    expect(await text('res.partner', 'read', `{"ids": [${ids[0]}], "fields": ["name", "ref", "category_id", "child_ids"]}`)).toBe(
      `[{"id": ${ids[0]}, "name": "Acme Corporation (copy)", "ref": "COPY", "category_id": [7], "child_ids": []}]`,
    );
  });

  it('name_create answers [id, display_name]', async () => {
    const pair = (await call('res.partner', 'name_create', '{"name": "Jane Roe <jane@example.com>"}')) as Value[];
    expect(pair[1]).toBe('Jane Roe');
    expect(await text('res.partner', 'read', `{"ids": [${String(pair[0])}], "fields": ["email"]}`)).toBe(
      `[{"id": ${String(pair[0])}, "email": "jane@example.com"}]`,
    );
  });

  it('archives and unarchives, returning null', async () => {
    expect(await text('res.partner', 'action_archive', '{"ids": [9]}')).toBe('null');
    expect(await text('res.partner', 'search_count', '{"domain": [["id", "=", 9]]}')).toBe('0');
    expect(await text('res.partner', 'read', '{"ids": [9], "fields": ["active"]}')).toBe('[{"id": 9, "active": false}]');
    expect(await text('res.partner', 'toggle_active', '{"ids": [9]}')).toBe('null');
    expect(await text('res.partner', 'search_count', '{"domain": [["id", "=", 9]]}')).toBe('1');
  });

  it('resets to the seed', async () => {
    await call('res.partner', 'unlink', '{"ids": [36]}');
    expect(await text('res.partner', 'search_count', '{"domain": [["id", "=", 36]]}')).toBe('0');
    sim.reset();
    expect(await text('res.partner', 'search_count', '{"domain": [["id", "=", 36]]}')).toBe('1');
  });
});

describe('html fields', () => {
  it('drops scripts and event handlers on write', async () => {
    const html = '<div onclick="x()">Note <i>kept</i> &lt; ok <script>bad()</script><style>p {}</style></div>';
    await call('res.partner', 'write', JSON.stringify({ ids: [36], vals: { comment: html } }));
    expect(await text('res.partner', 'read', '{"ids": [36], "fields": ["comment"]}')).toBe(
      '[{"id": 36, "comment": "<div>Note <i>kept</i> &lt; ok </div>"}]',
    );
  });
});
