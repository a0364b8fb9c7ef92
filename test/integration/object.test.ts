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
    expect(errorData((await call('execute_kw', 'demo', 2, key)).error).message).toBe('not enough values to unpack (expected at least 5, got 3)');
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

  it('answers an unknown database with psycopg2\'s OperationalError, and a blank one locally', async () => {
    expect(errorData((await call('execute_kw', 'nope', 2, key, 'res.partner', 'search', [[]])).error).message).toContain('database "nope" does not exist');
    stack.sim.clearLog();
    expect(errorData((await call('execute_kw', ' ', 2, key, 'res.partner', 'search', [[]])).error).name).toBe('psycopg2.OperationalError');
    expect(stack.sim.log).toHaveLength(0);
  });
});

describe('binding and bodies', () => {
  it('maps positional arguments to named ones and ids first for record methods', async () => {
    await call('execute_kw', 'demo', 2, key, 'res.partner', 'read', [9, ['name']], { context: { lang: 'en_US' } });
    expect(lastBody()).toEqual(new Map<string, unknown>([['ids', [9]], ['context', new Map([['lang', 'en_US']])], ['fields', ['name']]]));
  });

  it('reproduces Python\'s TypeError with the qualname of the method that runs', async () => {
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
    expect(errorData(clear.error).message).toMatch(/cannot map the positional arguments of res\.partner\.no_such_action\(\).*--signatures-file/);
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
      JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service: 'object', method: 'execute_kw', args: ['demo', 2, key, 'res.partner', 'action_archive', [[1]]] }, id: 7 }),
    );
    expect(res.text).toBe('{"jsonrpc": "2.0", "id": 7}');
  });
});
