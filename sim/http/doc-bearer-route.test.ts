/**
 * `/doc-bearer/index.json` and `/doc-bearer/<model>.json`: the recorded documentation plus the custom
 * method, ETag/304 and `Cache-Control: no-cache`, the Technical Documentation group (403), bearer
 * auth (401), database selection. Requests go through node:http, which (unlike fetch) adds no
 * Cache-Control of its own to a conditional request.
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import type { Value } from '../../src/value.ts';
import { type Simulator, startSimulator } from '../index.ts';
import { json2, plain } from '../test-support.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  value: Value | undefined;
}

function get(sim: Simulator, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(sim.url + path, { method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let value: Value | undefined;
        try {
          value = parseJson(text);
        } catch {
          value = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, value });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const recorded = JSON.parse(readFileSync(new URL('../../fixtures/odoo-data/_method-signatures.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, unknown>
>;

let sim: Simulator;
let multi: Simulator;
let admin: string;
let demo: string;
const bearer = (key: string, extra: Record<string, string> = {}) => ({ authorization: `bearer ${key}`, ...extra });
const partnerDoc = (extra: Record<string, string> = {}) => get(sim, '/doc-bearer/res.partner.json', bearer(admin, extra));

beforeAll(async () => {
  [sim, multi] = await Promise.all([startSimulator(), startSimulator({ databases: ['gw', 'gw2'] })]);
  admin = sim.keyFor('demo', 'admin');
  demo = sim.keyFor('demo', 'demo');
});
afterAll(() => Promise.all([sim.close(), multi.close()]));
beforeEach(() => sim.reset());

describe('/doc-bearer/<model>.json', () => {
  it('answers the recorded documentation of the model, plus the custom method, with an ETag', async () => {
    const a = await partnerDoc();
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(a.headers['cache-control']).toBe('no-cache, private');
    expect(a.headers['content-language']).toBe('en-US');
    expect(a.headers.etag).toMatch(/^[0-9a-f]{64}$/); // unquoted, as Odoo sends its HMAC
    const body = plain(a.value) as { model: string; name: string; doc: null; fields: object; methods: Record<string, unknown> };
    expect([body.model, body.name, body.doc]).toEqual(['res.partner', 'Contact', null]);
    expect(Object.keys(body.fields)).toContain('comment');
    expect(Object.keys(body.methods)).toEqual([...Object.keys(recorded['res.partner']!), 'action_gateway_demo', 'gateway_demo_echo']);
    expect(body.methods.search_read).toEqual(recorded['res.partner']!.search_read);
    expect(body.methods.action_gateway_demo).toEqual({
      signature: '(note, flag=False) -> dict',
      parameters: { note: { annotation: 'str' }, flag: { default: false, annotation: 'bool' } },
      model: 'res.partner',
      module: 'gateway_demo',
    });
    expect(body.methods.gateway_demo_echo).toMatchObject({
      api: ['model'],
      parameters: { text: { annotation: 'str' }, times: { default: 1, annotation: 'int' } },
    });
  });

  it.each(Object.keys(recorded))('documents %s as recorded', async (model) => {
    const a = await get(sim, `/doc-bearer/${model}.json`, bearer(admin));
    expect(a.status).toBe(200);
    const methods = (plain(a.value) as { methods: Record<string, unknown> }).methods;
    for (const [name, doc] of Object.entries(recorded[model]!)) expect(methods[name]).toEqual(doc);
  });

  it('answers a bare 304 (no ETag, no body) when If-None-Match matches, quoted or not, weak or not', async () => {
    const { headers } = await partnerDoc();
    const etag = headers.etag as string;
    for (const ifNoneMatch of [etag, `"${etag}"`, `W/"${etag}"`, `"other", ${etag}`, '*']) {
      const a = await partnerDoc({ 'if-none-match': ifNoneMatch });
      expect([a.status, a.headers.etag, a.text]).toEqual([304, undefined, '']);
    }
    expect((await partnerDoc({ 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('gives every model document of a user the same ETag, as Odoo (its HMAC scope is the route)', async () => {
    const etag = (await partnerDoc()).headers.etag as string;
    expect((await get(sim, '/doc-bearer/res.users.json', bearer(admin, { 'if-none-match': etag }))).status).toBe(304);
  });

  it('answers 200 to a matching If-None-Match with Cache-Control: no-cache', async () => {
    const etag = (await partnerDoc()).headers.etag as string;
    expect((await partnerDoc({ 'if-none-match': etag, 'cache-control': 'no-cache' })).status).toBe(200);
    expect((await partnerDoc({ 'if-none-match': etag, 'cache-control': 'max-age=0' })).status).toBe(304);
  });

  it('changes the ETag and the document when a signature changes, in that database only', async () => {
    const before = (await partnerDoc()).headers.etag as string;
    const doc = { parameters: { message: {}, note: {} }, model: 'res.partner', module: 'gateway_demo' };
    sim.docBearer.setMethod('demo', 'res.partner', 'action_gateway_demo', doc);
    const after = await partnerDoc({ 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before);
    expect((plain(after.value) as { methods: Record<string, unknown> }).methods.action_gateway_demo).toEqual(doc);
    expect((await get(sim, '/doc-bearer/res.users.json', bearer(admin, { 'if-none-match': before }))).status).toBe(200);

    const gw = (await get(multi, '/doc-bearer/res.partner.json', { ...bearer(multi.keyFor('gw', 'admin')), 'x-odoo-database': 'gw' }))
      .headers.etag;
    multi.docBearer.setMethod('gw2', 'res.partner', 'action_gateway_demo', undefined);
    const again = await get(multi, '/doc-bearer/res.partner.json', {
      ...bearer(multi.keyFor('gw', 'admin')),
      'x-odoo-database': 'gw',
      'if-none-match': gw as string,
    });
    expect(again.status).toBe(304);
    const gw2 = await get(multi, '/doc-bearer/res.partner.json', { ...bearer(multi.keyFor('gw', 'admin')), 'x-odoo-database': 'gw2' });
    expect(Object.keys((plain(gw2.value) as { methods: object }).methods)).not.toContain('action_gateway_demo');
  });

  it('refuses a user outside the Technical Documentation group with 403 AccessError, before any 304', async () => {
    const etag = (await partnerDoc()).headers.etag as string;
    const a = await get(sim, '/doc-bearer/res.partner.json', bearer(demo, { 'if-none-match': etag }));
    expect(a.status).toBe(403);
    expect(plain(a.value)).toMatchObject({
      name: 'odoo.exceptions.AccessError',
      message: 'This page is only accessible to Technical Documentation users.',
      arguments: ['This page is only accessible to Technical Documentation users.'],
      context: {},
    });
  });

  it("reads the group membership from the user's groups, not from who the user is", async () => {
    const found = await json2(sim, 'res.groups', 'search', parseJson('{"domain": [["name", "=", "Technical Documentation"]]}'), {
      key: admin,
    });
    const docGroups = found.value as number[];
    expect(docGroups).toHaveLength(1);
    const created: Record<string, string> = {};
    for (const [login, groups] of [
      ['with_doc', docGroups],
      ['without_doc', []],
    ] as const) {
      const answer = await json2(
        sim,
        'res.users',
        'create',
        parseJson(JSON.stringify({ vals_list: [{ name: login, login, group_ids: groups }] })),
        { key: admin },
      );
      const [uid] = answer.value as number[];
      created[login] = sim.keys.add({ uid: uid!, name: login }).key;
    }
    expect((await get(sim, '/doc-bearer/res.partner.json', bearer(created.with_doc!))).status).toBe(200);
    expect((await get(sim, '/doc-bearer/res.partner.json', bearer(created.without_doc!))).status).toBe(403);
  });

  it.each([
    ['no Authorization header', {}, 'User not authenticated, use an API Key with a Bearer Authorization header.'],
    ['an unknown key', { authorization: `bearer ${'f'.repeat(40)}` }, 'Invalid apikey'],
  ])('answers 401 for %s', async (_what, headers, message) => {
    const a = await get(sim, '/doc-bearer/res.partner.json', headers);
    expect(a.status).toBe(401);
    expect(a.headers['www-authenticate']).toBe('Bearer'); // node:http trims the trailing space Odoo sends
    expect(plain(a.value)).toMatchObject({ name: 'werkzeug.exceptions.Unauthorized', message });
  });

  it('answers 404 JSON for a model it has but the recording does not document, in its own words', async () => {
    const a = await get(sim, '/doc-bearer/res.partner.category.json', bearer(admin));
    expect(a.status).toBe(404);
    expect(plain(a.value)).toMatchObject({
      name: 'werkzeug.exceptions.NotFound',
      message: "the Odoo simulator has no /doc-bearer documentation for the model 'res.partner.category'",
    });
  });

  it("answers Odoo's 404 JSON for a model the database does not have", async () => {
    const a = await get(sim, '/doc-bearer/no.such.model.json', bearer(admin));
    expect(a.status).toBe(404);
    const text = 'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.';
    expect(plain(a.value)).toMatchObject({ name: 'werkzeug.exceptions.NotFound', message: text, arguments: [text, 404] });
    expect((await get(sim, '/doc-bearer/no.such.model.json', bearer(demo))).status).toBe(403); // the group is checked first
  });

  it('answers the HTML 404 page for a path that is not a document', async () => {
    const a = await get(sim, '/doc-bearer/res.partner', bearer(admin));
    expect([a.status, a.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
  });

  it('selects the database like JSON-2: the header, else the only one', async () => {
    const key = multi.keyFor('gw', 'admin');
    expect((await get(multi, '/doc-bearer/res.partner.json', bearer(key))).status).toBe(404);
    expect((await get(multi, '/doc-bearer/res.partner.json', { ...bearer(key), 'x-odoo-database': 'gw2' })).status).toBe(200);
  });
});

describe('/doc-bearer/index.json', () => {
  it('lists the documented models with their field labels and method names', async () => {
    const a = await get(sim, '/doc-bearer/index.json', bearer(admin));
    expect(a.status).toBe(200);
    const body = plain(a.value) as {
      modules: string[];
      models: { model: string; name: string; fields: Record<string, { string: string }>; methods: string[] }[];
    };
    expect(body.models.map((m) => m.model)).toEqual(Object.keys(recorded));
    const partner = body.models[0]!;
    expect(partner.name).toBe('Contact');
    expect(partner.fields.comment).toEqual({ string: 'Notes' });
    expect(partner.methods).toContain('action_gateway_demo');
    expect(body.modules).toEqual(expect.arrayContaining(['base', 'mail', 'sale', 'gateway_demo']));
    expect(body.modules).not.toContain('core');
  });

  it('has an ETag of its own (another HMAC scope than the model documents) and answers 304 to it', async () => {
    const modelEtag = (await partnerDoc()).headers.etag as string;
    const index = await get(sim, '/doc-bearer/index.json', bearer(admin));
    expect(index.headers.etag).toMatch(/^[0-9a-f]{64}$/);
    expect(index.headers.etag).not.toBe(modelEtag);
    expect((await get(sim, '/doc-bearer/index.json', bearer(admin, { 'if-none-match': modelEtag }))).status).toBe(200);
    expect((await get(sim, '/doc-bearer/index.json', bearer(admin, { 'if-none-match': index.headers.etag as string }))).status).toBe(304);
  });
});

describe('the custom methods over JSON-2', () => {
  it('runs the model-level gateway_demo_echo, and refuses ids for it', async () => {
    const a = await json2(sim, 'res.partner', 'gateway_demo_echo', parseJson('{"text": "ab", "times": 3}'), { key: admin });
    expect([a.status, a.value]).toEqual([200, 'ababab']);
    const ids = await json2(sim, 'res.partner', 'gateway_demo_echo', parseJson('{"ids": [3], "text": "ab"}'), { key: admin });
    expect([ids.status, (plain(ids.value) as { message: string }).message]).toEqual([
      422,
      'cannot call res.partner.gateway_demo_echo with ids',
    ]);
  });

  it("writes the note into each partner's comment and returns what it received", async () => {
    const a = await json2(sim, 'res.partner', 'action_gateway_demo', parseJson('{"ids": [3, 10], "note": "hello"}'), { key: admin });
    expect([a.status, plain(a.value)]).toEqual([200, { ids: [3, 10], note: 'hello', flag: false }]);
    const read = await json2(sim, 'res.partner', 'read', parseJson('{"ids": [3, 10], "fields": ["comment"]}'), { key: admin });
    expect(plain(read.value)).toEqual([
      { id: 3, comment: 'hello' },
      { id: 10, comment: 'hello' },
    ]);
  });

  it("binds by name with Python's errors, like every JSON-2 method", async () => {
    const missing = await json2(sim, 'res.partner', 'action_gateway_demo', parseJson('{"ids": [3], "flag": true}'), { key: admin });
    expect([missing.status, (plain(missing.value) as { message: string }).message]).toEqual([422, "missing a required argument: 'note'"]);
    const gone = await json2(sim, 'res.partner', 'action_gateway_demo', parseJson('{"ids": [99999], "note": "x"}'), { key: admin });
    expect((plain(gone.value) as { name: string }).name).toBe('odoo.exceptions.MissingError');
  });
});
