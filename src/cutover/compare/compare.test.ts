import { describe, expect, it } from 'vitest';
import { parseJson } from '../../json/index.ts';
import { compareHttp, compareJsonrpcBodies, compareJsonValues, compareXmlrpcBodies, exceptionTail, faultStringRule } from './compare.ts';

const ok = (value: string) =>
  `<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n${value}\n</param>\n</params>\n\n</methodResponse>\n`;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fault = (code: string, text: string) =>
  `<?xml version="1.0"?>\n<methodResponse>\n<fault>\n<value><struct>\n<member>\n<name>faultCode</name>\n<value>${code}</value>\n</member>\n<member>\n<name>faultString</name>\n<value><string>${esc(text)}</string></value>\n</member>\n</struct></value>\n</fault>\n\n</methodResponse>\n`;

const traceback = (frames: string[], last: string) =>
  `Traceback (most recent call last):\n${frames.map((f) => `  File "${f}", line 1, in x\n    call()\n    ^^^^^^\n`).join('')}${last}`;

describe('exceptionTail()', () => {
  it.each([
    ['the exception line after the last frame', traceback(['/opt/odoo/a.py', '/opt/odoo/b.py'], 'ValueError: bad\n'), 'ValueError: bad\n'],
    [
      'a multi-line message, whole',
      traceback(['/a.py'], "odoo.exceptions.ValidationError: cannot\nModel: 'Tags' (x)\n- create: y\n"),
      "odoo.exceptions.ValidationError: cannot\nModel: 'Tags' (x)\n- create: y\n",
    ],
    [
      'the last exception of a chain',
      `${traceback(['/a.py'], "KeyError: 'x'\n")}\nDuring handling of the above exception, another exception occurred:\n\n${traceback(['/b.py'], 'ValueError: y\n')}`,
      'ValueError: y\n',
    ],
    [
      'trailing blank lines',
      traceback(['/a.py'], 'psycopg2.errors.DuplicateDatabase: database "gw3" already exists\n\n'),
      'psycopg2.errors.DuplicateDatabase: database "gw3" already exists\n\n',
    ],
    ['a header without frames', 'Traceback (most recent call last):\nTypeError: no\n', 'TypeError: no\n'],
    ['plain text from its last `name: ` line', 'context\nKeyError: foo', 'KeyError: foo'],
  ])('returns %s', (_what, text, tail) => {
    expect(exceptionTail(text)).toBe(tail);
  });
});

describe('faultStringRule()', () => {
  const code = (xml: string) => {
    const r = compareXmlrpcBodies(fault(xml, 'x'), fault(xml, 'x'));
    expect(r).toEqual([]);
    return xml;
  };
  it.each([
    ['<int>1</int>', 'tail'],
    ['<int>2</int>', 'whole'],
    ['<int>3</int>', 'whole'],
    ['<int>4</int>', 'whole'],
    ['<string>warning -- UserError\n\nx</string>', 'whole'],
    ['<string>AccessDenied</string>', 'whole'],
    ['<string>cannot marshal None unless allow_none is enabled</string>', 'tail'],
  ])('compares the faultString of faultCode %j by %s', (xml, rule) => {
    const tag = /^<(\w+)>(.*)<\/\w+>$/s.exec(code(xml));
    expect(faultStringRule({ kind: 'scalar', tag: tag?.[1] ?? '', text: tag?.[2] ?? '', untyped: false, span: [0, 0] })).toBe(rule);
  });
});

describe('compareXmlrpcBodies()', () => {
  it('accepts the identical answer', () => {
    expect(compareXmlrpcBodies(ok('<value><int>44</int></value>'), ok('<value><int>44</int></value>'))).toEqual([]);
  });

  it.each([
    [
      '<double> answered as <int>',
      '<value><double>2240.0</double></value>',
      '<value><int>2240</int></value>',
      /expected <double>.*got <int>/,
    ],
    [
      'an int answered as a list',
      '<value><int>45</int></value>',
      '<value><array><data>\n<value><int>45</int></value>\n</data></array></value>',
      /expected <int>.*got <array>/,
    ],
    ['a boolean answered as an int', '<value><boolean>1</boolean></value>', '<value><int>1</int></value>', /expected <boolean>/],
    ['a string answered untyped', '<value><string>x</string></value>', '<value>x</value>', /untyped value/],
    [
      'another double text',
      '<value><double>0.1</double></value>',
      '<value><double>0.10000000000000001</double></value>',
      /expected <double>/,
    ],
    ['another string', '<value><string>Acme</string></value>', '<value><string>acme</string></value>', /expected <string>"Acme"/],
    [
      'a shorter list',
      '<value><array><data>\n<value><int>1</int></value>\n<value><int>2</int></value>\n</data></array></value>',
      '<value><array><data>\n<value><int>1</int></value>\n</data></array></value>',
      /expected 2 items, got 1/,
    ],
  ])('reports %s', (_what, expected, actual, message) => {
    const diffs = compareXmlrpcBodies(ok(expected), ok(actual));
    expect(diffs.length).toBeGreaterThan(0);
    expect(diffs.map((d) => d.message).join('\n')).toMatch(message);
  });

  it('compares struct member order', () => {
    const a =
      '<value><struct>\n<member>\n<name>id</name>\n<value><int>9</int></value>\n</member>\n<member>\n<name>name</name>\n<value><string>A</string></value>\n</member>\n</struct></value>';
    const b =
      '<value><struct>\n<member>\n<name>name</name>\n<value><string>A</string></value>\n</member>\n<member>\n<name>id</name>\n<value><int>9</int></value>\n</member>\n</struct></value>';
    expect(compareXmlrpcBodies(ok(a), ok(b))).toEqual([{ path: 'result', message: 'expected members ["id","name"], got ["name","id"]' }]);
  });

  it('compares the bytes once the values agree', () => {
    const noBlankLine = ok('<value><int>1</int></value>').replace('\n\n</methodResponse>', '\n</methodResponse>');
    expect(compareXmlrpcBodies(ok('<value><int>1</int></value>'), noBlankLine)[0]?.message).toMatch(/same values, different bytes/);
    expect(compareXmlrpcBodies(ok('<value><int>1</int></value>'), ok('<value><int> 1</int></value>'))[0]?.message).toMatch(
      /different bytes/,
    );
  });

  it('compares a volatile value by shape only', () => {
    const options = { volatilePaths: [''] };
    expect(compareXmlrpcBodies(ok('<value><int>44</int></value>'), ok('<value><int>7</int></value>'), options)).toEqual([]);
    expect(
      compareXmlrpcBodies(
        ok('<value><int>44</int></value>'),
        ok('<value><array><data>\n<value><int>7</int></value>\n</data></array></value>'),
        options,
      ),
    ).toHaveLength(1);
    expect(
      compareXmlrpcBodies(ok('<value><string>2026-11-21</string></value>'), ok('<value><string>2026-1-1</string></value>'), options)[0]
        ?.message,
    ).toMatch(/length 10/);
  });

  it('compares create_date and write_date by shape wherever they are', () => {
    const rec = (d: string) =>
      ok(`<value><struct>\n<member>\n<name>create_date</name>\n<value><string>${d}</string></value>\n</member>\n</struct></value>`);
    expect(compareXmlrpcBodies(rec('2026-11-21 23:00:20'), rec('2030-01-01 00:00:00'))).toEqual([]);
    expect(
      compareXmlrpcBodies(
        rec('2026-11-21 23:00:20'),
        ok('<value><struct>\n<member>\n<name>create_date</name>\n<value><boolean>0</boolean></value>\n</member>\n</struct></value>'),
      ),
    ).toHaveLength(1);
  });

  it('maps recorded ids of records created in the run', () => {
    const mapId = (id: bigint) => (id === 54n ? 47n : undefined);
    expect(compareXmlrpcBodies(ok('<value><int>54</int></value>'), ok('<value><int>47</int></value>'), { mapId })).toEqual([]);
    expect(compareXmlrpcBodies(ok('<value><int>54</int></value>'), ok('<value><int>48</int></value>'), { mapId })).toHaveLength(1);
  });

  it('compares faults 2, 3 and 4 by their whole text', () => {
    expect(compareXmlrpcBodies(fault('<int>2</int>', "Object x doesn't exist"), fault('<int>2</int>', "Object x doesn't exist"))).toEqual(
      [],
    );
    expect(
      compareXmlrpcBodies(fault('<int>2</int>', "Object x doesn't exist"), fault('<int>1</int>', "Object x doesn't exist"))[0]?.message,
    ).toMatch(/expected <int>2, got <int>1/);
    expect(compareXmlrpcBodies(fault('<int>3</int>', 'Access Denied'), fault('<int>3</int>', 'Access denied'))).toHaveLength(1);
  });

  it('compares fault 1 from the exception line on', () => {
    const odoo = traceback(
      ['/opt/odoo/odoo/http.py', '/opt/odoo/odoo/service/model.py'],
      "ValueError: invalid literal for int() with base 10: 'abc'\n",
    );
    const gateway = traceback(['legacy_rpc_gateway/object.ts'], "ValueError: invalid literal for int() with base 10: 'abc'\n");
    expect(compareXmlrpcBodies(fault('<int>1</int>', odoo), fault('<int>1</int>', gateway))).toEqual([]);
    const other = traceback(['x.ts'], "TypeError: invalid literal for int() with base 10: 'abc'\n");
    expect(compareXmlrpcBodies(fault('<int>1</int>', odoo), fault('<int>1</int>', other))[0]?.message).toMatch(/exception differs/);
  });

  it('compares v1 faults: warning texts whole, internal faultCodes whole with the traceback by its tail', () => {
    const w = '<string>warning -- AccessError\n\nPrivate methods</string>';
    expect(compareXmlrpcBodies(fault(w, ''), fault(w, ''))).toEqual([]);
    expect(compareXmlrpcBodies(fault(w, ''), fault('<string>warning -- UserError\n\nPrivate methods</string>', ''))).toHaveLength(1);
    const code = "<string>The method 'res.partner.x' does not exist</string>";
    const tb = (f: string) => traceback([f], "AttributeError: The method 'res.partner.x' does not exist\n");
    expect(compareXmlrpcBodies(fault(code, tb('/opt/odoo/a.py')), fault(code, tb('gateway.ts')))).toEqual([]);
  });

  it('reports a fault where a result was recorded', () => {
    expect(compareXmlrpcBodies(ok('<value><int>1</int></value>'), fault('<int>3</int>', 'Access Denied'))[0]?.message).toMatch(
      /expected result .* got fault/,
    );
  });

  it('reports an answer that is not XML-RPC', () => {
    expect(compareXmlrpcBodies(ok('<value><int>1</int></value>'), 'Internal Server Error')[0]?.path).toBe('body');
  });
});

describe('compareJsonValues()', () => {
  const j = (text: string) => parseJson(text);
  it.each([
    ['int vs float', '2240.0', '2240', /expected float 2240.0, got int 2240/],
    ['int vs list', '45', '[45]', /expected int 45, got array/],
    ['member order', '{"a": 1, "b": 2}', '{"b": 2, "a": 1}', /expected members \["a","b"\], got \["b","a"\]/],
    ['a missing member', '{"a": 1}', '{}', /expected members/],
    ['null vs false', 'null', 'false', /expected null, got bool/],
    ['a big int', '9007199254740993', '9007199254740992', /expected 9007199254740993/],
  ])('reports %s', (_what, expected, actual, message) => {
    expect(
      compareJsonValues(j(expected), j(actual))
        .map((d) => d.message)
        .join('\n'),
    ).toMatch(message);
  });

  it('ignores member order when asked (upstream bodies)', () => {
    expect(compareJsonValues(j('{"a": 1, "b": 2}'), j('{"b": 2, "a": 1}'), { ignoreMemberOrder: true })).toEqual([]);
  });

  it('compares volatile paths by shape', () => {
    expect(compareJsonValues(j('{"ids": [59], "x": 1}'), j('{"ids": [47], "x": 1}'), { volatilePaths: ['ids'] })).toEqual([]);
    expect(compareJsonValues(j('{"ids": [59]}'), j('{"ids": 47}'), { volatilePaths: ['ids'] })).toHaveLength(1);
    expect(
      compareJsonValues(j('{"context": {"default_key": "<NEW_KEY_1>"}}'), j('{"context": {"default_key": "abcdefghijk"}}'), {
        volatilePaths: ['context.default_key'],
      }),
    ).toEqual([]);
  });
});

describe('compareJsonrpcBodies()', () => {
  const error = (debug: string, name = 'builtins.ValueError') =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      error: { code: 0, message: 'Odoo Server Error', data: { name, message: 'bad', arguments: ['bad'], context: {}, debug } },
    });

  it('compares data.debug from the exception line on', () => {
    expect(
      compareJsonrpcBodies(error(traceback(['/opt/a.py'], 'ValueError: bad\n')), error(traceback(['gw.ts'], 'ValueError: bad\n'))),
    ).toEqual([]);
    expect(
      compareJsonrpcBodies(error(traceback(['/opt/a.py'], 'ValueError: bad\n')), error(traceback(['gw.ts'], 'ValueError: worse\n'))),
    ).toHaveLength(1);
    expect(compareJsonrpcBodies(error('x', 'builtins.ValueError'), error('x', 'builtins.TypeError'))).toHaveLength(1);
  });

  it('tells an absent result from a null one', () => {
    expect(compareJsonrpcBodies('{"jsonrpc": "2.0", "id": 3}', '{"jsonrpc": "2.0", "id": 3, "result": null}')[0]?.message).toMatch(
      /expected members/,
    );
  });

  it('applies a whole-value volatile marker to the result only', () => {
    expect(
      compareJsonrpcBodies('{"jsonrpc": "2.0", "id": 1, "result": 52}', '{"jsonrpc": "2.0", "id": 1, "result": 47}', {
        volatilePaths: [''],
      }),
    ).toEqual([]);
    expect(
      compareJsonrpcBodies('{"jsonrpc": "2.0", "id": 1, "result": 52}', '{"jsonrpc": "2.0", "id": 2, "result": 47}', {
        volatilePaths: [''],
      }),
    ).toHaveLength(1);
  });
});

describe('compareHttp()', () => {
  it('checks status and content type', () => {
    expect(
      compareHttp({ status: 200, contentType: 'text/xml; charset=utf-8' }, { status: 200, contentType: 'text/xml; charset=utf-8' }),
    ).toEqual([]);
    expect(compareHttp({ status: 200, contentType: 'text/xml; charset=utf-8' }, { status: 500, contentType: 'text/xml' })).toHaveLength(2);
  });
});
