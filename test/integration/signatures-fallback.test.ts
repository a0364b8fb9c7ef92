/**
 * Methods no source has a signature for (no service key, no signatures file, and a caller outside
 * the Technical Documentation group, so /doc-bearer refuses its key; docs/architecture.md §4 fallback): keywords
 * only, or ids-like first argument only; anything else gets a fault naming the overrides setting.
 * Each path is checked on the JSON-2 body the simulator received.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import type { Value } from '../../src/value.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';
import { xmlrpcCall } from '../support/xmlrpc-call.ts';

let stack: Stack;
let key: string;

beforeAll(async () => {
  stack = await startStack();
  key = stack.sim.keyFor('demo', 'demo'); // demo is not in the Technical Documentation group
});
afterAll(() => stack.close());
beforeEach(() => stack.sim.clearLog());

const call = (method: string, args: unknown[], kw: Record<string, unknown> = {}) =>
  stack.jsonrpc('object', 'execute_kw', ['demo', 5, key, 'res.partner', method, args, kw]);
const sentBody = (method: string) => {
  const sent = stack.sim.log.filter((r) => r.path === `/json/2/res.partner/${method}`);
  return sent.length === 0 ? undefined : parseJson(sent.at(-1)!.body);
};
const unmappable = (method: string) =>
  `legacy-rpc-gateway cannot map the positional arguments of res.partner.${method}() to JSON-2 parameter names: its signature ` +
  'is unknown. Pass them as keyword arguments (execute_kw kwargs) or declare the signature in the signatures file (--signatures-file).';

describe('fallback for a method without a signature', () => {
  it.each([
    ['a list of ids', [[3, 10]], [3, 10]],
    ['a single id', [3], [3]],
    ['an empty list', [[]], []],
  ])('treats %s as the ids of a record-level call', async (_what, args, ids) => {
    const { result } = await call('action_gateway_demo', args, { note: 'kw' });
    expect(sentBody('action_gateway_demo')).toEqual(
      new Map<string, Value>([
        ['ids', ids],
        ['note', 'kw'],
      ]),
    );
    expect(result).toEqual(
      new Map<string, Value>([
        ['ids', ids],
        ['note', 'kw'],
        ['flag', false],
      ]),
    );
  });

  it('sends keywords only, without ids, when no positional argument is given', async () => {
    expect((await call('gateway_demo_echo', [], { text: 'ab', times: 2 })).result).toBe('abab');
    expect(sentBody('gateway_demo_echo')).toEqual(
      new Map<string, Value>([
        ['text', 'ab'],
        ['times', 2],
      ]),
    );
  });

  it('runs a record-level method on no records when called without ids (Odoo: IndexError)', async () => {
    expect((await call('action_gateway_demo', [], { note: 'x' })).result).toEqual(
      new Map<string, Value>([
        ['ids', []],
        ['note', 'x'],
        ['flag', false],
      ]),
    );
  });

  it.each([
    ['an argument after the ids', 'action_gateway_demo', [[3], 'note']],
    ['a first argument that is not ids', 'gateway_demo_echo', ['ab']],
    ['a list that is not only ints', 'action_gateway_demo', [[3, 'x']]],
  ])('refuses %s with a fault naming --signatures-file, having only asked whether the method exists', async (_what, method, args) => {
    expect(errorData((await call(method, args)).error)).toMatchObject({ name: 'builtins.TypeError', message: unmappable(method) });
    // `ids: true` fails in browse() (or as ids of an @api.model method) after the method lookup: nothing runs
    expect(sentBody(method)).toEqual(new Map<string, Value>([['ids', true]]));
  });

  it.each([
    ['a method Odoo 19 removed', 'user_has_groups', ['base.group_user']],
    ['a method that never existed', 'no_such_method', [[3], 'note']],
  ])("answers %s with Odoo's AttributeError instead of naming --signatures-file", async (_what, method, args) => {
    expect(errorData((await call(method, args)).error)).toMatchObject({
      name: 'builtins.AttributeError',
      message: `The method 'res.partner.${method}' does not exist`,
    });
  });

  it('answers the same fault when the ids-like argument reaches a model-level method (JSON-2 422)', async () => {
    expect(errorData((await call('gateway_demo_echo', [5])).error).message).toBe(unmappable('gateway_demo_echo'));
    expect(sentBody('gateway_demo_echo')).toEqual(new Map<string, Value>([['ids', [5]]]));
  });

  it("passes the upstream's binding error on, named after the method", async () => {
    expect(errorData((await call('action_gateway_demo', [[3]])).error).message).toBe(
      "action_gateway_demo() missing 1 required positional argument: 'note'",
    );
  });

  it.each(['xmlrpc1', 'xmlrpc2'] as const)('answers the fault through %s (v2: code 1; v1: the message as code)', async (dialect) => {
    const answer = await xmlrpcCall(stack, dialect, 'object', 'execute', [
      'demo',
      5,
      key,
      'res.partner',
      'action_gateway_demo',
      [3],
      'note',
    ]);
    if (!('fault' in answer)) throw new Error('expected a fault');
    expect(answer.fault.faultString.endsWith(`TypeError: ${unmappable('action_gateway_demo')}\n`)).toBe(true);
    expect(answer.fault.faultCode).toBe(dialect === 'xmlrpc2' ? 1 : unmappable('action_gateway_demo'));
  });
});
