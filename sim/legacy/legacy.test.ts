import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PyBinary, PyFloat, type Value } from '../../src/value.ts';
import { startSimulator, type Simulator } from '../index.ts';
import { pythonJson } from './json-write.ts';
import { pythonFloatRepr } from './python-float.ts';
import { readMethodCall, XmlRpcReadError } from './xmlrpc-read.ts';
import { MarshalError, writeFault, writeResult } from './xmlrpc-write.ts';

describe('pythonFloatRepr()', () => {
  it.each([
    [2240, '2240.0'],
    [0.1, '0.1'],
    [-1.5, '-1.5'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [123456789012345680, '1.2345678901234568e+17'],
    [1e22, '1e+22'],
    [5e-324, '5e-324'],
    [0, '0.0'],
    [-0, '-0.0'],
    [Infinity, 'inf'],
    [NaN, 'nan'],
    [1.5e-7, '1.5e-07'],
  ])('repr(%s) is %s', (x, text) => {
    expect(pythonFloatRepr(x)).toBe(text);
  });
});

describe('writeResult()', () => {
  it("writes the stdlib marshaller's layout inside Odoo's envelope", () => {
    const value = new Map<string, Value>([
      ['a', 1],
      ['b', [true, new PyFloat(2)]],
      ['c', 'x < y & z'],
    ]);
    expect(writeResult(value)).toBe(
      '<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value><struct>\n<member>\n<name>a</name>\n<value><int>1</int></value>\n</member>\n' +
        '<member>\n<name>b</name>\n<value><array><data>\n<value><boolean>1</boolean></value>\n<value><double>2.0</double></value>\n</data></array></value>\n</member>\n' +
        '<member>\n<name>c</name>\n<value><string>x &lt; y &amp; z</string></value>\n</member>\n</struct></value>\n</param>\n</params>\n\n</methodResponse>\n',
    );
  });

  it('strips the control characters XML cannot carry', () => {
    expect(writeResult('a\u0007b\tc')).toContain('<string>ab\tc</string>');
  });

  it.each([
    [null, 'TypeError', 'cannot marshal None unless allow_none is enabled'],
    [[1, [2 ** 31]], 'OverflowError', 'int exceeds XML-RPC limits'],
  ])('refuses %j as Python does', (value, name, message) => {
    expect(() => writeResult(value as Value)).toThrow(new MarshalError(name, message));
    try {
      writeResult(value);
    } catch (err) {
      expect((err as MarshalError).pythonName).toBe(name);
    }
  });

  it('writes a float as an int under the perturbation switch', () => {
    expect(writeResult(new PyFloat(3.9), 'double-as-int')).toContain('<value><int>3</int></value>');
  });

  it('writes faults with an int or a string code', () => {
    expect(writeFault(3, 'Access Denied')).toContain('<name>faultCode</name>\n<value><int>3</int></value>');
    expect(writeFault('AccessDenied', 'Access Denied')).toContain('<name>faultCode</name>\n<value><string>AccessDenied</string></value>');
  });
});

describe('readMethodCall()', () => {
  const call = (params: string) =>
    `<?xml version='1.0'?>\n<methodCall>\n<methodName>m</methodName>\n<params>\n${params}</params>\n</methodCall>\n`;
  const param = (value: string) => `<param>\n<value>${value}</value>\n</param>\n`;

  it('reads every type a legacy client sends', () => {
    const { methodName, params } = readMethodCall(
      call(
        param('<int>7</int>') +
          param('<i8>9007199254740993</i8>') +
          param('<double>1E3</double>') +
          param('<boolean>0</boolean>') +
          param('<string>a &amp; b</string>') +
          param('untyped') +
          param('<nil/>') +
          param('<base64>QUJD\n</base64>') +
          param('<dateTime.iso8601>20250102T03:04:05</dateTime.iso8601>') +
          param('<array><data><value><int>1</int></value></data></array>') +
          param('<struct><member><name>k</name><value><string>v</string></value></member></struct>'),
      ),
    );
    expect(methodName).toBe('m');
    expect(params).toEqual([
      7,
      9007199254740993n,
      new PyFloat(1000),
      false,
      'a & b',
      'untyped',
      null,
      new PyBinary('QUJD'),
      '2025-01-02 03:04:05',
      [1],
      new Map([['k', 'v']]),
    ]);
  });

  it.each([
    ['', 'xml.parsers.expat.ExpatError', 'no element found: line 1, column 0'],
    [call(param('<string>&#x7;</string>')), 'xml.parsers.expat.ExpatError', 'reference to invalid character number: line 6, column 15'],
    [call(param('<dateTime.iso8601>20000101T00:00:00Z</dateTime.iso8601>')), 'builtins.ValueError', 'unconverted data remains: Z'],
    [call(param('<boolean>2</boolean>')), 'builtins.TypeError', 'bad boolean value'],
  ])('refuses %j', (body, name, message) => {
    expect(() => readMethodCall(body)).toThrow(message);
    try {
      readMethodCall(body);
    } catch (err) {
      expect(err).toBeInstanceOf(XmlRpcReadError);
      expect((err as XmlRpcReadError).pythonName).toBe(name);
    }
  });
});

describe('pythonJson()', () => {
  it("writes json.dumps(ensure_ascii=False)'s text", () => {
    const value = new Map<string, Value>([
      ['n', 1],
      ['f', new PyFloat(2)],
      ['s', 'é"\n'],
      ['l', [null, true, 12345678901234567890n]],
    ]);
    expect(pythonJson(value)).toBe('{"n": 1, "f": 2.0, "s": "é\\"\\n", "l": [null, true, 12345678901234567890]}');
  });
});

describe('the legacy endpoints of a running simulator', () => {
  let off: Simulator;
  let on: Simulator;
  const post = (sim: Simulator, path: string, body: string, type = 'text/xml') =>
    fetch(sim.url + path, { method: 'POST', body, headers: { 'content-type': type } });
  const noParams = (method: string) =>
    `<?xml version='1.0'?>\n<methodCall>\n<methodName>${method}</methodName>\n<params>\n</params>\n</methodCall>\n`;
  const version = noParams('version');

  beforeAll(async () => {
    off = await startSimulator();
    on = await startSimulator({ legacyEndpoints: { removedServices: ['db'] } });
  });
  afterAll(async () => {
    await off.close();
    await on.close();
  });

  it('are absent unless the simulator is started with them', async () => {
    for (const path of ['/xmlrpc/2/common', '/xmlrpc/common', '/jsonrpc']) expect((await post(off, path, version)).status).toBe(404);
  });

  it('answer common.version from the simulated release', async () => {
    const res = await post(on, '/xmlrpc/2/common', version);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<name>server_serie</name>\n<value><string>19.0</string></value>');
  });

  it('answer a password or an API key for object calls, and Access Denied for anything else', async () => {
    const admin = on.users('demo').find((u) => u.login === 'admin');
    const count = (password: string) =>
      post(
        on,
        '/jsonrpc',
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'call',
          id: 1,
          params: { service: 'object', method: 'execute_kw', args: ['demo', admin?.uid, password, 'res.partner', 'search_count', [[]]] },
        }),
        'application/json',
      ).then((r) => r.json());
    expect(await count(admin?.password as string)).toMatchObject({ result: expect.any(Number) });
    expect(await count(admin?.key as string)).toMatchObject({ result: expect.any(Number) });
    expect(await count('wrong')).toMatchObject({ error: { data: { name: 'odoo.exceptions.AccessDenied', message: 'Access Denied' } } });
  });

  it.each([
    ['a falsy database name', 'common', 'login', [null, 'admin', 'admin'], 'builtins.AssertionError', 'Missing database name'],
    [
      'a database name that is an int',
      'object',
      'execute_kw',
      [5, 2, 'admin', 'res.partner', 'search_count', [[]]],
      'builtins.AttributeError',
      "'int' object has no attribute 'startswith'",
    ],
    [
      'a database name that is a list',
      'object',
      'execute_kw',
      [['demo'], 2, 'admin', 'res.partner', 'search_count', [[]]],
      'builtins.TypeError',
      "unhashable type: 'list'",
    ],
    [
      'a model that is no str',
      'object',
      'execute_kw',
      ['demo', 2, '<pw>', null, 'search', [[]]],
      'odoo.exceptions.UserError',
      "Object None doesn't exist",
    ],
    [
      'a method that is no str',
      'object',
      'execute_kw',
      ['demo', 2, '<pw>', 'res.partner', 5, [[]]],
      'builtins.AttributeError',
      "'int' object has no attribute 'startswith'",
    ],
    [
      'a struct as the args of a record-level method',
      'object',
      'execute_kw',
      ['demo', 2, '<pw>', 'res.partner', 'read', { '1': 2 }],
      'builtins.KeyError',
      '0',
    ],
    [
      'None as the args of a record-level method',
      'object',
      'execute_kw',
      ['demo', 2, '<pw>', 'res.partner', 'read', null],
      'builtins.TypeError',
      "'NoneType' object is not subscriptable",
    ],
    [
      'None as the args of a model-level method',
      'object',
      'execute_kw',
      ['demo', 2, '<pw>', 'res.partner', 'search', null],
      'builtins.TypeError',
      'Value after * must be an iterable, not NoneType',
    ],
    [
      'an unknown legacy method before a wrong password',
      'object',
      'execute_foo',
      ['demo', 2, 'wrong', 'res.partner', 'search'],
      'builtins.NameError',
      'Method not available execute_foo',
    ],
    [
      'uid 0',
      'object',
      'execute_kw',
      ['demo', 0, '<pw>', 'res.partner', 'search_count', [[]]],
      'odoo.exceptions.AccessDenied',
      'Access Denied',
    ],
    [
      'a password that is an int, for a login that exists',
      'common',
      'authenticate',
      ['demo', 'admin', 5, {}],
      'builtins.TypeError',
      'secret must be unicode or bytes, not int',
    ],
    [
      'a context that is no dict before the arguments bind',
      'object',
      'execute_kw',
      ['demo', 2, '<pw>', 'res.partner', 'search', [[], 0, 1, 'id', false, 9, 9], { context: 5 }],
      'builtins.TypeError',
      "'int' object is not iterable",
    ],
    [
      'a context that is no dict before an unexpected keyword',
      'object',
      'execute_kw',
      ['demo', 2, '<pw>', 'res.partner', 'search', [[]], { context: 'ctx', bogus: 1 }],
      'builtins.ValueError',
      'dictionary update sequence element #0 has length 1; 2 is required',
    ],
  ])('answer %s as Odoo 19 does', async (_what, service, method, rawArgs, name, message) => {
    const admin = on.users('demo').find((u) => u.login === 'admin');
    const args = (rawArgs as unknown[]).map((a) => (a === '<pw>' ? admin?.password : a));
    const answer = await post(
      on,
      '/jsonrpc',
      JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args } }),
      'application/json',
    ).then((r) => r.json());
    expect(answer).toMatchObject({ error: { data: { name, message } } });
  });

  it("answer keyword names that were no str (a member's value before its name) with TypeError", async () => {
    const admin = on.users('demo').find((u) => u.login === 'admin');
    const param = (inner: string) => `<param><value>${inner}</value></param>`;
    const body =
      '<?xml version="1.0"?><methodCall><methodName>execute_kw</methodName><params>' +
      param('<string>demo</string>') +
      param(`<int>${admin?.uid}</int>`) +
      param(`<string>${admin?.password}</string>`) +
      param('<string>res.partner</string>') +
      param('<string>search</string>') +
      param('<array><data><value><array><data/></array></value></data></array>') +
      param('<struct><member><value><int>1</int></value><name>limit</name></member></struct>') +
      '</params></methodCall>';
    expect(await (await post(on, '/xmlrpc/2/object', body)).text()).toContain('TypeError: keywords must be strings');
  });

  it("answer Werkzeug's 500 page when the answer would carry a lone surrogate, and as usual when it would not", async () => {
    const rpc = (service: string, method: string, args: string) =>
      post(
        on,
        '/jsonrpc',
        `{"jsonrpc":"2.0","method":"call","id":1,"params":{"service":"${service}","method":"${method}","args":${args}}}`,
        'application/json',
      );
    const failed = await rpc('common', 'login', '["\\ud800","admin","admin"]');
    expect([failed.status, await failed.text()]).toEqual([500, expect.stringContaining('<title>500 Internal Server Error</title>')]);
    const fine = await rpc('common', 'about', '["\\ud800"]');
    expect([fine.status, await fine.json()]).toEqual([200, expect.objectContaining({ result: [expect.any(String), '19.0'] })]);
  });

  it.each([
    ['{"jsonrpc":"2.0","params":{', 'Invalid JSON data'],
    ['[1]', 'Invalid JSON-RPC data'],
  ])("answer the body %j with a bare 400 %j, as Odoo's JSON-RPC dispatcher does", async (body, description) => {
    const res = await post(on, '/jsonrpc', body, 'application/json');
    expect([res.status, await res.text()]).toEqual([400, description]);
  });

  it('answer XML sent as a form with the ExpatError of an empty body', async () => {
    const text = await (await post(on, '/xmlrpc/2/common', version, 'application/x-www-form-urlencoded')).text();
    expect(text).toContain('ExpatError: no element found: line 1, column 0');
  });

  it('answer False for a password that is no str when no such login exists', async () => {
    const answer = await post(
      on,
      '/jsonrpc',
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'call',
        id: 1,
        params: { service: 'common', method: 'authenticate', args: ['demo', 'nobody', 5, {}] },
      }),
      'application/json',
    ).then((r) => r.json());
    expect(answer).toMatchObject({ result: false });
  });

  it('answer a removed service as Odoo answers a service it lacks', async () => {
    const text = await (await post(on, '/xmlrpc/2/db', noParams('list'))).text();
    expect(text).toContain("KeyError: 'db'");
    on.legacyEndpoints.removedServices.clear();
    expect(await (await post(on, '/xmlrpc/2/db', noParams('list'))).text()).toContain('<string>demo</string>');
  });
});
