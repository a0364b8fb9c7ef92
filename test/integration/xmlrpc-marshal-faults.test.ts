/**
 * Results Odoo 19.0's XML-RPC marshaller refuses though JSON encodes them (src/legacy/xmlrpc-marshal-fault.ts):
 * the gateway's XML-RPC answer is Odoo's fault, its JSON-RPC answer JSON-2's value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/json/index.ts';
import type { RunningGateway } from '../../src/server/gateway.ts';
import { struct, type Value } from '../../src/value.ts';
import { encodeRequest } from '../fixtures-xml/xmlrpc-request.ts';
import { answeringKey, startAnsweringGateway, type UpstreamAnswer } from '../support/answering-upstream.ts';

let gateway: RunningGateway;
let close: () => Promise<void>;
let answer: UpstreamAnswer = { status: 200, body: '[]' };

beforeAll(async () => {
  ({ gateway, close } = await startAnsweringGateway(() => answer));
});

afterAll(() => close());

/** The last line of the XML-RPC fault `model.method(*args)` gets, or `result` when it succeeds. */
async function xmlrpcLastLine(path: string, model: string, method: string, args: Value[], json: string): Promise<string> {
  answer = { status: 200, body: json };
  const body = encodeRequest('execute_kw', ['demo', 2, answeringKey, model, method, args]);
  const text = await (await fetch(`${gateway.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'text/xml' } })).text();
  if (!text.includes('<fault>')) return 'result';
  const strings = [...text.matchAll(/<value><string>([\s\S]*?)<\/string><\/value>/g)].map((m) => m[1] as string);
  return (strings.find((s) => s.includes('Error')) ?? '').trimEnd().split('\n').at(-1) as string;
}

const currencies =
  '{"1": {"name": "EUR", "symbol": "€", "position": "after", "digits": [69, 2]}, "2": {"name": "USD", "symbol": "$", "position": "before", "digits": [69, 2]}}';
const menus = '{"root": {"id": "root", "name": "root", "children": [5]}, "5": {"id": 5, "name": "Contacts", "children": []}}';
const fiscalPositions = '[{"id": 1, "name": "Domestic", "tax_map": {}}, {"id": 2, "name": "Foreign Trade", "tax_map": {"1": [3]}}]';
const copied =
  '[{"name": "YourCompany (copy)", "properties": "<odoo.orm.fields_properties.Property object at 0x7f96bc029d50>", "color": 0}]';

describe('XML-RPC results Odoo cannot marshal', () => {
  it.each([
    ['/xmlrpc/2/object', 'res.currency', 'get_all_currencies', [], currencies, 'TypeError: dictionary key must be string'],
    ['/xmlrpc/2/object', 'ir.ui.menu', 'load_menus', [false], menus, 'TypeError: dictionary key must be string'],
    ['/xmlrpc/2/object', 'account.fiscal.position', 'search_read', [[]], fiscalPositions, 'TypeError: dictionary key must be string'],
    [
      '/xmlrpc/2/object',
      'res.partner',
      'copy_data',
      [[1]],
      copied,
      "TypeError: cannot marshal <class 'odoo.orm.models.res.partner'> objects",
    ],
    [
      '/xmlrpc/object',
      'product.product',
      'copy_data',
      [[1]],
      copied,
      "TypeError: cannot marshal <class 'odoo.orm.models.product.product'> objects",
    ],
  ])("%s %s.%s is Odoo's fault 1", async (path, model, method, args, json, lastLine) => {
    expect(await xmlrpcLastLine(path, model, method, args as Value[], json)).toBe(lastLine.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  });

  it.each([
    ['res.currency', 'get_all_currencies', [], '{}'],
    ['account.fiscal.position', 'search_read', [[]], '[{"id": 1, "name": "Domestic", "tax_map": {}}]'],
    ['res.partner', 'search_read', [[]], '[{"id": 1, "name": "<odoo.orm.fields_properties.Property object at 0x7f96bc029d50>!"}]'],
  ])('marshals %s.%s where nothing is refused (%s)', async (model, method, args, json) => {
    expect(await xmlrpcLastLine('/xmlrpc/2/object', model, method, args as Value[], json)).toBe('result');
  });

  it('leaves the JSON-RPC answer as JSON-2 gave it', async () => {
    answer = { status: 200, body: currencies };
    const body = stringifyJson(
      struct({
        jsonrpc: '2.0',
        method: 'call',
        id: 1,
        params: struct({
          service: 'object',
          method: 'execute_kw',
          args: ['demo', 2, answeringKey, 'res.currency', 'get_all_currencies', []],
        }),
      }),
    );
    const res = await fetch(`${gateway.url}/jsonrpc`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const envelope = parseJson(await res.text()) as Map<string, Value>;
    expect([...(envelope.get('result') as Map<string, Value>).keys()]).toEqual(['1', '2']);
  });
});
