/**
 * The OCA module rpc_helper behind the gateway (docs/security.md "RPC policy modules"): where the
 * upstream has it installed, a call it refuses natively is refused with the same fault in every
 * dialect and never reaches /json/2; where it is not, calls run as before, the policy read once
 * per `policyTtlMs` per database.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { policyTtlMs } from '../../src/legacy/rpc-policy.ts';
import type { Value } from '../../src/value.ts';
import { parseTaggedResponse, taggedToValue } from '../../src/cutover/compare/xmlrpc-tagged.ts';
import { parseJson, stringifyJson } from '../../src/json/index.ts';
import { encodeRequest } from '../fixtures-xml/xmlrpc-request.ts';
import { createTestClock } from '../support/clock.ts';
import { errorData, startStack, toValue, type Stack } from '../support/stack.ts';
import { xmlrpcCall } from '../support/xmlrpc-call.ts';

const clock = createTestClock('2026-03-01T10:00:00Z');
let stack: Stack;
let key: string;

beforeAll(async () => {
  stack = await startStack({
    databases: ['demo'],
    // the simulator's own legacy endpoints stand for Odoo's native answer
    sim: { legacyEndpoints: true },
    gateway: { now: clock.now },
    flags: (sim) => ['--service-key', sim.keyFor('demo', 'admin')],
  });
  key = stack.sim.keyFor('demo', 'demo');
});
afterAll(() => stack.close());
beforeEach(() => {
  // each test starts with a policy read anew
  clock.advance(policyTtlMs);
  stack.sim.clearLog();
});

const create = (name: string): Value[] => ['demo', 5, key, 'res.partner', 'create', [toValue({ name })]];
const search = (): Value[] => ['demo', 5, key, 'res.partner', 'search_count', [[]]];
// the caller's language is asked once per key (legacy-lang.ts), whatever the call
const json2Paths = () => stack.sim.log.map((r) => r.path).filter((p) => p.startsWith('/json/2/') && p !== '/json/2/res.users/context_get');
const refusedText = 'RPC call on res.partner is not allowed';

/** The simulator's native `/xmlrpc/...` fault for the same call. */
async function nativeXmlrpc(path: string, params: Value[]): Promise<{ faultCode: Value; faultString: string }> {
  const res = await fetch(stack.sim.url + path, {
    method: 'POST',
    body: encodeRequest('execute_kw', params),
    headers: { 'content-type': 'text/xml' },
  });
  const answer = parseTaggedResponse(await res.text());
  if (answer.kind === 'params') throw new Error('native call did not fault');
  const fault = taggedToValue(answer.fault) as Map<string, Value>;
  return { faultCode: fault.get('faultCode') as Value, faultString: String(fault.get('faultString')) };
}

/** The simulator's native `/jsonrpc` error data for the same call. */
async function nativeJsonrpc(params: Value[]): Promise<Map<string, Value>> {
  const body = stringifyJson(
    toValue({ jsonrpc: '2.0', method: 'call', params: { service: 'object', method: 'execute_kw', args: params }, id: 1 }),
  );
  const res = await fetch(`${stack.sim.url}/jsonrpc`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  const envelope = parseJson(await res.text()) as Map<string, Value>;
  return (envelope.get('error') as Map<string, Value>).get('data') as Map<string, Value>;
}

describe('rpc_helper not installed', () => {
  it('runs calls as before, reading the policy once per TTL', async () => {
    const first = await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', create('Not refused'));
    expect(first).toMatchObject({ result: expect.any(Number) });
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', search())).toMatchObject({ result: expect.any(Number) });
    // one look at ir.module.module (the simulator has none: nothing installed), then the two calls
    expect(json2Paths()).toEqual([
      '/json/2/ir.module.module/search_read',
      '/json/2/res.partner/create',
      '/json/2/res.partner/search_count',
    ]);
  });
});

describe('rpc_helper installed', () => {
  beforeAll(() => {
    stack.sim.control.setModuleState('demo', 'rpc_helper', 'installed');
    stack.sim.control.setRpcConfig('demo', 'res.partner', JSON.stringify({ disable: ['create'] }, null, 4));
  });

  it("refuses a disabled method with Odoo's UserError on /xmlrpc/2 and /xmlrpc, as the native endpoints do, sending nothing to /json/2", async () => {
    const countBefore = (await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', search())) as { result: Value };
    stack.sim.clearLog();
    for (const [dialect, path] of [
      ['xmlrpc2', '/xmlrpc/2/object'],
      ['xmlrpc1', '/xmlrpc/object'],
    ] as const) {
      const answer = await xmlrpcCall(stack, dialect, 'object', 'execute_kw', create('Refused'));
      expect(answer).toEqual({ fault: await nativeXmlrpc(path, create('Refused')) });
    }
    // UserError: fault 2 with its text on /xmlrpc/2; on /xmlrpc the text is in the string faultCode
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', create('Refused'))).toEqual({
      fault: { faultCode: 2, faultString: refusedText },
    });
    expect(await xmlrpcCall(stack, 'xmlrpc1', 'object', 'execute_kw', create('Refused'))).toEqual({
      fault: { faultCode: `warning -- UserError\n\n${refusedText}`, faultString: '' },
    });
    expect(json2Paths().filter((p) => p.startsWith('/json/2/res.partner/'))).toEqual([]);
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', search())).toEqual(countBefore);
  });

  it('refuses it on /jsonrpc with the native error data', async () => {
    const answer = await stack.jsonrpc('object', 'execute_kw', create('Refused'));
    const native = await nativeJsonrpc(create('Refused'));
    expect(errorData(answer.error)).toMatchObject({ name: 'odoo.exceptions.UserError', message: refusedText });
    expect(errorData(answer.error)).toMatchObject({ name: native.get('name'), message: native.get('message') });
    expect(json2Paths().filter((p) => p.startsWith('/json/2/res.partner/'))).toEqual([]);
  });

  it('lets the methods it does not disable run, and other models', async () => {
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', search())).toMatchObject({ result: expect.any(Number) });
    const category = ['demo', 5, key, 'res.partner.category', 'search_count', [[]]];
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', category)).toMatchObject({ result: expect.any(Number) });
  });

  it('checks the password first, as execute_cr runs after _check_uid_passwd', async () => {
    const answer = await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', [
      'demo',
      5,
      'wrong',
      'res.partner',
      'create',
      [toValue({ name: 'x' })],
    ]);
    expect(answer).toMatchObject({ fault: { faultCode: 3, faultString: 'Access Denied' } });
  });

  it('refuses every method under "all", and a private one before its AccessError', async () => {
    stack.sim.control.setRpcConfig('demo', 'res.partner', JSON.stringify({ disable: ['all'] }));
    clock.advance(policyTtlMs);
    for (const method of ['search_count', '_private_thing']) {
      const params = ['demo', 5, key, 'res.partner', method, [[]]];
      const answer = await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', params);
      expect(answer).toEqual({ fault: await nativeXmlrpc('/xmlrpc/2/object', params) });
      expect(answer).toMatchObject({ fault: { faultString: refusedText } });
    }
  });

  it('applies a change made in Odoo once the policy is older than its TTL', async () => {
    stack.sim.control.setRpcConfig('demo', 'res.partner', JSON.stringify({ disable: ['create'] }));
    clock.advance(policyTtlMs);
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', create('Refused'))).toMatchObject({ fault: { faultCode: 2 } });
    stack.sim.control.setRpcConfig('demo', 'res.partner', false);
    // within the TTL the policy read stays the one used
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', create('Refused'))).toMatchObject({ fault: { faultCode: 2 } });
    clock.advance(policyTtlMs);
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', create('Allowed now'))).toMatchObject({ result: expect.any(Number) });
  });

  it('stops refusing once the module is uninstalled', async () => {
    stack.sim.control.setRpcConfig('demo', 'res.partner', JSON.stringify({ disable: ['all'] }));
    stack.sim.control.setModuleState('demo', 'rpc_helper', 'uninstalled');
    clock.advance(policyTtlMs);
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', search())).toMatchObject({ result: expect.any(Number) });
    expect(json2Paths()).toEqual(['/json/2/ir.module.module/search_read', '/json/2/res.partner/search_count']);
    stack.sim.control.setModuleState('demo', 'rpc_helper', 'installed');
  });
});
