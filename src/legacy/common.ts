/**
 * The legacy `common` service (`odoo/service/common.py`): `login`, `authenticate`, `version`,
 * `about`, `set_loglevel` (their signatures in `surface.ts`), dispatched as `exp_<method>(*params)`
 * with Python's arity errors.
 */
import { callCaller, type CallOrigin, type LegacyCall } from '../call.ts';
import type { Credentials } from '../credentials/index.ts';
import { pythonError } from '../errors.ts';
import { arityError } from '../python/call-arity.ts';
import { starArgsError } from '../python/unpack-errors.ts';
import type { Upstream } from '../upstream/index.ts';
import { checkedDatabase } from './database-name.ts';
import { isStruct, isTruthy, pyTypeName, type Value } from '../value.ts';
import type { VersionCache } from './version-cache.ts';
import { legacyFunction } from './surface.ts';

/** `_('See http://openerp.com')`, untranslated as legacy RPC has no language. */
const aboutText = 'See http://openerp.com';

export interface CommonDeps {
  upstream: Upstream;
  credentials: Credentials;
  versions: VersionCache;
}

/** Creates the `common` dispatcher. Rejects with LegacyError exactly where Odoo raises. */
export function createCommonService({ credentials, versions }: CommonDeps) {
  async function authenticate(db: Value, login: Value, password: Value, env: Value, origin: CallOrigin): Promise<Value> {
    const name = checkedDatabase(db);
    origin.values.set(callCaller, { database: name });
    if (isTruthy(env) && !isStruct(env)) {
      await credentials.probeDatabase(name, origin); // Registry(db) opens before {**env} runs
      throw pythonError('TypeError', `'${pyTypeName(env)}' object is not a mapping`);
    }
    // Non-string logins or passwords cannot match a user: Odoo's authenticate refuses them (a
    // truthy non-string password for an existing login is Odoo's TypeError: COMPATIBILITY.md).
    if (typeof login !== 'string' || typeof password !== 'string' || password === '') {
      await credentials.probeDatabase(name, origin);
      return false;
    }
    origin.values.set(callCaller, { database: name, login });
    const uid = await credentials.authenticate(login, password, origin);
    if (uid !== false) origin.values.set(callCaller, { database: name, login, uid });
    return uid;
  }

  return async function dispatchCommon(call: LegacyCall, origin: CallOrigin): Promise<Value> {
    const sig = legacyFunction('common', call.method)?.signature;
    if (!sig) throw pythonError('Exception', `Method not found: ${call.method}`);
    if (call.argsNotIterable !== undefined)
      throw pythonError('TypeError', starArgsError(`odoo.service.common.${sig.name}`, call.argsNotIterable));
    const wrongArity = arityError(sig, call.params.length);
    if (wrongArity) throw pythonError('TypeError', wrongArity);
    const p = call.params;
    switch (call.method) {
      case 'login':
        return authenticate(p[0] as Value, p[1] as Value, p[2] as Value, null, origin);
      case 'authenticate':
        return authenticate(p[0] as Value, p[1] as Value, p[2] as Value, p[3] as Value, origin);
      case 'version':
        return versions.get(origin);
      case 'about':
        if (!isTruthy(p[0] ?? false)) return aboutText;
        return [aboutText, await versions.serverVersion(origin)];
      default: // set_loglevel: a no-op that answers True
        return true;
    }
  };
}
