import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../json/index.ts';
import { isStruct, type Value } from '../value.ts';
import { parseDocMethods, signatureFromDoc } from './doc-signatures.ts';

const recorded = parseJson(readFileSync(new URL('../../fixtures/odoo-data/_method-signatures.json', import.meta.url), 'utf8'));
const docOf = (model: string) =>
  new Map<string, Value>([
    ['model', model],
    ['methods', (recorded as Map<string, Value>).get(model) as Value],
  ]);
const json = (text: string) => parseJson(text);

describe('parseDocMethods()', () => {
  it('reads every recorded method of the 8 documented models', () => {
    const counts = Object.fromEntries([...(recorded as Map<string, Value>).keys()].map((m) => [m, parseDocMethods(docOf(m), m)?.size]));
    expect(counts).toEqual({
      'res.partner': 98,
      'sale.order': 94,
      'res.users': 81,
      'res.lang': 54,
      'res.country': 50,
      'res.users.apikeys': 50,
      'res.users.apikeys.description': 51,
      'res.users.identitycheck': 51,
    });
  });

  it('keeps parameter order, kinds and defaults, and api "model"', () => {
    const methods = parseDocMethods(docOf('res.partner'), 'res.partner');
    expect(methods?.get('search_read')).toEqual({
      params: [
        { name: 'domain', kind: 'POSITIONAL_OR_KEYWORD', default: 'None' },
        { name: 'fields', kind: 'POSITIONAL_OR_KEYWORD', default: 'None' },
        { name: 'offset', kind: 'POSITIONAL_OR_KEYWORD', default: '0' },
        { name: 'limit', kind: 'POSITIONAL_OR_KEYWORD', default: 'None' },
        { name: 'order', kind: 'POSITIONAL_OR_KEYWORD', default: 'None' },
        { name: 'read_kwargs', kind: 'VAR_KEYWORD' },
      ],
      apiModel: true,
      qualname: 'BaseModel.search_read',
      source: 'discovered',
    });
    expect(methods?.get('write')).toMatchObject({ params: [{ name: 'vals', kind: 'POSITIONAL_OR_KEYWORD' }], apiModel: false });
    expect(methods?.get('read')?.params[1]).toEqual({ name: 'load', kind: 'POSITIONAL_OR_KEYWORD', default: "'_classic_read'" });
  });

  it('derives the qualname from the introducing model the entry names', () => {
    const methods = parseDocMethods(docOf('sale.order'), 'sale.order');
    expect(methods?.get('message_post')?.qualname).toBe('MailThread.message_post');
    expect(methods?.get('web_search_read')?.qualname).toBe('Base.web_search_read');
    expect(methods?.get('search')?.qualname).toBe('BaseModel.search');
  });

  it.each([
    ['not an object', '[]'],
    ['no methods', '{"model": "res.partner"}'],
    ['methods not an object', '{"methods": []}'],
  ])('answers undefined for a body with %s', (_what, body) => {
    expect(parseDocMethods(json(body), 'res.partner')).toBeUndefined();
  });

  it('leaves out malformed entries and keeps the rest', () => {
    const body = json(`{"methods": {
      "good": {"parameters": {"a": {}}},
      "bad_kind": {"parameters": {"a": {"kind": "SOMETIMES"}}},
      "bad_params": {"parameters": []},
      "bad_name": {"parameters": {"not an identifier": {}}},
      "not a method": {"parameters": {}},
      "no_entry": 3
    }}`);
    const methods = parseDocMethods(body, 'x_custom.model');
    expect([...(methods?.keys() ?? [])]).toEqual(['good']);
    expect(methods?.get('good')).toEqual({
      params: [{ name: 'a', kind: 'POSITIONAL_OR_KEYWORD' }],
      apiModel: false,
      qualname: 'XCustomModel.good',
      source: 'discovered',
    });
  });
});

describe('signatureFromDoc()', () => {
  it('reads a method without parameters, and api without "model" as record-level', () => {
    const doc = json('{"api": ["readonly"], "model": "res.partner"}');
    expect(isStruct(doc)).toBe(true);
    expect(signatureFromDoc('action_x', doc, 'res.partner')).toEqual({
      params: [],
      apiModel: false,
      qualname: 'ResPartner.action_x',
      source: 'discovered',
    });
  });
});
