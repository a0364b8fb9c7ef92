/**
 * A constraint the simulator enforces reaches legacy clients as Odoo's own fault:
 * a contact without a name, through each legacy dialect, answered as a real Odoo 19.0 answers the
 * same call (recorded from its /xmlrpc/2, /xmlrpc and /jsonrpc endpoints, in English).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { struct } from '../../src/value.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';
import { xmlrpcCall } from '../support/xmlrpc-call.ts';

let stack: Stack;
let key: string;
beforeAll(async () => {
  stack = await startStack();
  key = stack.sim.keyFor('demo', 'admin');
});
afterAll(() => stack?.close());

const message = 'The operation cannot be completed: Contacts require a name';

describe('a partner without a name', () => {
  it('is fault 2 with the ValidationError text on /xmlrpc/2', async () => {
    expect(
      await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', ['demo', 2, key, 'res.partner', 'create', [struct({ name: false })]]),
    ).toEqual({
      fault: { faultCode: 2, faultString: message },
    });
    expect(
      await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', ['demo', 2, key, 'res.partner', 'write', [[9], struct({ name: false })]]),
    ).toEqual({
      fault: { faultCode: 2, faultString: message },
    });
  });

  it("is Odoo's `warning -- UserError` fault on /xmlrpc", async () => {
    expect(
      await xmlrpcCall(stack, 'xmlrpc1', 'object', 'execute_kw', [
        'demo',
        2,
        key,
        'res.partner',
        'create',
        [struct({ email: 'x@example.com' })],
      ]),
    ).toEqual({
      fault: { faultCode: `warning -- UserError\n\n${message}`, faultString: '' },
    });
  });

  it('is a ValidationError on /jsonrpc', async () => {
    const { error } = await stack.jsonrpc('object', 'execute_kw', ['demo', 2, key, 'res.partner', 'create', [{ name: false }]]);
    expect(error?.get('message')).toBe('Odoo Server Error');
    expect(errorData(error)).toMatchObject({ name: 'odoo.exceptions.ValidationError', message });
    expect((error?.get('data') as Map<string, unknown>).get('arguments')).toEqual([message]);
  });

  it('creates nothing', async () => {
    const count = async () =>
      (await stack.jsonrpc('object', 'execute_kw', ['demo', 2, key, 'res.partner', 'search_count', [[['email', '=', 'x@example.com']]]]))
        .result;
    expect(await count()).toBe(0);
  });
});
