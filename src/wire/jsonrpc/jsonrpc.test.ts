import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LegacyError, pythonError } from '../../errors.ts';
import { struct } from '../../value.ts';
import { BadJsonRpcBody, decodeRequest } from './decode.ts';
import { encodeResult } from './encode.ts';
import { encodeError } from './fault.ts';
import { badRequestPage, internalServerErrorPage, isJsonRpcContentType, unsupportedMediaTypePage } from './content-type.ts';
import { createJsonRpcHandler } from './handler.ts';
import { testCallOrigin } from '../../../test/support/call-origin.ts';

function corpus(id: string) {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/conformance/cases/${id}.json`, import.meta.url), 'utf8'));
}

describe('decodeRequest()', () => {
  it('reads service, method, args and echoes the id', () => {
    const d = decodeRequest(
      '{"jsonrpc":"2.0","method":"call","params":{"service":"common","method":"login","args":["gw","admin","x"]},"id":"abc"}',
      64,
    );
    expect(d).not.toBeInstanceOf(BadJsonRpcBody);
    expect(d).toMatchObject({ id: 'abc', call: { dialect: 'jsonrpc', service: 'common', method: 'login', params: ['gw', 'admin', 'x'] } });
  });

  it('answers a missing id with null and ignores extra params keys', () => {
    const d = decodeRequest('{"params":{"service":"common","method":"version","args":[],"extra":1}}', 64);
    expect(d).toMatchObject({ id: null, call: { service: 'common', method: 'version', params: [] } });
  });

  it('keeps args that Python cannot iterate aside for the service to raise on, and iterates a str or a dict', () => {
    const args = (a: string) => decodeRequest(`{"params":{"service":"object","method":"execute_kw","args":${a}}}`, 64);
    expect(args('null')).toMatchObject({ call: { params: [], argsNotIterable: null } });
    expect(args('5')).toMatchObject({ call: { params: [], argsNotIterable: 5 } });
    expect(args('false')).toMatchObject({ call: { params: [], argsNotIterable: false } });
    expect(args('"ab"')).toEqual({ id: null, call: { dialect: 'jsonrpc', service: 'object', method: 'execute_kw', params: ['a', 'b'] } });
    expect(args('{"k":1}')).toEqual({ id: null, call: { dialect: 'jsonrpc', service: 'object', method: 'execute_kw', params: ['k'] } });
  });

  it.each([
    ['err-jsonrpc-params-array', 'builtins.ValueError'],
    ['err-jsonrpc-missing-args', 'builtins.TypeError'],
  ])('raises what Odoo raises for %s', (id, name) => {
    const c = corpus(id);
    const expected = JSON.parse(c.legacy.response_body).error.data;
    const d = decodeRequest(c.legacy.request_body, 64);
    if (d instanceof BadJsonRpcBody) throw new Error('unexpected');
    expect(d.call).toBeInstanceOf(LegacyError);
    const err = d.call as LegacyError;
    expect(err.name).toBe(name);
    expect(err.message).toBe(expected.message);
    expect(err.debug.trimEnd().split('\n').at(-1)).toBe(expected.debug.trimEnd().split('\n').at(-1));
  });

  it.each([
    ['{', 'Invalid JSON data'],
    ['[1, 2]', 'Invalid JSON-RPC data'],
    ['"x"', 'Invalid JSON-RPC data'],
  ])('refuses %j before any envelope', (text, description) => {
    expect(decodeRequest(text, 64)).toEqual(new BadJsonRpcBody(description as 'Invalid JSON data'));
  });

  // rpc_dispatchers[service] in odoo/http.py dispatch_rpc
  it.each([
    ['null', 'builtins.KeyError', 'KeyError: None'],
    ['7', 'builtins.KeyError', 'KeyError: 7'],
    ['true', 'builtins.KeyError', 'KeyError: True'],
    ['["common"]', 'builtins.TypeError', "TypeError: unhashable type: 'list'"],
    ['{"a": 1}', 'builtins.TypeError', "TypeError: unhashable type: 'dict'"],
  ])('looks a service of %s up as Python does', (service, name, last) => {
    const d = decodeRequest(`{"params":{"service":${service},"method":"version","args":[]},"id":3}`, 64);
    if (d instanceof BadJsonRpcBody) throw new Error('unexpected');
    const err = d.call as LegacyError;
    expect([d.id, err.name, err.debug.trimEnd().split('\n').at(-1)]).toEqual([3, name, last]);
  });

  it.each([
    ['7', 7],
    ['null', null],
    ['true', true],
  ])("keeps a KeyError's key %s as it is in its arguments, as Odoo 19.0 does", (service, key) => {
    const d = decodeRequest(`{"params":{"service":${service},"method":"version","args":[]},"id":3}`, 64);
    if (d instanceof BadJsonRpcBody) throw new Error('unexpected');
    expect((d.call as LegacyError).arguments).toEqual([key]);
  });

  // common's and db's dispatch: `'exp_' + method` (odoo/service/common.py, db.py); object's: NameError
  it.each([
    ['common', '5', 'builtins.TypeError', 'can only concatenate str (not "int") to str'],
    ['db', '["list"]', 'builtins.TypeError', 'can only concatenate str (not "list") to str'],
    ['common', 'null', 'builtins.TypeError', 'can only concatenate str (not "NoneType") to str'],
    ['common', '{"a": 1}', 'builtins.TypeError', 'can only concatenate str (not "dict") to str'],
  ])('answers %s with a method of %s as Odoo 19.0 does, never as its str()', (service, method, name, message) => {
    const d = decodeRequest(`{"params":{"service":"${service}","method":${method},"args":[]},"id":3}`, 64);
    if (d instanceof BadJsonRpcBody) throw new Error('unexpected');
    expect(d.call).toMatchObject({ name, message });
  });

  it("names object's method by its str(), which never equals execute or execute_kw", () => {
    const d = decodeRequest('{"params":{"service":"object","method":["execute_kw"],"args":[]},"id":3}', 64);
    if (d instanceof BadJsonRpcBody) throw new Error('unexpected');
    expect(d.call).toMatchObject({ service: 'object', method: "['execute_kw']" });
  });
});

describe('createJsonRpcHandler()', () => {
  it('refuses a body starting with a UTF-8 BOM as invalid JSON, as json.loads does', async () => {
    const handle = createJsonRpcHandler({ dispatch: () => Promise.reject(new Error('not reached')), maxDepth: 64 });
    const body = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode('{"params":{"service":"common","method":"version","args":[]}}'),
    ]);
    const res = await handle('application/json', body, testCallOrigin({ requestId: 'r' }), () => undefined);
    expect([res.status, res.body]).toEqual([400, badRequestPage('Invalid JSON data')]);
  });

  it.each([
    ['{"jsonrpc":"2.0","params":{"service":"common"', 'Invalid JSON data'],
    ['[1]', 'Invalid JSON-RPC data'],
  ])("answers %j with a 400 whose body is only Odoo's description, %j", async (text, description) => {
    const handle = createJsonRpcHandler({ dispatch: () => Promise.reject(new Error('not reached')), maxDepth: 64 });
    const res = await handle('application/json', new TextEncoder().encode(text), testCallOrigin({ requestId: 'r' }), () => undefined);
    expect([res.status, res.contentType, res.body]).toEqual([400, 'text/html; charset=utf-8', description]);
  });

  describe('a lone surrogate Odoo cannot encode back', () => {
    const origin = testCallOrigin({ requestId: 'r' });
    const request = (args: string) =>
      new TextEncoder().encode(
        `{"jsonrpc":"2.0","method":"call","id":1,"params":{"service":"object","method":"execute_kw","args":${args}}}`,
      );
    const upstream500 = new LegacyError('upstream_invalid', {
      name: 'legacy_rpc_gateway.UpstreamError',
      message: 'upstream answered HTTP 500 text/html (u, 1 ms)',
    });

    it.each([
      [
        'an upstream that failed to encode its answer',
        '["db",2,"pw","res.partner","search",[[["name","=","\\ud800"]]]]',
        () => Promise.reject(upstream500),
      ],
      [
        'a fault that echoes the surrogate',
        '["\\ud800",2,"pw","res.partner","search",[]]',
        () => Promise.reject(pythonError('ValueError', 'bad \ud800')),
      ],
      ['a result that echoes it', '["db",2,"pw","res.partner","name_search",["\\ud800"]]', () => Promise.resolve('\ud800')],
    ])("answers Werkzeug's 500 page for %s", async (_what, args, dispatch) => {
      const handle = createJsonRpcHandler({ dispatch, maxDepth: 64 });
      const res = await handle('application/json', request(args), origin, () => undefined);
      expect([res.status, res.contentType, res.body]).toEqual([500, 'text/html; charset=utf-8', internalServerErrorPage]);
    });

    it('answers an upstream failure as usual when the request carries no lone surrogate', async () => {
      const handle = createJsonRpcHandler({ dispatch: () => Promise.reject(upstream500), maxDepth: 64 });
      const res = await handle(
        'application/json',
        request('["db",2,"pw","res.partner","search",[[["name","=","\\ud83d\\ude00"]]]]'),
        origin,
        () => undefined,
      );
      expect(res.status).toBe(200);
    });
  });
});

describe('encodeResult() and encodeError()', () => {
  it('omits the result key for None', () => {
    expect(encodeResult(3, null)).toBe('{"jsonrpc": "2.0", "id": 3}');
  });

  it('writes Python json.dumps spacing with raw UTF-8', () => {
    expect(encodeResult('x', struct({ a: [1, 'é'] }))).toBe('{"jsonrpc": "2.0", "id": "x", "result": {"a": [1, "é"]}}');
  });

  it('matches the corpus error envelope shape', () => {
    const c = corpus('err-unknown-service-jsonrpc');
    const err = pythonError('KeyError', 'foo', "'foo'");
    const ours = JSON.parse(encodeError(JSON.parse(c.legacy.request_body).id, err));
    const theirs = JSON.parse(c.legacy.response_body);
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect(Object.keys(ours.error.data)).toEqual(Object.keys(theirs.error.data));
    expect({ ...ours.error, data: { ...ours.error.data, debug: '' } }).toEqual({
      ...theirs.error,
      data: { ...theirs.error.data, debug: '' },
    });
    expect(ours.error.data.debug.trimEnd().split('\n').at(-1)).toBe("KeyError: 'foo'");
  });
});

describe('content type', () => {
  it.each([
    ['application/json', true],
    ['application/json-rpc; charset=utf-8', true],
    ['text/plain', false],
    [undefined, false],
  ])('%s → %s', (header, ok) => {
    expect(isJsonRpcContentType(header)).toBe(ok);
  });

  it("reproduces Werkzeug's 415 page for a text/plain body", () => {
    expect(unsupportedMediaTypePage(true)).toBe(corpus('err-jsonrpc-wrong-content-type').legacy.response_body);
  });
});
