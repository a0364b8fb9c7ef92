import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readExchange } from '../../../test/fixtures-xml/corpus.ts';
import { readExpatTable, tagged } from '../../../test/fixtures-xml/tagged.ts';
import { encodeRequest } from '../../../test/fixtures-xml/xmlrpc-request.ts';
import type { LegacyCall } from '../../call.ts';
import { LegacyError } from '../../errors.ts';
import { intFromBigInt, PyBinary, PyDateTime, PyDecimal, PyFloat, type Value } from '../../value.ts';
import { decodeRequest, unmarshalRequest } from './decode.ts';
import { encodeResponse } from './encode.ts';

const rows = readExpatTable();

function outcome(body: Uint8Array, maxDepth = 64) {
  const r = unmarshalRequest(body, maxDepth);
  if (r instanceof LegacyError) return { error: { name: r.name, last: r.lastLine, message: r.message } };
  return { ok: { method: r.method, params: r.params.map(tagged) } };
}

describe('unmarshalRequest() against CPython 3.11 xmlrpc.client.loads (expat-table.json)', () => {
  it.each(rows.map((r) => [r.id, r] as const))('%s', (_id, row) => {
    const body = Buffer.from(row.body, 'base64');
    const expected = row.ok ? { ok: row.ok } : { error: row.error };
    expect(outcome(body)).toEqual(expected);
  });
});

describe('decodeRequest()', () => {
  const limits = { maxDepth: 64 };

  it('decodes a corpus execute_kw call, keeping dialect and service', () => {
    const c = readExchange('types-i8-beyond-2-31');
    const call = decodeRequest(Buffer.from(c.requestBody), 'xmlrpc2', 'object', limits);
    expect(call).not.toBeInstanceOf(LegacyError);
    const { dialect, service, method, params } = call as LegacyCall;
    expect({ dialect, service, method }).toEqual({ dialect: 'xmlrpc2', service: 'object', method: 'execute_kw' });
    expect(params.slice(0, 4)).toEqual(['gw', 2, 'admin', 'res.partner']);
  });

  it('answers a truncated body with the ExpatError Odoo gives (corpus err-malformed-xml-xmlrpc2)', () => {
    const c = readExchange('err-malformed-xml-xmlrpc2');
    const err = decodeRequest(Buffer.from(c.requestBody), 'xmlrpc2', 'common', limits) as LegacyError;
    expect(err.kind).toBe('internal');
    expect(err.lastLine).toBe('xml.parsers.expat.ExpatError: no element found: line 1, column 73');
    expect(err.message).toBe('no element found: line 1, column 73');
  });

  it('answers an empty body with "no element found: line 1, column 0" (corpus err-empty-body-xmlrpc2)', () => {
    const err = decodeRequest(new Uint8Array(0), 'xmlrpc2', 'object', limits) as LegacyError;
    expect(err.lastLine).toBe('xml.parsers.expat.ExpatError: no element found: line 1, column 0');
  });

  it.each([
    ['common', 'TypeError: can only concatenate str (not "NoneType") to str'],
    ['db', 'TypeError: can only concatenate str (not "NoneType") to str'],
  ])("gives the %s dispatcher's error for a body without <methodName>", (service, last) => {
    const body = Buffer.from('<methodCall><params><param><value>x</value></param></params></methodCall>');
    expect((decodeRequest(body, 'xmlrpc2', service, limits) as LegacyError).lastLine).toBe(last);
  });

  it.each(['object', 'report'])('names the method None for %s when <methodName> is missing', (service) => {
    const body = Buffer.from('<methodCall><params><param><value>x</value></param></params></methodCall>');
    expect(decodeRequest(body, 'xmlrpc1', service, limits)).toEqual({ dialect: 'xmlrpc1', service, method: 'None', params: ['x'] });
  });
});

describe('decodeRequest() intended deviations', () => {
  const refusal = 'xml.parsers.expat.ExpatError: DOCTYPE and ENTITY declarations are refused by the gateway';
  it.each([
    ['a DOCTYPE', '<!DOCTYPE methodCall><methodCall><methodName>m</methodName></methodCall>', `${refusal}: line 1, column 0`],
    [
      'an internal subset with entities',
      '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>\n<r>&b;</r>',
      `${refusal}: line 2, column 0`,
    ],
    ['an ENTITY declaration', '<!ENTITY a "x"><methodCall/>', `${refusal}: line 1, column 0`],
  ])('refuses %s before reading it', (_what, xml, last) => {
    expect((unmarshalRequest(Buffer.from(xml), 64) as LegacyError).lastLine).toBe(last);
  });

  it('refuses a DOCTYPE in UTF-16 too', () => {
    const body = Buffer.from('\ufeff<!DOCTYPE x><x/>', 'utf16le');
    expect((unmarshalRequest(body, 64) as LegacyError).lastLine).toBe(`${refusal}: line 1, column 1`);
  });

  it('keeps "<!DOCTYPE" inside CDATA as text', () => {
    const body = encodeCall('<value><string><![CDATA[<!DOCTYPE html><p>x</p>]]></string></value>');
    expect((unmarshalRequest(body, 64) as { params: unknown[] }).params).toEqual(['<!DOCTYPE html><p>x</p>']);
  });

  it.each([
    [3, 3, undefined],
    [3, 2, 'xml.parsers.expat.ExpatError: xml nesting depth 3 exceeds maxDepth 2: line 1, column 6'],
  ])('caps element nesting (depth %i, maxDepth %i)', (_depth, maxDepth, last) => {
    const got = unmarshalRequest(Buffer.from('<a><b><c/></b></a>'), maxDepth);
    if (last === undefined) expect((got as LegacyError).lastLine).toBe('xmlrpc.client.ResponseError: ResponseError()');
    else expect((got as LegacyError).lastLine).toBe(last);
  });

  it('refuses a deeply nested call at the first element beyond maxDepth', () => {
    const depth = 100_000;
    const body = Buffer.from(`<methodCall><params><param>${'<value><array><data>'.repeat(depth)}`);
    expect((decodeRequest(body, 'xmlrpc2', 'object', { maxDepth: 64 }) as LegacyError).lastLine).toBe(
      'xml.parsers.expat.ExpatError: xml nesting depth 65 exceeds maxDepth 64: line 1, column 434',
    );
  });
});

function encodeCall(valueXml: string): Buffer {
  return Buffer.from(`<methodCall><methodName>m</methodName><params><param>${valueXml}</param></params></methodCall>`);
}

// Strings XML 1.0 can carry: no C0 controls but TAB/LF/CR, no U+FFFE/U+FFFF, no lone surrogates.
// eslint-disable-next-line no-control-regex -- the C0 controls XML 1.0 forbids
const xmlText = fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, ''));
const valueArb: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(intFromBigInt),
    fc.integer(),
    fc.double().map((x) => new PyFloat(x)),
    fc.boolean(),
    fc.constant(null),
    xmlText,
    fc
      .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
      .map((d) => new PyDateTime(d.toISOString().slice(0, 19).replace('T', ' '))),
    fc.uint8Array({ maxLength: 40 }).map((b) => new PyBinary(Buffer.from(b).toString('base64'))),
    fc.tuple(fc.integer({ min: 1, max: 999999 }), fc.nat(9999)).map(([a, b]) => new PyDecimal(`${a}.${b}`)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.uniqueArray(fc.tuple(xmlText, tie('value')), { maxLength: 4, selector: ([k]) => k }).map((entries) => new Map(entries)),
  ),
})).value;

describe('decodeRequest() properties', () => {
  it('reads back what a client writes, for any value', () => {
    fc.assert(
      fc.property(fc.array(valueArb, { maxLength: 5 }), xmlText, (params, method) => {
        const decoded = unmarshalRequest(encodeRequest(method, params), 64);
        expect(decoded).toEqual({ method, params });
      }),
      { numRuns: 300 },
    );
  });

  it('reads back what encodeResponse writes, as a Python client would see it', () => {
    fc.assert(
      fc.property(valueArb.filter(marshallable), (value) => {
        const body = encodeResponse(value, { nullAs: 'fault', bigIntAs: 'i8' });
        expect(unmarshalRequest(body as Buffer, 10_000)).toEqual({ method: null, params: [asClientSees(value)] });
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on random bytes and always answers a call or a LegacyError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const got = decodeRequest(bytes, 'xmlrpc2', 'object', { maxDepth: 64 });
        expect(got instanceof LegacyError || (typeof got.method === 'string' && Array.isArray(got.params))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on corrupted requests', () => {
    const seeds = rows.map((r) => Buffer.from(r.body, 'base64'));
    fc.assert(
      fc.property(
        fc.constantFrom(...seeds),
        fc.array(fc.tuple(fc.nat(), fc.uint8Array({ minLength: 0, maxLength: 4 }), fc.nat(6)), { maxLength: 4 }),
        (seed, edits) => {
          let body = Buffer.from(seed);
          for (const [at, insert, cut] of edits) {
            const i = body.length === 0 ? 0 : at % (body.length + 1);
            body = Buffer.concat([body.subarray(0, i), Buffer.from(insert), body.subarray(i + cut)]);
          }
          const got = decodeRequest(body, 'xmlrpc1', 'object', { maxDepth: 64 });
          expect(got instanceof LegacyError || Array.isArray(got.params)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

/** Values Odoo can marshal: no None, no Decimal. */
function marshallable(v: Value): boolean {
  if (v === null || v instanceof PyDecimal) return false;
  if (Array.isArray(v)) return v.every(marshallable);
  if (v instanceof Map) return [...v.values()].every(marshallable);
  return true;
}

/** What a client reads back: datetimes and binaries are strings, expat turns CR and CRLF into LF. */
function asClientSees(v: Value): Value {
  const text = (s: string) => s.replace(/\r\n?/g, '\n');
  if (typeof v === 'string') return text(v);
  if (v instanceof PyDateTime) return v.odoo;
  if (v instanceof PyBinary) return v.base64;
  if (Array.isArray(v)) return v.map(asClientSees);
  if (v instanceof Map) return new Map([...v].map(([k, item]) => [text(k), asClientSees(item)]));
  return v;
}

describe('decodeRequest() on hostile bodies (linear work: a quadratic path would time out here)', () => {
  const n = 300_000;
  const digits = '1'.repeat(n);
  it.each([
    [
      'a long <double> with a bad end',
      encodeCall(`<value><double>${digits}x</double></value>`),
      `ValueError: could not convert string to float: '${digits}x'`,
    ],
    [
      'a long <int>',
      encodeCall(`<value><int>${digits}</int></value>`),
      `ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has ${n} digits; use sys.set_int_max_str_digits() to increase the limit`,
    ],
    [
      'a long <bigdecimal> with a bad end',
      encodeCall(`<value><bigdecimal>${digits}x</bigdecimal></value>`),
      "decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]",
    ],
    [
      'many attributes, the last repeated',
      Buffer.from(`<a ${Array.from({ length: 20_000 }, (_, i) => `a${i}="1"`).join(' ')} a7="2"/>`),
      'xml.parsers.expat.ExpatError: duplicate attribute: line 1, column 208893',
    ],
    [
      'deep nesting',
      Buffer.from('<a>'.repeat(n)),
      'xml.parsers.expat.ExpatError: xml nesting depth 65 exceeds maxDepth 64: line 1, column 192',
    ],
    ['base64 of pure padding', encodeCall(`<value><base64>${'='.repeat(n)}</base64></value>`), undefined],
  ])('%s', (_what, body, last) => {
    const got = decodeRequest(body, 'xmlrpc2', 'object', { maxDepth: 64 });
    if (last === undefined) expect(got).not.toBeInstanceOf(LegacyError);
    else expect((got as LegacyError).lastLine).toBe(last);
  });

  it('decodes a 4 MB base64 value as one binary', () => {
    const data = Buffer.alloc(3_000_000, 0xab);
    const body = encodeCall(`<value><base64>${data.toString('base64').replace(/(.{76})/g, '$1\n')}</base64></value>`);
    const call = decodeRequest(body, 'xmlrpc2', 'object', { maxDepth: 64 }) as LegacyCall;
    expect(Buffer.from((call.params[0] as PyBinary).base64, 'base64').equals(data)).toBe(true);
  });
});
