/**
 * `/jsonrpc` with `params.args` null or a scalar (a gap pinned under #9). Odoo's
 * `dispatch_rpc` hands `args` to each service's `dispatch`, which unpacks it with `*params`,
 * `db, uid, … = params` or `params[0]`: each raises its own TypeError. The expected answers are
 * what a real Odoo 19.0 (CPython 3.11) answered to these same bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import type { Value } from '../../src/value.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
});
afterAll(() => stack.close());

/** Sends `args` verbatim (a JSON text) and returns the error's name and message. */
async function errorFor(
  service: string,
  method: string,
  args: string,
): Promise<{ status: number; name: Value; message: Value; code: Value }> {
  const body = `{"jsonrpc":"2.0","method":"call","params":{"service":"${service}","method":"${method}","args":${args}},"id":7}`;
  const res = await stack.post('/jsonrpc', body);
  const envelope = parseJson(res.text, { maxDepth: 64 }) as Map<string, Value>;
  expect(envelope.get('id')).toBe(7);
  const error = envelope.get('error') as Map<string, Value> | undefined;
  expect(error, `a result where Odoo raises: ${res.text}`).toBeDefined();
  const data = error?.get('data') as Map<string, Value>;
  return { status: res.status, code: error?.get('code') ?? null, name: data.get('name') ?? null, message: data.get('message') ?? null };
}

const scalars: Array<[string, string]> = [
  ['null', 'NoneType'],
  ['5', 'int'],
  ['true', 'bool'],
  ['1.5', 'float'],
];

describe('/jsonrpc with args that are not iterable', () => {
  it.each(scalars)('common: exp_<method>(*%s) is a TypeError naming the function', async (args, type) => {
    for (const method of ['version', 'login', 'authenticate', 'about']) {
      expect(await errorFor('common', method, args)).toEqual({
        status: 200,
        code: 0,
        name: 'builtins.TypeError',
        message: `odoo.service.common.exp_${method}() argument after * must be an iterable, not ${type}`,
      });
    }
  });

  it.each(scalars)('object: unpacking %s is a TypeError, whatever the method', async (args, type) => {
    for (const method of ['execute_kw', 'execute', 'nope']) {
      expect(await errorFor('object', method, args)).toMatchObject({
        name: 'builtins.TypeError',
        message: `cannot unpack non-iterable ${type} object`,
      });
    }
  });

  it.each(scalars)('db: exp_<method>(*%s) for the open functions, params[0] behind the master password', async (args, type) => {
    for (const method of ['list', 'db_exist', 'list_lang', 'server_version']) {
      expect(await errorFor('db', method, args)).toMatchObject({
        name: 'builtins.TypeError',
        message: `odoo.service.db.exp_${method}() argument after * must be an iterable, not ${type}`,
      });
    }
    for (const method of ['dump', 'create_database', 'drop']) {
      expect(await errorFor('db', method, args)).toMatchObject({
        name: 'builtins.TypeError',
        message: `'${type}' object is not subscriptable`,
      });
    }
  });

  it('looks the method up first: an unknown method wins over the args', async () => {
    expect(await errorFor('common', 'nope', 'null')).toMatchObject({ name: 'builtins.Exception', message: 'Method not found: nope' });
    expect(await errorFor('db', 'nope', '5')).toMatchObject({ name: 'builtins.KeyError', message: 'Method not found: nope' });
    expect(await errorFor('nope', 'version', 'null')).toMatchObject({ name: 'builtins.KeyError', message: 'nope' });
  });

  it('still iterates a string (its characters) and an object (its keys)', async () => {
    expect(await errorFor('common', 'version', '"ab"')).toMatchObject({
      name: 'builtins.TypeError',
      message: 'exp_version() takes 0 positional arguments but 2 were given',
    });
    expect(await errorFor('object', 'execute_kw', '"ab"')).toMatchObject({
      name: 'builtins.ValueError',
      message: 'not enough values to unpack (expected at least 5, got 2)',
    });
    expect(await errorFor('common', 'login', '{"a": 1}')).toMatchObject({
      name: 'builtins.TypeError',
      message: "exp_login() missing 2 required positional arguments: 'login' and 'password'",
    });
  });

  it('reaches nothing upstream for such a call', async () => {
    stack.sim.clearLog();
    await errorFor('object', 'execute_kw', 'null');
    await errorFor('db', 'dump', 'null');
    expect(stack.sim.log).toEqual([]);
  });
});
