import { describe, expect, it } from 'vitest';
import { PyFloat } from '../../src/value.ts';
import { loadCases, orderCases, scopeOf, sectionsOf } from './load-cases.ts';

const cases = loadCases();
const ordered = orderCases(cases);
const position = (id: string) => ordered.findIndex((c) => c.id === id);

describe('loadCases()', () => {
  it('reads every case of the corpus', () => {
    expect(cases).toHaveLength(293);
    expect(new Set(cases.map((c) => c.id)).size).toBe(293);
  });

  it('keeps recorded floats as floats', () => {
    const c = cases.find((x) => x.id === 'obj-read-dates-monetary-xmlrpc1');
    const record = (c?.legacyDecoded?.value as Map<string, unknown>[])[0];
    expect(record?.get('amount_total')).toBeInstanceOf(PyFloat);
  });

  it('decodes the legacy call', () => {
    const c = cases.find((x) => x.id === 'obj-search-positional-xmlrpc2');
    expect(c?.call?.object).toMatchObject({ model: 'res.partner', method: 'search' });
  });
});

describe('orderCases()', () => {
  it('keeps every case once', () => {
    expect(ordered).toHaveLength(cases.length);
  });

  it('follows the Date headers', () => {
    const stamps = ordered.map((c) => c.recordedAt).filter((t) => t !== undefined);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  });

  it('orders creates by the ids they were given', () => {
    expect(position('obj-create-single-xmlrpc2')).toBeLessThan(position('obj-create-list-xmlrpc2')); // 44 < 46
    expect(position('obj-create-list-xmlrpc2')).toBeLessThan(position('obj-create-single-jsonrpc')); // 46 < 52
  });

  it('puts a case that uses a record after the creates of smaller ids', () => {
    expect(position('obj-create-xmlrpc1')).toBeLessThan(position('obj-write-execute-xmlrpc2')); // 58 < 59
  });

  it('orders JSON-RPC cases of one second by request id', () => {
    expect(position('obj-write-jsonrpc')).toBeLessThan(position('obj-action_unarchive-jsonrpc')); // id 2 < 3
  });

  it('applies the ordering hints', () => {
    expect(position('obj-write-xmlrpc2')).toBeLessThan(position('obj-read-html-xmlrpc2'));
  });
});

describe('sectionsOf()', () => {
  it('starts a new section after each pause of the recorder', () => {
    const sections = sectionsOf(ordered);
    const sectionOf = (id: string) => sections[position(id)];
    expect(sectionOf('common-version-jsonrpc')).toBe(0);
    expect(sectionOf('obj-search-positional-xmlrpc2')).toBe(1);
    expect(sectionOf('obj-create-single-xmlrpc2')).toBe(2);
    expect(sectionOf('obj-read-html-xmlrpc2')).toBe(2);
    expect(sectionOf('types-nil-kwarg-limit')).toBe(3);
  });
});

describe('scopeOf()', () => {
  it.each([
    ['obj-read-xmlrpc1', 'legacy'],
    ['common-authenticate-apikey-xmlrpc2', 'legacy'],
    ['auth-legacy-expired-key', 'legacy'],
    ['err-json2-root', 'json2'],
    ['db-list-xmlrpc2', 'out-of-scope'],
    ['err-db-unknown-method-xmlrpc2', 'out-of-scope'],
    ['multidb-db-list-xmlrpc2', 'out-of-scope'],
    ['webdb-list', 'out-of-scope'],
    ['sess-mint-1-authenticate', 'out-of-scope'],
    ['later-apikeys-generate-ok', 'out-of-scope'],
    ['auth-json2-session-cookie-own-key', 'out-of-scope'],
    ['types-python-client-bigint', 'out-of-scope'],
  ])('%s is %s', (id, kind) => {
    const c = cases.find((x) => x.id === id);
    expect(c && scopeOf(c).kind).toBe(kind);
  });
});
