import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import { decodeLegacyCall } from './legacy-call.ts';
import { loadCases } from './load-cases.ts';
import {
  fillPlaceholders,
  fillValuePlaceholders,
  learnPlaceholders,
  placeholdersIn,
  pythonJsonDumps,
  rewriteCallIds,
  rewriteCallKwIds,
  rewriteJson2Ids,
  sessionIdOf,
  withSessionId,
} from './substitute.ts';

const xmlCall = (method: string, params: string[]) =>
  `<?xml version='1.0'?>\n<methodCall>\n<methodName>${method}</methodName>\n<params>\n${params.map((p) => `<param>\n<value>${p}</value>\n</param>\n`).join('')}</params>\n</methodCall>\n`;

describe('placeholders', () => {
  it('lists and fills the corpus placeholders, reporting unbound ones', () => {
    const text = '<string><ADMIN_KEY></string><string><NEW_KEY_1></string>';
    expect(placeholdersIn(text)).toEqual(['ADMIN_KEY', 'NEW_KEY_1']);
    expect(fillPlaceholders(text, new Map([['ADMIN_KEY', 'k']]))).toEqual({
      text: '<string>k</string><string><NEW_KEY_1></string>',
      unbound: ['NEW_KEY_1'],
    });
  });

  it('learns a placeholder from the same place in an answer', () => {
    const bound = new Map<string, string>();
    const learned = learnPlaceholders(
      parseJson('{"context": {"default_key": "<NEW_KEY_1>"}, "x": 1}'),
      parseJson('{"context": {"default_key": "f00"}, "x": 1}'),
      (n, v) => bound.set(n, v),
    );
    expect(learned).toEqual(['NEW_KEY_1']);
    expect(bound.get('NEW_KEY_1')).toBe('f00');
  });
});

describe('passwords', () => {
  it('are never substituted: every recorded request is replayed with its own password', () => {
    const body = xmlCall('login', ['<string>gw</string>', '<string>admin</string>', '<string>admin</string>']);
    expect(fillPlaceholders(body, new Map([['ADMIN_KEY', 'k'.repeat(40)]])).text).toBe(body);
  });
});

describe('session cookies', () => {
  it('reads and replaces the session_id of Cookie and Set-Cookie headers', () => {
    expect(sessionIdOf('session_id=abc-1; Expires=Sun, 21 Nov 2027 23:40:39 GMT; HttpOnly; Path=/')).toBe('abc-1');
    expect(sessionIdOf('cids=; Max-Age=0, session_id=xyz; Path=/')).toBe('xyz');
    expect(withSessionId('a=1; session_id=old', 'new')).toBe('a=1; session_id=new');
  });
});

describe('call_kw and answers', () => {
  it('rewrites the ids of a call_kw request, leaving a create untouched', () => {
    const body =
      '{"jsonrpc": "2.0", "method": "call", "params": {"model": "res.users.identitycheck", "method": "run_check", "args": [[23]], "kwargs": {"context": {"password": "demo"}}}, "id": null}';
    expect(rewriteCallKwIds(body, (id) => (id === 23n ? 4n : undefined))).toBe(body.replace('[[23]]', '[[4]]'));
    const create =
      '{"jsonrpc": "2.0", "method": "call", "params": {"model": "m", "method": "create", "args": [{"name": "x"}], "kwargs": {}}, "id": null}';
    expect(rewriteCallKwIds(create, () => 9n)).toBe(create);
  });

  it('fills bound placeholders in a recorded answer', () => {
    expect(fillValuePlaceholders(parseJson('{"k": ["<NEW_KEY_1>", "<OTHER_KEY>"]}'), new Map([['NEW_KEY_1', 'f00']]))).toEqual(
      parseJson('{"k": ["f00", "<OTHER_KEY>"]}'),
    );
  });
});

describe('pythonJsonDumps()', () => {
  it('writes every recorded JSON-RPC request byte for byte as the client did', () => {
    const bodies = loadCases().flatMap((c) => (c.protocol === 'jsonrpc' && c.legacy ? [c.legacy.requestBody] : []));
    expect(bodies.length).toBeGreaterThan(20);
    for (const body of bodies) expect(pythonJsonDumps(parseJson(body))).toBe(body);
  });
});

describe('id rewriting', () => {
  const map = (id: bigint) => (id === 59n ? 47n : undefined);

  it('rewrites the ids argument of an XML-RPC execute_kw', () => {
    const body = xmlCall('execute_kw', [
      '<string>gw</string>',
      '<int>2</int>',
      '<string>k</string>',
      '<string>res.partner</string>',
      '<string>write</string>',
      '<array><data>\n<value><array><data>\n<value><int>59</int></value>\n</data></array></value>\n<value><struct></struct></value>\n</data></array>',
    ]);
    const call = decodeLegacyCall('xmlrpc2', '/xmlrpc/2/object', body);
    expect(call && rewriteCallIds('xmlrpc2', body, call, map)).toBe(body.replace('<int>59</int>', '<int>47</int>'));
  });

  it('rewrites the ids argument of an XML-RPC execute', () => {
    const body = xmlCall('execute', [
      '<string>gw</string>',
      '<int>2</int>',
      '<string>k</string>',
      '<string>res.partner</string>',
      '<string>write</string>',
      '<array><data>\n<value><int>59</int></value>\n</data></array>',
      '<int>59</int>',
    ]);
    const call = decodeLegacyCall('xmlrpc2', '/xmlrpc/2/object', body);
    // only args[0]; the later 59 is not an ids argument
    expect(call && rewriteCallIds('xmlrpc2', body, call, map)).toBe(body.replace('<int>59</int>', '<int>47</int>'));
  });

  it('rewrites the ids argument of a JSON-RPC execute_kw', () => {
    const body =
      '{"jsonrpc": "2.0", "method": "call", "params": {"service": "object", "method": "execute_kw", "args": ["gw", 2, "k", "res.partner", "write", [[59], {"ref": "JR-1"}]]}, "id": 2}';
    const call = decodeLegacyCall('jsonrpc', '/jsonrpc', body);
    expect(call && rewriteCallIds('jsonrpc', body, call, map)).toBe(body.replace('[[59]', '[[47]'));
  });

  it('rewrites JSON-2 ids', () => {
    expect(rewriteJson2Ids(parseJson('{"ids": [59, 9], "vals": {}}'), map)).toEqual(parseJson('{"ids": [47, 9], "vals": {}}'));
  });
});
