import { describe, expect, it } from 'vitest';
import { LegacyError, accessDenied, pythonError } from '../../errors.ts';
import type { CallOutcome } from '../../wire/response.ts';
import { defaultShadowMethods, isRefusedLogin, mayShadow, notShadowedReason, parseShadowMethods } from './policy.ts';

const defaults = new Set(defaultShadowMethods);
const object = (modelMethod: string, error?: LegacyError): CallOutcome => ({
  service: 'object',
  method: 'execute_kw',
  model: 'res.partner',
  modelMethod,
  ...(error === undefined ? {} : { error }),
});

describe('parseShadowMethods()', () => {
  it('starts from the allowlist of ', () => {
    expect(parseShadowMethods('')).toEqual([
      'read',
      'search',
      'search_read',
      'search_count',
      'fields_get',
      'name_search',
      'read_group',
      'formatted_read_group',
      'default_get',
      'check_access_rights',
      'context_get',
      'version',
      'list',
      'server_version',
      'db_exist',
      'list_lang',
      'list_countries',
    ]);
  });

  it('adds and removes only the methods the operator names', () => {
    const methods = parseShadowMethods('+name_get_custom, -read_group,-list_lang') as string[];
    expect(methods).toContain('name_get_custom');
    expect(methods).not.toContain('read_group');
    expect(methods).not.toContain('list_lang');
    expect(methods).toHaveLength(defaultShadowMethods.length - 1);
  });

  it.each([
    ['+write', 'write is never shadowed: it can change state'],
    ['+unlink', 'unlink is never shadowed: it can change state'],
    ['+action_confirm', 'action_confirm is never shadowed: it can change state (action_*, button_* and private methods)'],
    ['+button_validate', 'button_validate is never shadowed'],
    ['+drop', 'drop is never shadowed: it can change state'],
    ['+signal_workflow', 'signal_workflow is never shadowed: it can change state'],
    ['read', 'name each method with + (add) or - (remove)'],
    ['+*', 'name each method with + (add) or - (remove)'],
    ['+res.partner', 'name each method with + (add) or - (remove)'],
  ])('refuses %j', (spec, message) => {
    expect(parseShadowMethods(spec)).toContain(message);
  });
});

describe('mayShadow()', () => {
  it.each([
    ['an allowlisted read', object('search_read'), true],
    ['a fault of an allowlisted read (compared like a result)', object('read', pythonError('ValueError', 'x')), true],
    ['a write', object('write'), false],
    ['create', object('create'), false],
    ['an action', object('action_confirm'), false],
    ['a method off the allowlist', object('name_create'), false],
    ['a call the gateway refused as AccessDenied', object('read', accessDenied()), false],
    ['a call the upstream never answered', object('read', new LegacyError('upstream_timeout', { name: 'x', message: 'y' })), false],
    ['common.version', { service: 'common', method: 'version' }, true],
    ['common.login (not on the default list)', { service: 'common', method: 'login' }, false],
    ['db.list', { service: 'db', method: 'list' }, true],
    ['db.list_countries', { service: 'db', method: 'list_countries' }, true],
    ['db.drop', { service: 'db', method: 'drop' }, false],
    ['db.dump', { service: 'db', method: 'dump' }, false],
    ['an unknown service', { service: 'report', method: 'version' }, false],
    ['an object call without execute_kw', { service: 'object', method: 'exec', modelMethod: 'read' }, false],
    ['no outcome (a refused body)', undefined, false],
  ] as const)('%s: %s', (_what, outcome, expected) => {
    expect(mayShadow(outcome, defaults)).toBe(expected);
  });

  it('never shadows a db function the operator adds to the list', () => {
    expect(mayShadow({ service: 'db', method: 'create_database' }, new Set([...defaults, 'create_database']))).toBe(false);
  });

  it('shadows login once the operator adds it, but never one answered False', () => {
    const login: CallOutcome = { service: 'common', method: 'login' };
    expect(mayShadow(login, new Set([...defaults, 'login']))).toBe(true);
    expect(isRefusedLogin(login, { kind: 'result', value: false })).toBe(true);
    expect(isRefusedLogin(login, { kind: 'result', value: 2 })).toBe(false);
    expect(isRefusedLogin({ service: 'common', method: 'authenticate' }, { kind: 'result', value: false })).toBe(true);
  });
});

describe('notShadowedReason()', () => {
  it.each([
    ['object', 'execute_kw', 'read', undefined],
    ['object', 'execute_kw', 'write', 'never shadowed: it can change state'],
    ['object', 'execute_kw', 'name_create', 'never shadowed: it can change state'],
    ['object', 'execute_kw', 'get_views', 'not on the shadow allowlist (--shadow-methods)'],
    ['db', 'dump', undefined, 'a db function that is never shadowed'],
    ['common', 'login', undefined, 'not on the shadow allowlist (--shadow-methods)'],
  ])('%s %s %s: %s', (service, method, modelMethod, reason) => {
    expect(notShadowedReason(service, method, modelMethod, defaults)).toBe(reason);
  });
});
