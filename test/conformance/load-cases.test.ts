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

  it('measures a pause from the end of an answer to the start of the next request (duration_ms)', () => {
    const sections = sectionsOf(ordered);
    const sectionOf = (id: string) => sections[position(id)];
    // creating gw6 took 17 s, gw6b 20 s: no pause, gw6 still exists when it is dropped
    expect(sectionOf('db-create_database-ok-xmlrpc2')).toBe(sectionOf('db-db_exist-false-xmlrpc2'));
    expect(sectionOf('db-drop-gw6-xmlrpc2')).toBe(sectionOf('db-create_database-ok-xmlrpc2'));
    expect(sectionOf('webdb-restore-ok')).toBe(sectionOf('webdb-duplicate-exists'));
    expect(sectionOf('db-change_admin_password-after-takeover-xmlrpc2')).toBe(sectionOf('webdb-insecure-default-master-takeover'));
  });
});

describe('parseCase()', () => {
  it('reads the later-build cases, which keep their answers as raw text, as JSON values', () => {
    const c = cases.find((x) => x.id === 'later-apikeys-revoke-ok');
    expect([c?.json2?.responseContentType, c?.json2?.responseBody]).toEqual(['application/json; charset=utf-8', true]);
  });
});

describe('scopeOf()', () => {
  it.each([
    ['obj-read-xmlrpc1', 'legacy'],
    ['common-authenticate-apikey-xmlrpc2', 'legacy'],
    ['auth-legacy-expired-key', 'legacy'],
    ['err-json2-root', 'json2'],
    ['db-list-xmlrpc2', 'legacy'],
    ['err-db-unknown-method-xmlrpc2', 'legacy'],
    ['multidb-db-list-xmlrpc2', 'legacy'],
    ['webdb-list', 'json2'],
    ['sess-mint-1-authenticate', 'json2'],
    ['web-webclient-version_info', 'json2'],
    ['auth-web-session-authenticate', 'json2'],
    ['later-apikeys-generate-ok', 'json2'],
    ['auth-json2-session-cookie-own-key', 'json2'],
    ['types-python-client-bigint', 'out-of-scope'],
  ])('%s is %s', (id, kind) => {
    const c = cases.find((x) => x.id === id);
    expect(c && scopeOf(c).kind).toBe(kind);
  });
});
