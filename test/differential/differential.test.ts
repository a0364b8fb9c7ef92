/**
 * The differential tester's own parts, without Odoo: the call generator is reproducible and covers
 * what it claims, and the judge tells equal, intended and differing answers apart.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PyBinary } from '../../src/value.ts';
import { dialects, generateCalls } from './generate.ts';
import { judge, maskText, valueDeviations } from './outcome.ts';

const xml = (inner: string) => ({
  status: 200,
  contentType: 'text/xml; charset=utf-8',
  body: `<?xml version='1.0'?>\n<methodResponse>\n${inner}\n</methodResponse>\n`,
});
const result = (v: string) => xml(`<params>\n<param>\n<value>${v}</value>\n</param>\n</params>`);
const fault = (code: number, text: string) =>
  xml(
    `<fault>\n<value><struct>\n<member>\n<name>faultCode</name>\n<value><int>${code}</int></value>\n</member>\n<member>\n<name>faultString</name>\n<value><string>${text}</string></value>\n</member>\n</struct></value>\n</fault>`,
  );

describe('generateCalls()', () => {
  it('gives the same calls for the same seed, and others for another', () => {
    expect(JSON.stringify(generateCalls(3000, 7), (_k, v: unknown) => (v instanceof Map ? [...v] : v))).toBe(
      JSON.stringify(generateCalls(3000, 7), (_k, v: unknown) => (v instanceof Map ? [...v] : v)),
    );
    expect(JSON.stringify(generateCalls(3000, 8).slice(2000), (_k, v: unknown) => (v instanceof Map ? [...v] : v))).not.toBe(
      JSON.stringify(generateCalls(3000, 7).slice(2000), (_k, v: unknown) => (v instanceof Map ? [...v] : v)),
    );
  });

  it('covers the three dialects, the three services, writes, users and value types', () => {
    const calls = generateCalls(12000, 25);
    expect(calls).toHaveLength(12000);
    expect(new Set(calls.map((c) => c.dialect))).toEqual(new Set(['xmlrpc2', 'xmlrpc1', 'jsonrpc']));
    expect(new Set(calls.map((c) => c.service))).toEqual(new Set(['common', 'db', 'object', 'report', '']));
    expect(new Set(calls.flatMap((c) => (c.write ? [c.write] : [])))).toEqual(new Set(['create', 'write', 'unlink', 'copy']));
    expect(new Set(calls.flatMap((c) => (c.user ? [String(c.user.uid)] : []))).size).toBeGreaterThanOrEqual(4);
    expect(
      calls.some(
        (c) =>
          c.dialect === 'jsonrpc' &&
          JSON.stringify(c.params, (_k, v: unknown) => (v instanceof PyBinary ? 'BINARY' : v)).includes('BINARY'),
      ),
    ).toBe(false);
  });

  it('covers what XML-RPC cannot marshal, binary fields, non-dict contexts, keyword-only methods, refusals and bare service paths', () => {
    const calls = generateCalls(12000, 25);
    const families = new Set(calls.map((c) => c.family));
    for (const family of [
      'object.unmarshallable',
      'object.binary',
      'object.context-order',
      'object.keyword-only',
      'object.access',
      'service.bare-path',
    ]) {
      expect(families).toContain(family);
    }
    expect(new Set(calls.filter((c) => c.family === 'service.bare-path').map((c) => c.path))).toEqual(
      new Set(['/xmlrpc', '/xmlrpc/', '/xmlrpc/2', '/xmlrpc/2/', '//xmlrpc']),
    );
    const access = calls.filter((c) => c.family === 'object.access' && c.dialect === 'jsonrpc');
    expect(new Set(access.map((c) => c.user?.password))).toEqual(new Set(['not-the-password', 'demo']));
    // issue 45: identity-checked methods in each dialect, and copies whose "%s (copy)" `_()` translates in and outside a method's frame
    for (const dialect of dialects) {
      const mine = calls.filter((c) => c.dialect === dialect);
      expect(
        mine.filter((c) => c.family === 'object.identity-checked').map((c) => `${String(c.params[0])}.${String(c.params[1])}`),
      ).toEqual(
        expect.arrayContaining([
          'res.users.api_key_wizard',
          'res.users.preference_change_password',
          'res.users.apikeys.description.make_key',
        ]),
      );
      const copies = mine.filter((c) => c.family === 'object.copy-language');
      expect(copies.every((c) => c.write === 'copy')).toBe(true);
      expect(new Set(copies.map((c) => `${String(c.params[0])} ${c.params.length > 3 ? 'lang' : 'no lang'}`))).toEqual(
        new Set(['product.category no lang', 'product.category lang', 'account.payment.term no lang', 'account.payment.term lang']),
      );
    }
    // every keyword-only call passes a positional argument after the ids: it fails binding, so nothing is posted
    expect(calls.filter((c) => c.family === 'object.keyword-only').every((c) => (c.params[2] as unknown[]).length > 1)).toBe(true);
  });
});

describe('judge()', () => {
  it('finds equal answers equal', () => {
    expect(judge('xmlrpc2', 'f', 'object', 'execute_kw', result('<int>3</int>'), result('<int>3</int>'))).toEqual({ kind: 'equal' });
  });

  it('groups differences by a cause with numbers and quoted names masked', () => {
    const a = judge('xmlrpc2', 'f', 'object', 'execute_kw', result('<int>3</int>'), result('<double>3.0</double>'));
    const b = judge(
      'xmlrpc2',
      'f',
      'object',
      'execute_kw',
      fault(1, "Traceback\nKeyError: 'x'"),
      fault(1, "Traceback\nValueError: 'y' 12"),
    );
    expect(a).toMatchObject({ kind: 'differs' });
    expect(b).toMatchObject({ kind: 'differs', cause: 'f: Odoo fault N: KeyError: ‹q› | gateway fault N: ValueError: ‹q› N' });
    expect(maskText("Record res.partner(12,) 'abc' 3.5")).toBe('Record res.partner(N,) ‹q› N');
  });

  it('tells answers that differ only in the address of an object Odoo wrote as its repr() as Odoo varying, whether Odoo reused the address or not', () => {
    const json = (address: string) => ({
      status: 200,
      contentType: 'application/json',
      body: `{"jsonrpc": "2.0", "id": 1, "result": [{"properties": "<odoo.orm.fields_properties.Property object at 0x${address}>", "name": "A"}]}`,
    });
    expect(judge('jsonrpc', 'f', 'object', 'execute_kw', json('7f8beaf09a50'), json('7f8bb8e0ffd0'))).toEqual({ kind: 'odoo-varies' });
    const otherName = { ...json('7f8bb8e0ffd0'), body: json('7f8bb8e0ffd0').body.replace('"A"', '"B"') };
    expect(judge('jsonrpc', 'f', 'object', 'execute_kw', json('7f8beaf09a50'), otherName)).toMatchObject({ kind: 'differs' });
  });

  it('counts a difference in a call carrying a <base64> as that intended deviation', () => {
    const outcome = judge('xmlrpc2', 'f', 'object', 'execute_kw', fault(1, 'Traceback\nTypeError: x'), result('<int>0</int>'), [
      [['a', '=', new PyBinary('aGk=')]],
    ]);
    expect(outcome).toEqual({ kind: 'intended', title: '<base64> values are accepted' });
  });

  it('names value deviations that COMPATIBILITY.md has', () => {
    const titles = readFileSync(new URL('../../COMPATIBILITY.md', import.meta.url), 'utf8')
      .match(/^## .*$/gm)
      ?.map((t) => t.slice(3).replaceAll('`', ''));
    for (const d of valueDeviations) expect(titles).toContain(d.title);
  });
});
