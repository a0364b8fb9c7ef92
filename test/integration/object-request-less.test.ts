/**
 * What legacy RPC's missing HTTP request changes (issue 45): `@check_identity` methods are refused
 * as Odoo refuses them, in every dialect and at the wrapper's place in Odoo's check order, without
 * the method reaching JSON-2; and a JSON-2 call runs with the language `_()` falls back to natively
 * (the user's, from `context_get`), sent as `Accept-Language`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorData, startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let key: string;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  key = stack.sim.keyFor('demo', 'admin');
});
afterAll(() => stack.close());
beforeEach(() => stack.sim.clearLog());

const call = (...rest: unknown[]) => stack.jsonrpc('object', 'execute_kw', ['demo', 2, key, ...rest]);
const ran = (model: string, method: string) =>
  stack.sim.log.filter((r) => r.path === `/json/2/${model}/${method}` && !r.body.includes('"ids":true'));
const xmlCall = (model: string, method: string) =>
  '<?xml version="1.0"?><methodCall><methodName>execute_kw</methodName><params>' +
  ['<string>demo</string>', '<int>2</int>', `<string>${key}</string>`, `<string>${model}</string>`, `<string>${method}</string>`]
    .map((v) => `<param><value>${v}</value></param>`)
    .join('') +
  '<param><value><array><data><value><array><data><value><int>2</int></value></data></array></value></data></array></value></param>' +
  '</params></methodCall>';

describe('@check_identity methods', () => {
  it.each([
    ['res.users', 'api_key_wizard'],
    ['res.users', 'preference_change_password'],
    ['res.users', 'action_revoke_all_devices'],
    ['res.users.apikeys.description', 'make_key'],
    ['res.users.apikeys', 'remove'],
  ])('refuses %s.%s as Odoo does with no HTTP request, never running it', async (model, method) => {
    expect(errorData((await call(model, method, [[2]])).error)).toMatchObject({
      name: 'odoo.exceptions.UserError',
      message: 'This method can only be accessed over HTTP',
    });
    expect(ran(model, method)).toHaveLength(0);
  });

  it('refuses before binding: extra arguments get the refusal, not a local arity error', async () => {
    expect(errorData((await call('res.users', 'api_key_wizard', [[2], 'x', 'y'], { z: 1 })).error)).toMatchObject({
      name: 'odoo.exceptions.UserError',
      message: 'This method can only be accessed over HTTP',
    });
  });

  it.each([
    ['no ids', [], {}, 'builtins.IndexError', 'list index out of range'],
    ['a context dict() refuses', [[2]], { context: 5 }, 'builtins.TypeError', "'int' object is not iterable"],
  ])('answers call_kw first where it raises before the wrapper: %s', async (_what, args, kwargs, name, message) => {
    expect(errorData((await call('res.users', 'api_key_wizard', args, kwargs)).error)).toMatchObject({ name, message });
  });

  it("answers in the context's language, else the user's, from base's translations", async () => {
    expect(errorData((await call('res.users', 'api_key_wizard', [[2]], { context: { lang: 'fr_FR' } })).error).message).toBe(
      'Cette méthode peut seulement être accédée par HTTP',
    );
  });

  it('answers an unknown model first', async () => {
    expect(
      errorData((await stack.jsonrpc('object', 'execute_kw', ['demo', 2, key, 'auth_totp.wizard', 'enable', [[1]]])).error).message,
    ).toBe("Object auth_totp.wizard doesn't exist");
  });

  it.each(['xmlrpc/2', 'xmlrpc'])('refuses over /%s with the UserError fault', async (path) => {
    const answer = await stack.post(`/${path}/object`, xmlCall('res.users', 'api_key_wizard'), 'text/xml');
    expect(answer.text).toContain(
      path === 'xmlrpc/2'
        ? '<name>faultCode</name>\n<value><int>2</int></value>'
        : '<string>warning -- UserError\n\nThis method can only be accessed over HTTP</string>',
    );
    expect(answer.text).toContain('This method can only be accessed over HTTP');
    expect(ran('res.users', 'api_key_wizard')).toHaveLength(0);
  });

  it('leaves methods of the same name on other models alone', async () => {
    await call('res.users', 'change_password', ['admin', 'admin']);
    expect(stack.sim.log.some((r) => r.path === '/json/2/res.users/change_password')).toBe(true);
  });
});

describe('methods that assert a request', () => {
  it('answers res.users.identitycheck.run_check with its AssertionError once its arguments bind, never running it', async () => {
    expect(errorData((await call('res.users.identitycheck', 'run_check', [[1]], { context: { password: 'admin' } })).error)).toMatchObject({
      name: 'builtins.AssertionError',
      message: 'This method can only be accessed over HTTP',
    });
    expect(errorData((await call('res.users.identitycheck', 'run_check', [[1], 2])).error).message).toBe(
      'ResUsersIdentitycheck.run_check() takes 1 positional argument but 2 were given',
    );
    expect(ran('res.users.identitycheck', 'run_check')).toHaveLength(0);
  });
});

describe('the language a JSON-2 call runs with', () => {
  it("sends the user's language (context_get) as Accept-Language, as `_()` falls back to it without a request", async () => {
    const lang = (await stack.jsonrpc('object', 'execute_kw', ['demo', 2, key, 'res.users', 'context_get', []])).result as Map<
      string,
      unknown
    >;
    stack.sim.clearLog();
    await call('res.partner', 'search_count', [[]]);
    const sent = stack.sim.log.find((r) => r.path === '/json/2/res.partner/search_count');
    expect(sent?.headers['accept-language']).toBe(String(lang.get('lang')).replace('_', '-'));
  });

  it("sends no Accept-Language where the call's context names a lang: `_()` takes the context's, the request keeps JSON-2's default", async () => {
    await call('res.partner', 'search_count', [[]], { context: { lang: 'fr_FR' } });
    const sent = stack.sim.log.find((r) => r.path === '/json/2/res.partner/search_count');
    expect(sent?.body).toContain('"lang":"fr_FR"');
    expect(sent?.headers['accept-language']).toBeUndefined();
  });

  it('asks context_get once per key, not per call', async () => {
    await call('res.partner', 'search_count', [[]]);
    stack.sim.clearLog();
    await call('res.partner', 'search_count', [[]]);
    await call('res.partner', 'search_count', [[]]);
    expect(stack.sim.log.filter((r) => r.path === '/json/2/res.users/context_get')).toHaveLength(0);
  });
});
