import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import { decodeLegacyCall } from './legacy-call.ts';
import { loadCases } from './load-cases.ts';
import {
  fillPlaceholders,
  learnPlaceholders,
  placeholdersIn,
  plainPasswordOwner,
  pythonJsonDumps,
  replaceParam,
  rewriteCallIds,
  rewriteJson2Ids,
  type SimUser,
} from './substitute.ts';

const users: SimUser[] = [
  { uid: 2, login: 'admin', password: 'admin', key: 'a'.repeat(40), name: 'Mitchell Admin' },
  { uid: 5, login: 'demo', password: 'demo', key: 'd'.repeat(40), name: 'Marc Demo' },
];

const xmlCall = (method: string, params: string[]) =>
  `<?xml version='1.0'?>\n<methodCall>\n<methodName>${method}</methodName>\n<params>\n${params.map((p) => `<param>\n<value>${p}</value>\n</param>\n`).join('')}</params>\n</methodCall>\n`;

describe('placeholders', () => {
  it('lists and fills the corpus placeholders, reporting unbound ones', () => {
    const text = '<string><ADMIN_KEY></string><string><NEW_KEY_1></string>';
    expect(placeholdersIn(text)).toEqual(['ADMIN_KEY', 'NEW_KEY_1']);
    expect(fillPlaceholders(text, new Map([['ADMIN_KEY', 'k']]))).toEqual({ text: '<string>k</string><string><NEW_KEY_1></string>', unbound: ['NEW_KEY_1'] });
  });

  it('learns a placeholder from the same place in an answer', () => {
    const bound = new Map<string, string>();
    const learned = learnPlaceholders(parseJson('{"context": {"default_key": "<NEW_KEY_1>"}, "x": 1}'), parseJson('{"context": {"default_key": "f00"}, "x": 1}'), (n, v) => bound.set(n, v));
    expect(learned).toEqual(['NEW_KEY_1']);
    expect(bound.get('NEW_KEY_1')).toBe('f00');
  });
});

describe('the minting substitution', () => {
  it.each([
    ['object execute_kw with the admin password', 'object', ['<string>gw</string>', '<int>2</int>', '<string>admin</string>', '<string>res.partner</string>', '<string>search</string>'], 'admin'],
    ['common login with the demo password', 'common', ['<string>gw</string>', '<string>demo</string>', '<string>demo</string>'], 'demo'],
    ['a wrong password', 'object', ['<string>gw</string>', '<int>2</int>', '<string>wrong</string>', '<string>res.partner</string>', '<string>search</string>'], undefined],
    ['an API key', 'object', ['<string>gw</string>', '<int>2</int>', `<string>${'a'.repeat(40)}</string>`, '<string>res.partner</string>', '<string>search</string>'], undefined],
    ['a password sent as an int', 'object', ['<string>gw</string>', '<int>2</int>', '<int>123</int>', '<string>res.partner</string>', '<string>search</string>'], undefined],
  ])('finds the owner of %s', (_what, service, params, owner) => {
    const method = service === 'common' ? 'login' : 'execute_kw';
    const call = decodeLegacyCall('xmlrpc2', `/xmlrpc/2/${service}`, xmlCall(method, params));
    expect(call && plainPasswordOwner(call, users)?.login).toBe(owner);
  });

  it('replaces only the password position of an XML-RPC call, every other byte kept', () => {
    const body = xmlCall('login', ['<string>gw</string>', '<string>admin</string>', '<string>admin</string>']);
    const out = replaceParam('xmlrpc2', body, 2, 'k'.repeat(40));
    expect(out).toBe(xmlCall('login', ['<string>gw</string>', '<string>admin</string>', `<string>${'k'.repeat(40)}</string>`]));
  });

  it('replaces only the password position of a JSON-RPC call', () => {
    const body = '{"jsonrpc": "2.0", "method": "call", "params": {"service": "common", "method": "login", "args": ["gw", "admin", "admin"]}, "id": 3}';
    expect(replaceParam('jsonrpc', body, 2, 'KEY')).toBe(body.replace('"admin", "admin"]', '"admin", "KEY"]'));
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
    const body = xmlCall('execute_kw', ['<string>gw</string>', '<int>2</int>', '<string>k</string>', '<string>res.partner</string>', '<string>write</string>', '<array><data>\n<value><array><data>\n<value><int>59</int></value>\n</data></array></value>\n<value><struct></struct></value>\n</data></array>']);
    const call = decodeLegacyCall('xmlrpc2', '/xmlrpc/2/object', body);
    expect(call && rewriteCallIds('xmlrpc2', body, call, map)).toBe(body.replace('<int>59</int>', '<int>47</int>'));
  });

  it('rewrites the ids argument of an XML-RPC execute', () => {
    const body = xmlCall('execute', ['<string>gw</string>', '<int>2</int>', '<string>k</string>', '<string>res.partner</string>', '<string>write</string>', '<array><data>\n<value><int>59</int></value>\n</data></array>', '<int>59</int>']);
    const call = decodeLegacyCall('xmlrpc2', '/xmlrpc/2/object', body);
    // only args[0]; the later 59 is not an ids argument
    expect(call && rewriteCallIds('xmlrpc2', body, call, map)).toBe(body.replace('<int>59</int>', '<int>47</int>'));
  });

  it('rewrites the ids argument of a JSON-RPC execute_kw', () => {
    const body = '{"jsonrpc": "2.0", "method": "call", "params": {"service": "object", "method": "execute_kw", "args": ["gw", 2, "k", "res.partner", "write", [[59], {"ref": "JR-1"}]]}, "id": 2}';
    const call = decodeLegacyCall('jsonrpc', '/jsonrpc', body);
    expect(call && rewriteCallIds('jsonrpc', body, call, map)).toBe(body.replace('[[59]', '[[47]'));
  });

  it('rewrites JSON-2 ids', () => {
    expect(rewriteJson2Ids(parseJson('{"ids": [59, 9], "vals": {}}'), map)).toEqual(parseJson('{"ids": [47, 9], "vals": {}}'));
  });
});
