/**
 * The object service end to end over /jsonrpc: Odoo's check order, binding, fallbacks, result rules
 * and the upstream body actually sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let key: string;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  key = stack.sim.keyFor('demo', 'admin');
});
afterAll(() => stack.close());
beforeEach(() => stack.sim.clearLog());

const call = (method: string, ...rest: unknown[]) => stack.jsonrpc('object', method, rest);
const lastBody = () => {
  const json2 = stack.sim.log.filter((r) => r.path.startsWith('/json/2/') && !r.path.endsWith('/context_get'));
  return parseJson(json2.at(-1)?.body ?? 'null');
};

describe('check order', () => {
  it('faults on fewer than five params before anything else', async () => {
    expect(errorData((await call('execute_kw', 'demo', 2, key)).error).message).toBe(
      'not enough values to unpack (expected at least 5, got 3)',
    );
  });

  it('applies int() to the uid', async () => {
    expect(errorData((await call('execute_kw', 'demo', 'abc', key, 'res.partner', 'search', [[]])).error).message).toBe(
      "invalid literal for int() with base 10: 'abc'",
    );
    expect((await call('execute_kw', 'demo', ' 2 ', key, 'res.partner.category', 'search_count', [[]])).result).toBeTypeOf('number');
  });

  it('refuses an empty password before looking at the method', async () => {
    expect(errorData((await call('execute_foo', 'demo', 2, '', 'res.partner', 'search')).error).name).toBe('odoo.exceptions.AccessDenied');
  });

  // call_kw: model, get_public_method, `args[0]` as ids, then `with_context(dict(context))`, then the call binds
  it.each([
    [
      'the method lookup before the context',
      'res.partner',
      'no_such_method',
      [[]],
      5,
      'builtins.AttributeError',
      "The method 'res.partner.no_such_method' does not exist",
    ],
    ['the model before the context', 'no.such.model', 'search', [[]], 5, 'odoo.exceptions.UserError', "Object no.such.model doesn't exist"],
    ['the ids before the context', 'res.partner', 'read', [], 'ctx', 'builtins.IndexError', 'list index out of range'],
    [
      'the context before the binding',
      'res.partner',
      'search',
      [[], 0, 1, 'id', false, 9, 9],
      5,
      'builtins.TypeError',
      "'int' object is not iterable",
    ],
    [
      'the context before keyword names',
      'res.partner',
      'search',
      [[]],
      [1],
      'builtins.TypeError',
      'cannot convert dictionary update sequence element #0 to a sequence',
    ],
    ['an unhashable context key', 'res.partner', 'search_count', [[]], [[[1], 2]], 'builtins.TypeError', "unhashable type: 'list'"],
    [
      'a context of one-character pairs',
      'res.partner',
      'search_count',
      [[]],
      'ctx',
      'builtins.ValueError',
      'dictionary update sequence element #0 has length 1; 2 is required',
    ],
  ])('checks %s, as call_kw does', async (_what, model, method, args, context, name, message) => {
    expect(errorData((await call('execute_kw', 'demo', 2, key, model, method, args, { context })).error)).toMatchObject({ name, message });
  });

  it('sends a context of pairs on, which dict() accepts', async () => {
    expect(
      (await call('execute_kw', 'demo', 2, key, 'res.partner.category', 'search_count', [[]], { context: [['lang', 'en_US']] })).result,
    ).toBeTypeOf('number');
  });

  it.each([
    [['admin'], "unhashable type: 'list'"],
    [{ a: 1 }, "unhashable type: 'dict'"],
    [5, 'secret must be unicode or bytes, not int'],
  ])('answers a password %j as _check_uid_passwd does: its ormcache key first, then passlib', async (password, message) => {
    expect(
      errorData((await stack.jsonrpc('object', 'execute_kw', ['demo', 2, password, 'res.partner', 'search', [[]]])).error),
    ).toMatchObject({
      name: 'builtins.TypeError',
      message,
    });
  });

  it('checks the credentials before dict(kw), as Odoo 19.0 does', async () => {
    const answer = await call('execute_kw', 'demo', 2, 'f'.repeat(40), 'res.partner', 'search', [[]], 'x');
    expect(errorData(answer.error).name).toBe('odoo.exceptions.AccessDenied');
  });

  it.each([
    ['too many execute_kw params', ['execute_kw', 'res.partner', 'search', [[]], {}, 1], 'builtins.ValueError'],
    ['an unknown legacy method', ['execute_foo', 'res.partner', 'search'], 'builtins.NameError'],
  ])('answers %s before checking the credentials, as Odoo 19.0 does', async (_what, [method, ...rest], name) => {
    const answer = await call(method as string, 'demo', 2, 'f'.repeat(40), ...(rest as unknown[]));
    expect(errorData(answer.error).name).toBe(name);
  });

  it('names an unknown legacy method with NameError', async () => {
    expect(errorData((await call('execute_foo', 'demo', 2, key, 'res.partner', 'search')).error)).toMatchObject({
      name: 'builtins.NameError',
      message: 'Method not available execute_foo',
    });
  });

  it('answers a wrong password before any argument error', async () => {
    expect(errorData((await call('execute_kw', 'demo', 2, 'f'.repeat(40), 'res.partner', 'search_count', [[], 1, 2, 3])).error).name).toBe(
      'odoo.exceptions.AccessDenied',
    );
  });

  it('answers an unknown model before a binding error', async () => {
    expect(errorData((await call('execute_kw', 'demo', 2, key, 'no.such.model', 'search_count', [[], 1, 2, 3])).error)).toMatchObject({
      name: 'odoo.exceptions.UserError',
      message: "Object no.such.model doesn't exist",
    });
  });

  // a native client's call on an unknown model is one request to Odoo; so is the gateway's
  it.each([
    ['a method every model has, first call (discovery asks /doc-bearer)', 'search', [[]], 'no.model.a'],
    ['a method every model has, later call (the document is cached)', 'search', [[]], 'no.model.a'],
    ['a method with no signature and positional arguments', 'x_custom_action', [[1, 2], 'a'], 'no.model.b'],
    ['the same again', 'x_custom_action', [[1, 2], 'a'], 'no.model.b'],
  ])('costs Odoo one request for an unknown model: %s', async (_what, method, args, model) => {
    stack.sim.clearLog();
    expect(errorData((await call('execute_kw', 'demo', 2, key, model, method, args)).error)).toMatchObject({
      name: 'odoo.exceptions.UserError',
      message: `Object ${model} doesn't exist`,
    });
    expect(stack.sim.log.filter((r) => r.path.includes(model)).map((r) => r.path)).toHaveLength(1);
  });

  it("answers an unknown database with psycopg2's OperationalError, and a blank one locally", async () => {
    expect(errorData((await call('execute_kw', 'nope', 2, key, 'res.partner', 'search', [[]])).error).message).toContain(
      'database "nope" does not exist',
    );
    stack.sim.clearLog();
    expect(errorData((await call('execute_kw', ' ', 2, key, 'res.partner', 'search', [[]])).error).name).toBe('psycopg2.OperationalError');
    expect(stack.sim.log).toHaveLength(0);
  });
});

describe('the database a call names', () => {
  // Each reaches the simulator's header parser as another name (' demo' as 'demo') or not at all.
  it.each([' demo', 'demo ', '\tdemo', 'demo\t', 'demo\r\nX-Injected: 1', 'demo\u0100', 'demo\x7f', 'demo\x01'])(
    'answers %j as a database that does not exist, without calling upstream',
    async (db) => {
      stack.sim.clearLog();
      const error = errorData((await call('execute_kw', db, 2, key, 'res.partner', 'search_count', [[]])).error);
      expect(error).toMatchObject({
        name: 'psycopg2.OperationalError',
        message: `connection to server failed: FATAL:  database "${db}" does not exist\n`,
      });
      expect(errorData((await stack.jsonrpc('common', 'login', [db, 'admin', key])).error).message).toContain(
        `database "${db}" does not exist`,
      );
      expect(stack.sim.log.filter((r) => r.path.startsWith('/json/2/'))).toHaveLength(0);
    },
  );

  it.each([
    [null, 'builtins.AssertionError', 'Missing database name'],
    ['', 'builtins.AssertionError', 'Missing database name'],
    [[], 'builtins.AssertionError', 'Missing database name'],
    [{}, 'builtins.AssertionError', 'Missing database name'],
    [0, 'builtins.AssertionError', 'Missing database name'],
    [5, 'builtins.AttributeError', "'int' object has no attribute 'startswith'"],
    [true, 'builtins.AttributeError', "'bool' object has no attribute 'startswith'"],
    [['demo'], 'builtins.TypeError', "unhashable type: 'list'"],
    [{ a: 1 }, 'builtins.TypeError', "unhashable type: 'dict'"],
  ])("answers the database name %j with Odoo's %s", async (db, name, message) => {
    expect(errorData((await call('execute_kw', db, 2, key, 'res.partner', 'search_count', [[]])).error)).toMatchObject({ name, message });
    expect(errorData((await stack.jsonrpc('common', 'authenticate', [db, 'admin', key, {}])).error)).toMatchObject({ name, message });
  });
});

describe('arguments Odoo reads in its own way', () => {
  const sentTo = (path: string) => stack.sim.log.filter((r) => r.path === path);

  it.each([
    ['a struct as the args of a record-level method', 'read', { '1': 2 }, 'builtins.KeyError', '0'],
    ['an empty struct as the args of a record-level method', 'read', {}, 'builtins.KeyError', '0'],
    ['None as the args of a record-level method', 'read', null, 'builtins.TypeError', "'NoneType' object is not subscriptable"],
    ['an empty string as the args of a record-level method', 'read', '', 'builtins.IndexError', 'string index out of range'],
    ['None as the args of a model-level method', 'search', null, 'builtins.TypeError', 'Value after * must be an iterable, not NoneType'],
    ['an int as the args of a model-level method', 'search', 5, 'builtins.TypeError', 'Value after * must be an iterable, not int'],
  ])('answers %s as Python 3.12 does', async (_what, method, args, name, message) => {
    expect(errorData((await call('execute_kw', 'demo', 2, key, 'res.partner', method, args)).error)).toMatchObject({ name, message });
    expect(sentTo(`/json/2/res.partner/${method}`)).toHaveLength(0);
  });

  it('gives the KeyError of a struct as args the int 0 as its argument, as KeyError(0) has', async () => {
    const error = (await call('execute_kw', 'demo', 2, key, 'res.partner', 'read', { '1': 2 })).error;
    expect((error?.get('data') as Map<string, unknown>).get('arguments')).toEqual([0]);
  });

  it.each([
    ['', 'search', 'odoo.exceptions.UserError', "Object  doesn't exist"],
    ['res/partner', 'search', 'odoo.exceptions.UserError', "Object res/partner doesn't exist"],
    [null, 'search', 'odoo.exceptions.UserError', "Object None doesn't exist"],
    [true, 'search', 'odoo.exceptions.UserError', "Object True doesn't exist"],
    [['a'], 'search', 'builtins.TypeError', "unhashable type: 'list'"],
    ['res.partner', '', 'builtins.AttributeError', "The method 'res.partner.' does not exist"],
    ['res.partner', 'a/b', 'builtins.AttributeError', "The method 'res.partner.a/b' does not exist"],
    ['res.partner', null, 'builtins.AttributeError', "'NoneType' object has no attribute 'startswith'"],
    ['res.partner', 5, 'builtins.AttributeError', "'int' object has no attribute 'startswith'"],
    ['no.such.model', null, 'odoo.exceptions.UserError', "Object no.such.model doesn't exist"],
  ])("answers model %j, method %j with Odoo's %s", async (model, method, name, message) => {
    expect(errorData((await call('execute_kw', 'demo', 2, key, model, method, [[]])).error)).toMatchObject({ name, message });
    expect(
      stack.sim.log.filter(
        (r) => r.path.startsWith('/json/2/') && !r.path.endsWith('/_legacy_rpc_gateway_probe') && !r.path.endsWith('/context_get'),
      ),
    ).toHaveLength(0);
  });

  it.each([
    ['read', [[true], ['name']]],
    ['write', [[true], { comment: 'x' }]],
    ['unlink', [[true]]],
  ])(
    "refuses True as the only id of %s with the SQL error Odoo's legacy call raises, before JSON-2 reads from its cache",
    async (method, args) => {
      const error = errorData((await call('execute_kw', 'demo', 2, key, 'res.partner', method, args)).error);
      expect(error.name).toBe('psycopg2.errors.UndefinedFunction');
      expect(error.message.trimEnd().split('\n').at(-1)).toBe(
        'HINT:  No operator matches the given name and argument types. You might need to add explicit type casts.',
      );
      expect(sentTo(`/json/2/res.partner/${method}`)).toHaveLength(0);
    },
  );

  it.each(['xmlrpc/2', 'xmlrpc'])(
    "answers keyword names that were no str in the client's struct (value before name) with TypeError over /%s",
    async (path) => {
      const member = '<member><value><int>1</int></value><name>limit</name></member>';
      const param = (inner: string) => `<param><value>${inner}</value></param>`;
      const body =
        '<?xml version="1.0"?><methodCall><methodName>execute_kw</methodName><params>' +
        param('<string>demo</string>') +
        param('<int>2</int>') +
        param(`<string>${key}</string>`) +
        param('<string>res.partner</string>') +
        param('<string>search</string>') +
        param('<array><data><value><array><data/></array></value></data></array>') +
        param(`<struct>${member}</struct>`) +
        '</params></methodCall>';
      const answer = await stack.post(`/${path}/object`, body, 'text/xml');
      expect(answer.text).toContain('TypeError: keywords must be strings');
      expect(sentTo('/json/2/res.partner/search')).toHaveLength(0);
    },
  );

  it("sends an XML-RPC dateTime upstream as Odoo's datetime text (a str, not a datetime)", async () => {
    const param = (inner: string) => `<param><value>${inner}</value></param>`;
    const body =
      '<?xml version="1.0"?><methodCall><methodName>execute_kw</methodName><params>' +
      param('<string>demo</string>') +
      param('<int>2</int>') +
      param(`<string>${key}</string>`) +
      param('<string>res.partner</string>') +
      param('<string>search</string>') +
      param(
        '<array><data><value><array><data><value><array><data><value><string>create_date</string></value><value><string>&lt;</string></value>' +
          '<value><dateTime.iso8601>20200102T03:04:05</dateTime.iso8601></value></data></array></value></data></array></value></data></array>',
      ) +
      '</params></methodCall>';
    await stack.post('/xmlrpc/2/object', body, 'text/xml');
    expect(lastBody()).toEqual(new Map([['domain', [['create_date', '<', '2020-01-02 03:04:05']]]]));
  });

  it('sends True with an id 1 beside it, as Odoo reads both as record 1', async () => {
    await call('execute_kw', 'demo', 2, key, 'res.partner', 'read', [[1, true], ['name']]);
    expect(sentTo('/json/2/res.partner/read')).toHaveLength(1);
  });

  it.each([
    ['child_of', true],
    ['parent_of', [true, 2]],
  ])(
    'sends a %s domain whose value holds True to JSON-2 as it is: which records the hierarchy reads is not known before',
    async (operator, value) => {
      await call('execute_kw', 'demo', 2, key, 'res.partner', 'search_count', [[['id', operator, value]]]);
      expect(sentTo('/json/2/res.partner/search_count')).toHaveLength(1);
      expect(lastBody()).toEqual(new Map([['domain', [['id', operator, value]]]]));
    },
  );
});

describe('binding and bodies', () => {
  it('maps positional arguments to named ones and ids first for record methods', async () => {
    await call('execute_kw', 'demo', 2, key, 'res.partner', 'read', [9, ['name']], { context: { lang: 'en_US' } });
    expect(lastBody()).toEqual(
      new Map<string, unknown>([
        ['ids', [9]],
        ['context', new Map([['lang', 'en_US']])],
        ['fields', ['name']],
      ]),
    );
  });

  it("reproduces Python's TypeError with the qualname of the method that runs", async () => {
    expect(errorData((await call('execute_kw', 'demo', 2, key, 'res.partner', 'search_count', [[], 1, 2, 3])).error).message).toBe(
      'BaseModel.search_count() takes from 2 to 3 positional arguments but 5 were given',
    );
    expect(errorData((await call('execute_kw', 'demo', 2, key, 'res.partner', 'name_create', [])).error).message).toBe(
      "ResPartner.name_create() missing 1 required positional argument: 'name'",
    );
  });

  it('answers IndexError for a record method without ids', async () => {
    expect(errorData((await call('execute', 'demo', 2, key, 'res.partner', 'read')).error).message).toBe('list index out of range');
  });

  it('keeps removed-in-19 behaviours: name_get does not exist, search(count=True) is a TypeError', async () => {
    expect(errorData((await call('execute_kw', 'demo', 2, key, 'res.partner', 'name_get', [[1]])).error)).toMatchObject({
      name: 'builtins.AttributeError',
      message: "The method 'res.partner.name_get' does not exist",
    });
    expect(errorData((await call('execute_kw', 'demo', 2, key, 'res.partner', 'search', [[]], { count: true })).error).message).toBe(
      "BaseModel.search() got an unexpected keyword argument 'count'",
    );
  });

  it('refuses private methods with AccessError (fault 4)', async () => {
    expect(errorData((await call('execute_kw', 'demo', 2, key, 'res.partner', '_read', [[1]])).error)).toMatchObject({
      name: 'odoo.exceptions.AccessError',
      message: "Private methods (such as 'res.partner._read') cannot be called remotely.",
    });
  });

  it('falls back for methods it has no signature for: ids only, else a clear fault', async () => {
    const r = await call('execute_kw', 'demo', 2, key, 'res.partner', 'no_such_action', [[1]]);
    expect(errorData(r.error).message).toBe("The method 'res.partner.no_such_action' does not exist");
    expect(lastBody()).toEqual(new Map([['ids', [1]]]));
    const clear = await call('execute_kw', 'demo', 2, key, 'res.partner', 'no_such_action', [[1], 'x']);
    expect(errorData(clear.error).message).toBe("The method 'res.partner.no_such_action' does not exist");
  });
});

describe('results', () => {
  it('returns an int from create with one dict, a list otherwise', async () => {
    const one = await call('execute_kw', 'demo', 2, key, 'res.partner.category', 'create', [{ name: 'Gateway one' }]);
    expect(one.result).toBeTypeOf('number');
    const many = await call('execute_kw', 'demo', 2, key, 'res.partner.category', 'create', [[{ name: 'Gateway two' }]]);
    expect(Array.isArray(many.result)).toBe(true);
  });

  it('omits the result of a None-returning method on JSON-RPC', async () => {
    const res = await stack.post(
      '/jsonrpc',
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'call',
        params: { service: 'object', method: 'execute_kw', args: ['demo', 2, key, 'res.partner', 'action_archive', [[1]]] },
        id: 7,
      }),
    );
    expect(res.text).toBe('{"jsonrpc": "2.0", "id": 7}');
  });
});

// a classmethod: call_kw passes the browsed args[0] as its first parameter (`cls` counts in the
// texts, Odoo 19.0's own), so Python refuses these before JSON-2 is asked
describe('classmethods (src/signatures/unbound-methods.ts)', () => {
  it.each([
    [[[]], {}, 'BaseModel.is_transient() takes 1 positional argument but 2 were given'],
    [[[1], 2], {}, 'BaseModel.is_transient() takes 1 positional argument but 3 were given'],
    [[[]], { cls: 'x' }, "BaseModel.is_transient() got multiple values for argument 'cls'"],
  ])('res.partner.is_transient(*%j, **%j)', async (args, kwargs, text) => {
    const answer = await call('execute_kw', 'demo', 2, key, 'res.partner', 'is_transient', args, kwargs);
    expect(errorData(answer.error)).toMatchObject({ name: 'builtins.TypeError', message: text });
    expect(stack.sim.log.filter((r) => r.path.endsWith('/is_transient'))).toEqual([]);
  });
});
