import { describe, expect, it } from 'vitest';
import { readExchange, readXmlRpcExchanges } from '../../../test/fixtures-xml/corpus.ts';
import { LegacyError } from '../../errors.ts';
import { PyBinary, PyDateTime, PyDecimal, PyFloat, struct, type Value } from '../../value.ts';
import { unmarshalRequest } from './decode.ts';
import { defaultMarshalOptions, encodeResponse, type MarshalOptions } from './encode.ts';

const odoo = defaultMarshalOptions;

function body(value: Value, opts: MarshalOptions = odoo): string {
  const out = encodeResponse(value, opts);
  if (out instanceof LegacyError) throw new Error(out.lastLine);
  return out.toString('utf8');
}

/** The XML of one value, as it sits between `<param>\n` and `</param>`. */
function valueXml(value: Value, opts: MarshalOptions = odoo): string {
  return body(value, opts).slice(
    '<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n'.length,
    -'</param>\n</params>\n\n</methodResponse>\n'.length,
  );
}

function failure(value: Value, opts: MarshalOptions = odoo): string {
  const out = encodeResponse(value, opts);
  if (!(out instanceof LegacyError)) throw new Error('expected a marshalling error');
  return out.lastLine;
}

describe('encodeResponse() against corpus bodies built by hand', () => {
  it('writes common.version as Odoo does (struct, array, empty string)', () => {
    const version = struct({
      server_version: '19.0',
      server_version_info: [19, 0, 0, 'final', 0, ''],
      server_serie: '19.0',
      protocol_version: 1,
    });
    expect(body(version)).toBe(readExchange('common-version-xmlrpc2').responseBody);
  });

  it('writes floats as <double> with Python repr and False as <boolean>0</boolean>', () => {
    const order = struct({
      id: 4,
      name: 'S00004',
      date_order: '2026-11-21 23:01:24',
      validity_date: '2026-12-22',
      amount_total: new PyFloat(2240),
      amount_tax: new PyFloat(0),
      state: 'sale',
      note: false,
      partner_id: [10, 'Gemini Furniture'],
      currency_id: [1, 'USD'],
      commitment_date: false,
    });
    expect(body([order])).toBe(readExchange('obj-read-dates-monetary-xmlrpc1').responseBody);
  });

  it('escapes &, < and > in strings', () => {
    const rows = [struct({ id: 59, comment: '<p>Hello <b>world</b> &amp; co </p>' })];
    expect(body(rows)).toBe(readExchange('obj-read-html-xmlrpc2').responseBody);
  });

  it('writes a bare int result', () => {
    expect(body(11)).toBe(readExchange('types-boolean-1').responseBody);
  });
});

describe('encodeResponse() reproduces every successful corpus answer byte for byte', () => {
  const oks = readXmlRpcExchanges().filter((c) => c.decoded?.kind === 'ok');
  it.each(oks.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    // The corpus body decoded with the (expat-exact) decoder keeps int/double/boolean apart.
    const decoded = unmarshalRequest(Buffer.from(c.responseBody, 'utf8'), 64);
    if (decoded instanceof LegacyError) throw new Error(decoded.lastLine);
    expect(body(decoded.params[0]!)).toBe(c.responseBody);
  });
});

describe('encodeResponse() value layout', () => {
  it.each([
    ['an empty string', '', '<value><string></string></value>\n'],
    ['a non-ASCII string as raw UTF-8', 'Zoë 🙂', '<value><string>Zoë 🙂</string></value>\n'],
    ['control characters stripped, TAB/LF/CR kept', 'a\x00\x07b\tc\nd\re\x1f', '<value><string>ab\tc\nd\re</string></value>\n'],
    ['True', true, '<value><boolean>1</boolean></value>\n'],
    ['2^31 - 1', 2147483647, '<value><int>2147483647</int></value>\n'],
    ['-2^31', -2147483648, '<value><int>-2147483648</int></value>\n'],
    ['a float', new PyFloat(0.1), '<value><double>0.1</double></value>\n'],
    ['a large float', new PyFloat(1e16), '<value><double>1e+16</double></value>\n'],
    [
      'a datetime, as Odoo marshals it (a string)',
      new PyDateTime('2024-01-02 03:04:05'),
      '<value><string>2024-01-02 03:04:05</string></value>\n',
    ],
    ['a binary, as its base64 text', new PyBinary('aGk='), '<value><string>aGk=</string></value>\n'],
    ['an empty list', [], '<value><array><data>\n</data></array></value>\n'],
    ['an empty dict', new Map(), '<value><struct>\n</struct></value>\n'],
    [
      'struct names in order, escaped, controls kept',
      struct([
        ['b', 1],
        ['a&<', 2],
        ['c\x01', 3],
      ]),
      '<value><struct>\n<member>\n<name>b</name>\n<value><int>1</int></value>\n</member>\n<member>\n<name>a&amp;&lt;</name>\n<value><int>2</int></value>\n</member>\n<member>\n<name>c\x01</name>\n<value><int>3</int></value>\n</member>\n</struct></value>\n',
    ],
  ] as const)('writes %s', (_what, value, xml) => {
    expect(valueXml(value as Value)).toBe(xml);
  });
});

describe('encodeResponse() checks the whole result before writing', () => {
  it.each([
    ['None at the top', null, 'TypeError: cannot marshal None unless allow_none is enabled'],
    ['None deep in a struct', [struct({ a: [1, struct({ b: null })] })], 'TypeError: cannot marshal None unless allow_none is enabled'],
    ['2^31 in an array', [1, [2147483648]], 'OverflowError: int exceeds XML-RPC limits'],
    ['a bigint deep inside', struct({ x: [struct({ y: -9007199254740993n })] }), 'OverflowError: int exceeds XML-RPC limits'],
    ['the first problem in Python order (int before None)', [3000000000, null], 'OverflowError: int exceeds XML-RPC limits'],
    [
      'the first problem in Python order (None before int)',
      struct({ a: null, b: 3000000000 }),
      'TypeError: cannot marshal None unless allow_none is enabled',
    ],
    ['a Decimal', [new PyDecimal('1.5')], "TypeError: cannot marshal <class 'decimal.Decimal'> objects"],
  ] as const)('faults on %s', (_what, value, last) => {
    expect(failure(value as Value)).toBe(last);
  });

  it('gives a fault-1 error Odoo would give (kind internal, Python name)', () => {
    const err = encodeResponse([null], odoo) as LegacyError;
    expect(err.kind).toBe('internal');
    expect(err.name).toBe('builtins.TypeError');
    expect(err.message).toBe('cannot marshal None unless allow_none is enabled');
  });
});

describe('encodeResponse() opt-outs', () => {
  it.each([
    [
      "nullAs 'nil' (Python's allow_none layout, no newline)",
      [1, null],
      { nullAs: 'nil', bigIntAs: 'fault' },
      '<value><array><data>\n<value><int>1</int></value>\n<value><nil/></value></data></array></value>\n',
    ],
    [
      "nullAs 'false'",
      struct({ a: null }),
      { nullAs: 'false', bigIntAs: 'fault' },
      '<value><struct>\n<member>\n<name>a</name>\n<value><boolean>0</boolean></value>\n</member>\n</struct></value>\n',
    ],
    [
      "bigIntAs 'i8'",
      [3000000000, -9007199254740993n],
      { nullAs: 'fault', bigIntAs: 'i8' },
      '<value><array><data>\n<value><i8>3000000000</i8></value>\n<value><i8>-9007199254740993</i8></value>\n</data></array></value>\n',
    ],
  ] as const)('%s', (_what, value, opts, xml) => {
    expect(valueXml(value as Value, opts as MarshalOptions)).toBe(xml);
  });

  it('still faults on the other problem when only one opt-out is set', () => {
    expect(failure([null, 3000000000], { nullAs: 'nil', bigIntAs: 'fault' })).toBe('OverflowError: int exceeds XML-RPC limits');
  });
});
