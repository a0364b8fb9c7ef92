/**
 * The `/json/2` routes at the HTTP level: database selection and its HTML 404, body types (415
 * HTML), bad JSON (400), non-object bodies, wrong verbs and paths (404 JSON), HEAD, OPTIONS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Struct, Value } from '../../src/value.ts';
import { type Simulator, startSimulator } from '../index.ts';
import { json2, rawCall } from '../test-support.ts';

const noDbMarker = 'No database is selected and the requested URL was not found in the server-wide controllers.';

let single: Simulator;
let multi: Simulator;
beforeAll(async () => {
  [single, multi] = await Promise.all([startSimulator(), startSimulator({ databases: ['gw', 'gw2'] })]);
});
afterAll(() => Promise.all([single.close(), multi.close()]));

const countBody = JSON.stringify({ domain: [] });

describe('database selection', () => {
  it('serves the only database without a header', async () => {
    const a = await rawCall(single, '/json/2/res.partner/search_count', { key: single.keyFor('demo', 'admin'), body: countBody });
    expect([a.status, a.text]).toEqual([200, '39']);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['an unknown database', 'nope'],
  ])('answers the no-database HTML page for %s with two databases', async (_what, db) => {
    const a = await rawCall(multi, '/json/2/res.partner/search_count', {
      key: multi.keyFor('gw', 'admin'),
      headers: db === undefined ? {} : { 'x-odoo-database': db },
      body: countBody,
    });
    expect(a.status).toBe(404);
    expect(a.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(a.text.startsWith('<!DOCTYPE html>\n<title>404 Not Found</title>\n<h1>Not Found</h1>\n')).toBe(true);
    expect(a.text).toContain(noDbMarker);
    expect(a.text.endsWith('<!-- Alternatively, use the X-Odoo-Database header. -->\n')).toBe(true);
  });

  it('ignores ?db= in the URL', async () => {
    const a = await rawCall(multi, '/json/2/res.partner/search_count?db=gw2', { key: multi.keyFor('gw', 'admin'), body: countBody });
    expect(a.status).toBe(404);
    expect(a.text).toContain(noDbMarker);
  });

  it('keeps databases apart and accepts the same key in each', async () => {
    const key = multi.keyFor('gw', 'admin');
    const created = await json2(multi, 'res.partner', 'create', new Map([['vals_list', [new Map([['name', 'Only In GW2']])]]]), {
      key,
      db: 'gw2',
    });
    expect(created.status).toBe(200);
    const domain = new Map([['domain', [['name', '=', 'Only In GW2']]]]);
    expect((await json2(multi, 'res.partner', 'search_count', domain, { key, db: 'gw2' })).text).toBe('1');
    expect((await json2(multi, 'res.partner', 'search_count', domain, { key, db: 'gw' })).text).toBe('0');
  });
});

describe('request body', () => {
  const key = () => single.keyFor('demo', 'admin');

  it.each([
    [
      'text/plain',
      'Request inferred type is compatible with [&#39;http&#39;] but &#39;/json/2/&lt;__model__&gt;/&lt;__method__&gt;&#39; is type=&#39;json2&#39;.',
    ],
    [null, '&#39;/json/2/&lt;__model__&gt;/&lt;__method__&gt;&#39;'],
  ])('answers 415 HTML for Content-Type %s with a body', async (contentType, fragment) => {
    const a = await rawCall(single, '/json/2/res.partner/search_count', { key: key(), contentType, body: countBody });
    expect(a.status).toBe(415);
    expect(a.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(a.text).toContain('<title>415 Unsupported Media Type</title>');
    expect(a.text).toContain(fragment);
    expect(a.text).toContain('<br><br>Please verify the Content-Type request header and try again.</p>');
  });

  it('answers 400 JSON BadRequest for a body that is not JSON', async () => {
    const a = await rawCall(single, '/json/2/res.partner/search_count', { key: key(), body: '{"domain": [' });
    expect(a.status).toBe(400);
    const body = a.value as Struct;
    expect(body.get('name')).toBe('werkzeug.exceptions.BadRequest');
    expect(String(body.get('message'))).toMatch(/^could not parse the body as json: /);
    expect(body.get('arguments')).toEqual([body.get('message'), 400]);
  });

  it('checks the bearer before parsing the body', async () => {
    const a = await rawCall(single, '/json/2/res.partner/search_count', { body: '{' });
    expect(a.status).toBe(401);
  });

  it.each(['[]', '5', 'null', '"x"'])('ignores a non-object body (%s) and binds nothing', async (body) => {
    const a = await rawCall(single, '/json/2/res.partner/search_count', { key: key(), body });
    expect(a.status).toBe(422);
    expect((a.value as Struct).get('message')).toBe("missing a required argument: 'domain'");
  });

  it('accepts an empty body for a method without required parameters', async () => {
    const a = await rawCall(single, '/json/2/res.users/context_get', { key: key(), contentType: null });
    expect(a.status).toBe(200);
  });

  it('answers with raw UTF-8, Python separators and floats with a decimal point', async () => {
    const a = await json2(
      single,
      'sale.order',
      'read',
      new Map<string, Value>([
        ['ids', [4]],
        ['fields', ['amount_tax', 'amount_total']],
      ]),
      { key: key() },
    );
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(a.text).toMatch(/^\[\{"id": 4, "amount_tax": 0\.0, "amount_total": \d+\.\d+\}\]$/);
    const lang = await json2(
      single,
      'res.lang',
      'search_read',
      new Map<string, Value>([
        ['domain', [['code', '=', 'fr_FR']]],
        ['fields', ['thousands_sep']],
      ]),
      { key: key() },
    );
    expect(lang.text).toContain('"thousands_sep": "\u00a0"');
  });
});

describe('routes and verbs', () => {
  const didYouMean = 'Did you mean POST /json/2/<model>/<method>?';

  it.each([
    ['GET', '/json/2/res.partner/search_read'],
    ['PUT', '/json/2/res.partner/search_read'],
    ['DELETE', '/json/2/res.partner/search_read'],
    ['POST', '/json/2/res.partner'],
    ['POST', '/json/2'],
    ['POST', '/json/2/a/b/c'],
  ])('answers %s %s with 404 JSON', async (method, path) => {
    const a = await rawCall(single, path, { method, key: single.keyFor('demo', 'admin'), body: method === 'GET' ? undefined : '{}' });
    expect(a.status).toBe(404);
    const body = a.value as Struct;
    expect(body.get('name')).toBe('werkzeug.exceptions.NotFound');
    expect(body.get('arguments')).toEqual([didYouMean, 404]);
  });

  it('answers HEAD with 404 and no body', async () => {
    const a = await rawCall(single, '/json/2/res.partner/search_read', { method: 'HEAD' });
    expect([a.status, a.text]).toEqual([404, '']);
  });

  it('runs the method for OPTIONS like POST', async () => {
    const a = await rawCall(single, '/json/2/res.users/context_get', {
      method: 'OPTIONS',
      key: single.keyFor('demo', 'demo'),
      contentType: null,
    });
    expect(a.status).toBe(200);
    expect((a.value as Struct).get('uid')).toBe(5);
  });

  it('answers other paths with the werkzeug 404 page', async () => {
    const a = await rawCall(single, '/web/nothing', { method: 'GET' });
    expect(a.status).toBe(404);
    expect(a.text).toBe(
      '<!doctype html>\n<html lang=en>\n<title>404 Not Found</title>\n<h1>Not Found</h1>\n' +
        '<p>The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.</p>\n',
    );
  });
});

describe('version routes', () => {
  it.each(['/web/version', '/json/version'])('GET %s gives version_info and version', async (path) => {
    const a = await rawCall(single, path, { method: 'GET' });
    expect([a.status, a.text]).toEqual([200, '{"version_info": [19, 0, 0, "final", 0, ""], "version": "19.0"}']);
  });

  it('answers /web/webclient/version_info as JSON-RPC, echoing the id', async () => {
    const a = await rawCall(single, '/web/webclient/version_info', { body: '{"jsonrpc": "2.0", "method": "call", "params": {}, "id": 7}' });
    expect(a.text).toBe(
      '{"jsonrpc": "2.0", "id": 7, "result": {"server_version": "19.0", "server_version_info": [19, 0, 0, "final", 0, ""], "server_serie": "19.0", "protocol_version": 1}}',
    );
  });

  it('answers /web/health', async () => {
    const a = await rawCall(single, '/web/health', { method: 'GET' });
    expect([a.status, a.text]).toEqual([200, '{"status": "pass"}']);
  });
});
