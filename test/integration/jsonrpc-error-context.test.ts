/**
 * JSON-RPC's `data.context` is the exception's own `context` (`serialize_exception`): an AccessError
 * a multi-company record rule raises carries `suggested_company`, and JSON-2's 403 body shows it, so
 * the legacy envelope must too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/json/index.ts';
import type { RunningGateway } from '../../src/server/gateway.ts';
import { struct, type Value } from '../../src/value.ts';
import { answeringKey, startAnsweringGateway, type UpstreamAnswer } from '../support/answering-upstream.ts';
import { jsonrpcAt } from '../support/stack.ts';

let gateway: RunningGateway;
let close: () => Promise<void>;
let answer: UpstreamAnswer = { status: 200, body: '[]' };

beforeAll(async () => {
  ({ gateway, close } = await startAnsweringGateway(() => answer));
});

afterAll(() => close());

/** JSON-2's error body as Odoo's `serialize_exception` writes it. */
function errorBody(name: string, message: string, context: Value): string {
  return stringifyJson(
    struct({ name, message, arguments: [message], context, debug: `Traceback (most recent call last):\n${name}: ${message}\n` }),
    { python: true },
  );
}

const readCompany = () => jsonrpcAt(gateway.url, 'object', 'execute_kw', ['demo', 2, answeringKey, 'res.company', 'read', [[3], ['name']]]);

describe('JSON-RPC data.context', () => {
  it("is the AccessError's context from JSON-2's 403 body", async () => {
    const context = struct({ suggested_company: struct({ id: 3, display_name: 'My Company (Chicago)' }) });
    answer = {
      status: 403,
      body: errorBody('odoo.exceptions.AccessError', 'Due to security restrictions, you are not allowed to access this record.', context),
    };
    const data = (await readCompany()).error?.get('data') as Map<string, Value>;
    expect(data.get('name')).toBe('odoo.exceptions.AccessError');
    expect(stringifyJson(data.get('context') as Value)).toBe(stringifyJson(context));
    expect([...data.keys()]).toEqual(['name', 'message', 'arguments', 'context', 'debug']);
  });

  it('is {} where the exception has none', async () => {
    answer = { status: 422, body: errorBody('builtins.ValueError', 'Invalid field', struct({})) };
    const data = (await readCompany()).error?.get('data') as Map<string, Value>;
    expect(data.get('context')).toEqual(new Map());
    expect(data.get('name')).toBe('builtins.ValueError');
  });
});

describe('an answer Odoo could not encode', () => {
  const page =
    '<!doctype html>\n<html lang=en>\n<title>500 Internal Server Error</title>\n<h1>Internal Server Error</h1>\n' +
    '<p>The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application.</p>\n';

  it("is werkzeug's 500 page on /jsonrpc, as Odoo's own json_default fails there too (bytes that are no UTF-8)", async () => {
    answer = { status: 500, body: page, contentType: 'text/html; charset=utf-8' };
    const body = stringifyJson(
      struct({
        jsonrpc: '2.0',
        method: 'call',
        id: 1,
        params: struct({
          service: 'object',
          method: 'execute_kw',
          args: ['demo', 2, answeringKey, 'ir.attachment', 'read', [[1], ['raw']]],
        }),
      }),
    );
    const res = await fetch(`${gateway.url}/jsonrpc`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(page);
  });
});
