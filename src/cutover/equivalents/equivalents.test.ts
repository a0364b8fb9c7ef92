import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDeprecations, renderDeprecationsModule } from '../../../scripts/gen-cutover-tables.ts';
import { parseJson } from '../../json/index.ts';
import { PyBinary, PyDateTime, PyFloat, type Struct, type Value } from '../../value.ts';
import { deprecatedMethodNames, deprecationOf } from './deprecations.ts';
import { createOneDictWarning, json2EquivalentOf } from './json2-equivalent.ts';
import { maxPlaceholderBodyLength, placeholderBody } from './placeholders.ts';

const body = (entries: Record<string, Value>): Struct => new Map(Object.entries(entries));

describe('deprecations.generated.ts', () => {
  it('is up to date with fixtures/odoo-data/_deprecations.json', () => {
    const fixture = readFileSync(new URL('../../../fixtures/odoo-data/_deprecations.json', import.meta.url), 'utf8');
    const onDisk = readFileSync(new URL('./deprecations.generated.ts', import.meta.url), 'utf8');
    expect(onDisk, 'run `npm run gen:cutover`').toBe(renderDeprecationsModule(readDeprecations(fixture)));
  });

  it('names the six methods Odoo 19.0 marks deprecated', () => {
    expect([...deprecatedMethodNames].sort()).toEqual([
      'check_access_rights',
      'check_access_rule',
      'check_field_access_rights',
      'get_currencies',
      'read_group',
      'toggle_active',
    ]);
  });
});

describe('deprecationOf()', () => {
  it("gives the ORM's message on every model, and a model's own only where it states a version", () => {
    expect(deprecationOf('res.partner', 'read_group')).toMatchObject({ model: 'base', since: '19.0' });
    expect(deprecationOf('hr.employee', 'check_field_access_rights')).toMatchObject({ model: 'base', since: '19.0' });
    expect(deprecationOf('ir.http', 'get_currencies')).toMatchObject({
      model: 'ir.http',
      message: "Deprecated since 19.0, use get_all_currencies on 'res.currency'",
    });
    expect(deprecationOf('res.partner', 'get_currencies')).toBeUndefined();
    expect(deprecationOf('res.partner', 'search_read')).toBeUndefined();
  });
});

describe('placeholderBody()', () => {
  it('replaces every value by a placeholder of its type and keeps the names', () => {
    const text = placeholderBody(
      body({
        ids: [1, 2, 3, 4, 5],
        domain: [['email', '=', 'jane@example.com']],
        vals: new Map<string, Value>([
          ['rate', new PyFloat(1.5)],
          ['active', true],
          ['date', new PyDateTime('2025-01-01 00:00:00')],
          ['file', new PyBinary('QUJD')],
          ['x', null],
        ]),
      }),
    );
    expect(text).toBe(
      '{"ids": ["<int>", "<int>", "<int>", "…"], "domain": [["<string>", "<string>", "<string>"]], "vals": {"rate": "<float>", "active": "<bool>", "date": "<datetime>", "file": "<base64>", "x": null}}',
    );
    expect(text).not.toContain('jane');
  });

  it('stays within its length by collapsing deep levels', () => {
    const wide = body(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field_${i}_${'x'.repeat(90)}`, [[['a', 'b']]]])));
    const text = placeholderBody(wide);
    expect(text.length).toBeLessThanOrEqual(maxPlaceholderBodyLength);
    expect(text).toContain('field_0_');
  });
});

describe('json2EquivalentOf()', () => {
  it('shows the JSON-2 request an object call bound to, with curl and Python examples', () => {
    const e = json2EquivalentOf({
      service: 'object',
      method: 'execute_kw',
      model: 'res.partner',
      modelMethod: 'search_read',
      json2Body: '{"domain": [["<string>", "<string>", "<string>"]], "limit": "<int>"}',
    });
    expect(e).toMatchObject({
      request: 'POST /json/2/res.partner/search_read',
      headers: { Authorization: 'bearer <api-key>', 'X-Odoo-Database': '<database>', 'Content-Type': 'application/json' },
      body: '{"domain": [["<string>", "<string>", "<string>"]], "limit": "<int>"}',
    });
    expect(e?.curl).toBe(
      'curl -sS -X POST "$ODOO_URL/json/2/res.partner/search_read" \\\n  -H "Authorization: bearer $ODOO_API_KEY" \\\n  -H "X-Odoo-Database: $ODOO_DB" \\\n' +
        `  -H "Content-Type: application/json" \\\n  --data '{"domain": [["<string>", "<string>", "<string>"]], "limit": "<int>"}'`,
    );
    expect(e?.python).toContain(`f"{os.environ['ODOO_URL']}/json/2/res.partner/search_read"`);
    expect(e?.python).toContain('    json={\n        "domain": [["<string>", "<string>", "<string>"]],\n        "limit": "<int>",\n    },');
  });

  it('warns that JSON-2 create answers [id] where the legacy create with one dict answered the id', () => {
    const one = json2EquivalentOf({
      service: 'object',
      method: 'execute',
      model: 'res.partner',
      modelMethod: 'create',
      json2Body: '{"vals_list": {"name": "<string>"}}',
    });
    expect(one?.warning).toBe(createOneDictWarning);
    expect(one?.warning).toContain('[id]');
    const many = json2EquivalentOf({
      service: 'object',
      method: 'execute_kw',
      model: 'res.partner',
      modelMethod: 'create',
      json2Body: '{"vals_list": [{"name": "<string>"}]}',
    });
    expect(many).toMatchObject({ request: 'POST /json/2/res.partner/create' });
    expect(many?.warning).toBeUndefined();
  });

  it.each([
    [
      'read_group',
      'res.partner',
      '{"domain": [], "fields": ["<string>"], "groupby": ["<string>"], "lazy": "<bool>"}',
      'POST /json/2/res.partner/formatted_read_group',
      '{"domain": [], "groupby": ["<string>"], "aggregates": ["<string>"]}',
    ],
    ['toggle_active', 'res.partner', '{"ids": ["<int>"]}', 'POST /json/2/res.partner/action_archive', '{"ids": ["<int>"]}'],
    [
      'check_access_rights',
      'res.partner',
      '{"operation": "<string>", "raise_exception": "<bool>"}',
      'POST /json/2/res.partner/has_access',
      '{"operation": "<string>"}',
    ],
    ['get_currencies', 'ir.http', '{"ids": []}', 'POST /json/2/res.currency/get_all_currencies', '{"ids": []}'],
  ])('replaces the deprecated %s where Odoo names a replacement', (method, model, json2Body, request, replaced) => {
    const e = json2EquivalentOf({ service: 'object', method: 'execute_kw', model, modelMethod: method, json2Body });
    expect(e?.request).toBe(request);
    expect(e?.body).toBe(replaced);
    expect(e?.replaces).toBe(method);
    expect(e?.note).toBeDefined();
    expect(parseJson(e?.body as string)).toBeInstanceOf(Map);
  });

  it('names the path without a body for a call that never reached JSON-2', () => {
    expect(json2EquivalentOf({ service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'read' })).toMatchObject({
      request: 'POST /json/2/res.partner/read',
      note: expect.stringContaining('never sent'),
    });
  });

  it('gives no example for a model or method name that is not an Odoo name (it would reach a shell)', () => {
    const e = json2EquivalentOf({
      service: 'object',
      method: 'execute_kw',
      model: `x'; rm -rf ~; '`,
      modelMethod: 'read',
      json2Body: '{}',
    });
    expect(e?.curl).toBeUndefined();
    expect(e?.request).toBeUndefined();
  });

  it('maps common and db calls to the routes that replace them', () => {
    expect(json2EquivalentOf({ service: 'common', method: 'version' })?.request).toBe('GET /web/version');
    expect(json2EquivalentOf({ service: 'common', method: 'login' })?.note).toContain('JSON-2 has no login');
    expect(json2EquivalentOf({ service: 'db', method: 'list' })?.request).toBe('POST /web/database/list');
    expect(json2EquivalentOf({ service: 'db', method: 'list_countries' })?.request).toBe('POST /json/2/res.country/search_read');
    expect(json2EquivalentOf({ service: 'db', method: 'migrate_databases' })?.request).toBeUndefined();
    expect(json2EquivalentOf({ service: 'report', method: 'x' })).toBeUndefined();
  });
});
