/**
 * XML-RPC paths with a trailing slash, as a real Odoo 19.0 answers them:
 * `/xmlrpc/2/common/` and `/xmlrpc/common/` are those services; `/xmlrpc/2/` is the v1 route with
 * service '2' (KeyError: '2', faultCode '2'); GET stays 405.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTaggedResponse, taggedToValue } from '../../src/cutover/compare/xmlrpc-tagged.ts';
import type { Value } from '../../src/value.ts';
import { encodeRequest } from '../fixtures-xml/xmlrpc-request.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

async function call(path: string): Promise<{ result?: Value; faultCode?: Value; last?: string }> {
  const res = await stack.post(path, encodeRequest('version', []).toString('utf8'), 'text/xml');
  expect(res.status).toBe(200);
  const answer = parseTaggedResponse(res.text);
  if (answer.kind === 'params') return { result: taggedToValue(answer.params[0]!) };
  const fault = taggedToValue(answer.fault) as Map<string, Value>;
  return { faultCode: fault.get('faultCode') as Value, last: String(fault.get('faultString')).trimEnd().split('\n').at(-1) };
}

describe('XML-RPC paths with a trailing slash', () => {
  it.each(['/xmlrpc/2/common/', '/xmlrpc/common/', '/xmlrpc/2/common//'])('%s answers as the path without it', async (path) => {
    const answer = await call(path);
    expect((answer.result as Map<string, Value>).get('server_version')).toBe('19.0');
  });

  it("/xmlrpc/2/ is the v1 route with service '2', as /xmlrpc/2 is", async () => {
    expect(await call('/xmlrpc/2/')).toEqual(await call('/xmlrpc/2'));
    expect(await call('/xmlrpc/2/')).toEqual({ faultCode: '2', last: "KeyError: '2'" });
  });

  it('GET on /xmlrpc/2/common/ is 405, as on /xmlrpc/2/common', async () => {
    const res = await fetch(`${stack.gateway.url}/xmlrpc/2/common/`);
    expect(res.status).toBe(405);
  });
});
