/**
 * `@assert_log_admin_access` (Odoo 19.0 `ir_module.py`): its `check_and_log(self, *args, **kwargs)`
 * refuses a non-admin before the method's arguments bind, so a non-admin calling
 * `ir.module.module.button_install` with extra arguments gets Access Denied where an admin gets the
 * TypeError (compared with the real Odoo 19.0: `ir.module.module.button_immediate_install([[1], 'x',
 * 'y'])` as demo and as admin). And `@ormcache`'s `<lambda>()` in TypeErrors. Issue 45 item 3.
 */
import { describe, expect, it } from 'vitest';
import { ownCallOrigin, type CallOrigin } from '../call.ts';
import type { Credentials } from '../credentials/index.ts';
import { accessError } from '../errors.ts';
import { createSignatureResolver } from '../signatures/resolver.ts';
import type { Upstream } from '../upstream/index.ts';
import type { Value } from '../value.ts';
import { isAdminChecked, isOrmcached } from './identity-check.ts';
import { createObjectService } from './object.ts';

function service(admin: boolean) {
  const sent: string[] = [];
  const upstream = {
    json2: (call: { model: string; method: string; body: Map<string, Value> }) => {
      sent.push(`${call.model}.${call.method} ${JSON.stringify([...call.body])}`);
      if (call.model === 'res.users' && call.method === 'has_group') return Promise.resolve(admin);
      if (call.model === 'res.users' && call.method === 'context_get') return Promise.resolve(new Map([['lang', 'en_US']]));
      // the model probe's private name: 403, so the model exists
      return Promise.reject(accessError('Private methods cannot be called remotely.'));
    },
  } as unknown as Upstream;
  const credentials = {
    callAs: (_uid: number, _pw: string, _origin: CallOrigin, call: (key: string) => Promise<unknown>) => call('k'),
    probeDatabase: () => Promise.resolve(),
  } as unknown as Credentials;
  const object = createObjectService({ upstream, credentials, signatures: createSignatureResolver() });
  const run = (uid: number, method: string, args: Value[]) =>
    object(
      {
        service: 'object',
        method: 'execute_kw',
        dialect: 'xmlrpc2',
        params: ['db', uid, 'pw', 'ir.module.module', method, args],
      },
      ownCallOrigin('test'),
    );
  return { run, sent, object };
}

describe('methods wrapped by @assert_log_admin_access', () => {
  it('are listed from Odoo 19.0 source', () => {
    expect(isAdminChecked('ir.module.module', 'button_immediate_install')).toBe(true);
    expect(isAdminChecked('ir.demo', 'install_demo')).toBe(true);
    expect(isAdminChecked('ir.module.module', 'read')).toBe(false);
  });

  it("refuse a non-admin with Access Denied before a local arity error, asking has_group('base.group_erp_manager') of the caller", async () => {
    const { run, sent } = service(false);
    await expect(run(5, 'button_immediate_install', [[1], 'x', 'y'])).rejects.toMatchObject({
      kind: 'access_denied',
      name: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
    });
    expect(sent).toContain('res.users.has_group [["ids",[5]],["group_ext_id","base.group_erp_manager"]]');
    expect(sent.some((s) => s.startsWith('ir.module.module.button_immediate_install'))).toBe(false);
  });

  it("give an admin the method's own TypeError, never running it", async () => {
    const { run, sent } = service(true);
    await expect(run(2, 'button_immediate_install', [[1], 'x', 'y'])).rejects.toMatchObject({
      message: expect.stringContaining('takes 1 positional argument but 3 were given') as unknown,
    });
    expect(sent.some((s) => s.startsWith('ir.module.module.button_immediate_install'))).toBe(false);
  });
});

describe('methods wrapped by @ormcache', () => {
  it("name the cache key's <lambda>() in a TypeError of arguments that do not bind, as Odoo 19.0 does", async () => {
    const { object } = service(true);
    const run = (args: Value[], kw: Map<string, Value>) =>
      object(
        {
          service: 'object',
          method: 'execute_kw',
          dialect: 'xmlrpc2',
          params: ['db', 2, 'pw', 'res.users', 'context_get', args, kw],
        },
        ownCallOrigin('test'),
      );
    expect(isOrmcached('res.users', 'context_get')).toBe(true);
    await expect(run([1, 2], new Map())).rejects.toMatchObject({ message: '<lambda>() takes 1 positional argument but 3 were given' });
    await expect(run([], new Map([['x', 1]]))).rejects.toMatchObject({ message: "<lambda>() got an unexpected keyword argument 'x'" });
  });
});
