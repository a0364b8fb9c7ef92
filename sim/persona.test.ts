/**
 * The series personas (`sim/persona.ts`) as a client meets them: the release each names itself, 20.0's
 * `read_group` (tuples, records as ids) and its errors, the methods saas-19.1 / 20.0 removed, what
 * `/doc-bearer` lists, and 20.0's `ir.access` in place of `ir.model.access` / `ir.rule`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../src/json/index.ts';
import { PyFloat, type Struct, type Value } from '../src/value.ts';
import { type Series, type Simulator, seriesNames, startSimulator } from './index.ts';
import { json2, rawCall, type RawAnswer } from './test-support.ts';

const sims = new Map<Series, Simulator>();
beforeAll(async () => {
  for (const series of seriesNames) sims.set(series, await startSimulator({ databases: ['demo'], series, legacyEndpoints: true }));
});
afterAll(() => Promise.all([...sims.values()].map((s) => s.close())));

const simOf = (series: Series): Simulator => sims.get(series) as Simulator;

function call(series: Series, model: string, method: string, body: string): Promise<RawAnswer> {
  const sim = simOf(series);
  return json2(sim, model, method, parseJson(body), { key: sim.keyFor('demo', 'admin') });
}

async function ok(series: Series, model: string, method: string, body: string): Promise<Value> {
  const a = await call(series, model, method, body);
  if (a.status !== 200) throw new Error(`${a.status} ${a.text}`);
  return a.value as Value;
}

/** The error an answer carries: status, exception name, message. */
async function failure(series: Series, model: string, method: string, body: string): Promise<[number, Value, Value]> {
  const a = await call(series, model, method, body);
  const err = a.value as Struct;
  return [a.status, err.get('name') as Value, err.get('message') as Value];
}

describe('the release each series names itself', () => {
  const releases: [Series, Value[], string][] = [
    ['19.0', [19, 0, 0, 'final', 0, ''], '19.0'],
    // odoo/release.py of a saas series: version_info = ('saas~19', 1, 0, FINAL, 0, '')
    ['saas-19.1', ['saas~19', 1, 0, 'final', 0, ''], 'saas~19.1'],
    ['20.0', [20, 0, 0, 'final', 0, ''], '20.0'],
  ];

  it.each(releases)('%s: /web/version, /web/webclient/version_info and common.version agree', async (series, info, version) => {
    const sim = simOf(series);
    const web = (await rawCall(sim, '/web/version', { method: 'GET', contentType: null })).value as Struct;
    expect(web.get('version_info')).toEqual(info);
    expect(web.get('version')).toBe(version);
    const rpc = { jsonrpc: '2.0', method: 'call', id: 1, params: {} };
    const webclient = (await rawCall(sim, '/web/webclient/version_info', { body: JSON.stringify(rpc) })).value as Struct;
    const expected = new Map<string, Value>([
      ['server_version', version],
      ['server_version_info', info],
      ['server_serie', version],
      ['protocol_version', 1],
    ]);
    expect(webclient.get('result')).toEqual(expected);
    const legacy = { jsonrpc: '2.0', method: 'call', id: 1, params: { service: 'common', method: 'version', args: [] } };
    const common = (await rawCall(sim, '/jsonrpc', { body: JSON.stringify(legacy) })).value as Struct;
    expect(common.get('result')).toEqual(expected);
  });
});

describe("20.0's read_group", () => {
  it('answers one array per group: a many2one as an id, a recordset aggregate as ids, groups in id order', async () => {
    const rows = (await ok(
      '20.0',
      'sale.order',
      'read_group',
      '{"domain": [], "groupby": ["partner_id"], "aggregates": ["__count", "amount_total:sum", "id:recordset"]}',
    )) as Value[][];
    const partners = rows.map((r) => r[0] as number);
    expect(partners).toEqual([...partners].sort((a, b) => a - b));
    // the same groups as formatted_read_group (19.0's successor, unchanged on 20.0)
    const formatted = (await ok(
      '20.0',
      'sale.order',
      'formatted_read_group',
      '{"domain": [], "groupby": ["partner_id"], "aggregates": ["__count", "amount_total:sum", "id:array_agg"]}',
    )) as Struct[];
    const expected = formatted
      .map((g) => [
        ((g.get('partner_id') as Value[])[0] ?? false) as Value,
        g.get('__count') as Value,
        g.get('amount_total:sum') as Value,
        [...(g.get('id:array_agg') as number[])].sort((a, b) => a - b),
      ])
      .sort((a, b) => (a[0] as number) - (b[0] as number));
    expect(rows).toEqual(expected);
    expect(rows[0]?.[2]).toBeInstanceOf(PyFloat);
  });

  it('gives a date groupby as the start of its period and a selection as its key', async () => {
    const rows = (await ok(
      '20.0',
      'sale.order',
      'read_group',
      '{"domain": [], "groupby": ["date_order:month", "state"], "aggregates": ["__count"]}',
    )) as Value[][];
    for (const [month, state, count] of rows) {
      expect(month).toMatch(/^\d{4}-\d{2}-01 00:00:00$/);
      expect(['draft', 'sent', 'sale', 'cancel']).toContain(state);
      expect(count).toBeGreaterThan(0);
    }
    const total = (await ok('20.0', 'sale.order', 'search_count', '{"domain": []}')) as number;
    expect(rows.reduce((s, r) => s + (r[2] as number), 0)).toBe(total);
  });

  it('answers one row of aggregates without groupby, with empty values when nothing matches', async () => {
    const total = (await ok('20.0', 'sale.order', 'search_count', '{"domain": []}')) as number;
    const all = (await ok('20.0', 'sale.order', 'read_group', '{"domain": [], "aggregates": ["__count"]}')) as Value[][];
    expect(all).toEqual([[total]]);
    const none = await ok(
      '20.0',
      'sale.order',
      'read_group',
      '{"domain": [["id", "<", 0]], "aggregates": ["amount_total:sum", "__count", "partner_id:recordset", "id:array_agg"]}',
    );
    expect(none).toEqual([[false, 0, [], []]]);
    const grouped = await ok('20.0', 'sale.order', 'read_group', '{"domain": [["id", "<", 0]], "groupby": ["state"]}');
    expect(grouped).toEqual([]);
  });

  it('orders by an aggregate and pages the groups', async () => {
    const rows = (await ok(
      '20.0',
      'sale.order',
      'read_group',
      '{"domain": [], "groupby": ["state"], "aggregates": ["__count"], "order": "__count desc"}',
    )) as Value[][];
    const counts = rows.map((r) => r[1] as number);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const paged = await ok(
      '20.0',
      'sale.order',
      'read_group',
      '{"domain": [], "groupby": ["state"], "aggregates": ["__count"], "order": "__count desc", "offset": 1, "limit": 1}',
    );
    expect(paged).toEqual([rows[1]]);
  });

  it.each([
    [
      'an aggregate without a method',
      '{"domain": [], "groupby": ["state"], "aggregates": ["amount_total"]}',
      "Aggregate method is mandatory for 'amount_total'",
    ],
    ['a date without granularity', '{"domain": [], "groupby": ["date_order"]}', "Granularity not set on a date(time) field: 'date_order'"],
    [
      'a granularity on a char',
      '{"domain": [], "groupby": ["name:month"]}',
      "Granularity set on a no-datetime field or property: 'name:month'",
    ],
    ['an unknown groupby field', '{"domain": [], "groupby": ["nope"]}', "Invalid field 'nope' on model 'sale.order'"],
    [
      'an unknown aggregate field',
      '{"domain": [], "aggregates": ["nope:sum"]}',
      "Invalid field 'nope' on model 'sale.order' for 'nope:sum'.",
    ],
    [
      'an unknown method',
      '{"domain": [], "aggregates": ["amount_total:median"]}',
      "Invalid aggregate method 'median' for 'amount_total:median'.",
    ],
    [
      'a recordset of a char',
      '{"domain": [], "aggregates": ["name:recordset"]}',
      "Aggregate method 'recordset' can be only used on relational field (or id) (for 'name:recordset').",
    ],
    ['neither groupby nor aggregates', '{"domain": []}', 'Need groupby or aggregates.'],
    [
      'an order term that is neither',
      '{"domain": [], "groupby": ["state"], "order": "nope desc"}',
      "Order term 'nope desc' is not a valid aggregate nor valid groupby",
    ],
  ])('refuses %s with a ValueError', async (_what, body, message) => {
    expect(await failure('20.0', 'sale.order', 'read_group', body)).toEqual([500, 'builtins.ValueError', message]);
  });

  it("refuses 19.0's named arguments as unexpected keywords", async () => {
    const body = '{"domain": [], "fields": ["amount_total"], "groupby": ["state"], "lazy": false}';
    expect(await failure('20.0', 'sale.order', 'read_group', body)).toEqual([
      422,
      'werkzeug.exceptions.UnprocessableEntity',
      "got an unexpected keyword argument 'fields'",
    ]);
  });

  it('is 404 on saas-19.1 and the dict-answering method on 19.0', async () => {
    const body = '{"domain": [], "fields": [], "groupby": ["state"]}';
    expect(await failure('saas-19.1', 'sale.order', 'read_group', body)).toEqual([
      404,
      'werkzeug.exceptions.NotFound',
      "The method 'sale.order.read_group' does not exist",
    ]);
    const groups = (await ok('19.0', 'sale.order', 'read_group', body)) as Value[];
    expect(groups[0]).toBeInstanceOf(Map);
  });
});

describe('the methods saas-19.1 and 20.0 removed', () => {
  const removed: [string, string][] = [
    ['check_access_rights', '{"operation": "read"}'],
    ['check_access_rule', '{"ids": [1], "operation": "read"}'],
    ['check_field_access_rights', '{"operation": "read", "field_names": ["name"]}'],
    ['toggle_active', '{"ids": [1]}'],
    ['copy_translations', '{"ids": [1], "new": 2}'],
  ];

  it.each(removed)('answer %s as an unknown method', async (method, body) => {
    for (const series of ['saas-19.1', '20.0'] as const) {
      expect(await failure(series, 'res.partner', method, body)).toEqual([
        404,
        'werkzeug.exceptions.NotFound',
        `The method 'res.partner.${method}' does not exist`,
      ]);
    }
  });

  it('keeps them on 19.0', async () => {
    expect((await call('19.0', 'res.partner', 'check_access_rights', '{"operation": "read"}')).status).toBe(200);
  });
});

describe('/doc-bearer', () => {
  async function partnerMethods(series: Series): Promise<Struct> {
    const sim = simOf(series);
    const a = await rawCall(sim, '/doc-bearer/res.partner.json', {
      method: 'GET',
      contentType: null,
      key: sim.keyFor('demo', 'admin'),
    });
    expect(a.status).toBe(200);
    return (a.value as Struct).get('methods') as Struct;
  }

  it("lists 20.0's read_group, as a model method, and not the removed methods", async () => {
    const methods = await partnerMethods('20.0');
    const doc = methods.get('read_group') as Struct;
    expect(doc.get('signature')).toBe('(domain, groupby=(), aggregates=(), having=(), offset=0, limit=None, order=None) -> list[tuple]');
    expect(doc.get('api')).toEqual(['model']);
    expect([...(doc.get('parameters') as Struct).keys()]).toEqual([
      'domain',
      'groupby',
      'aggregates',
      'having',
      'offset',
      'limit',
      'order',
    ]);
    expect(methods.has('copy_translations')).toBe(false);
    expect(methods.has('formatted_read_group')).toBe(true);
    // in its place in the recorded (sorted) list
    const names = [...methods.keys()];
    expect(names.slice(names.indexOf('read_group') - 1, names.indexOf('read_group') + 2)).toEqual([
      'read',
      'read_group',
      'read_progress_bar',
    ]);
  });

  it('lists no read_group on 19.0 (deprecated) nor saas-19.1, and copy_translations on 19.0 only', async () => {
    expect((await partnerMethods('19.0')).has('read_group')).toBe(false);
    expect((await partnerMethods('19.0')).has('copy_translations')).toBe(true);
    expect((await partnerMethods('saas-19.1')).has('read_group')).toBe(false);
    expect((await partnerMethods('saas-19.1')).has('copy_translations')).toBe(false);
  });
});

describe("20.0's ir.access", () => {
  it('answers search_read, read, search_count and fields_get', async () => {
    const rows = (await ok(
      '20.0',
      'ir.access',
      'search_read',
      '{"domain": [["model_id.model", "=", "res.country"]], "fields": ["name", "model_id", "group_id", "operation", "domain", "active"]}',
    )) as Struct[];
    // res.country: internal users read it, its manager group (settings) changes it; portal/public read it
    const byName = new Map(rows.map((r) => [r.get('name') as string, r]));
    expect(byName.get('res.country.user')?.get('operation')).toBe('r');
    expect(byName.get('res.country.manager')?.get('operation')).toBe('crud');
    expect(byName.get('res.country.portal')?.get('operation')).toBe('r');
    for (const row of rows) {
      expect((row.get('model_id') as Value[])[1]).toBe('Country');
      expect(row.get('active')).toBe(true);
      expect(row.get('domain')).toBe(false);
    }
    const first = rows[0] as Struct;
    const read = (await ok('20.0', 'ir.access', 'read', `{"ids": [${String(first.get('id'))}], "fields": ["group_id"]}`)) as Struct[];
    expect(read[0]?.get('group_id')).toEqual(first.get('group_id'));
    const keys = (await ok(
      '20.0',
      'ir.access',
      'search_read',
      '{"domain": [["model_id.model", "=", "res.users.apikeys"], ["group_id", "!=", false], ["domain", "!=", false]], "fields": ["domain"]}',
    )) as Struct[];
    expect(keys.map((r) => r.get('domain'))).toContain("[('user_id', '=', user.id)]");
    const count = await ok('20.0', 'ir.access', 'search_count', '{"domain": []}');
    expect(count).toBeGreaterThan(20);
    const fields = (await ok('20.0', 'ir.access', 'fields_get', '{"attributes": ["type", "relation"]}')) as Struct;
    expect(fields.get('model_id')).toEqual(
      new Map([
        ['type', 'many2one'],
        ['relation', 'ir.model'],
      ]),
    );
    expect(fields.get('operation')).toEqual(new Map([['type', 'selection']]));
  });

  it('is listed in ir.model on 20.0 only', async () => {
    const body = '{"domain": [["model", "=", "ir.access"]]}';
    expect(((await ok('20.0', 'ir.model', 'search', body)) as Value[]).length).toBe(1);
    expect(await ok('19.0', 'ir.model', 'search', body)).toEqual([]);
  });

  it.each([
    ['20.0', 'ir.model.access'],
    ['20.0', 'ir.rule'],
    ['19.0', 'ir.access'],
    ['saas-19.1', 'ir.access'],
  ] as const)('%s: %s is an unknown model', async (series, model) => {
    expect(await failure(series, model, 'search_read', '{"domain": []}')).toEqual([
      404,
      'werkzeug.exceptions.NotFound',
      `the model '${model}' does not exist`,
    ]);
  });
});
