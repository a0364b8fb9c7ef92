/**
 * The later 19.0 build's programmatic key management (Odoo: `res_users.py` `res.users.apikeys.generate` (later builds)):
 * `res.users.apikeys.generate` (the caller's own live key, the live-key limit, the duration rules) and `revoke` (any live key the caller
 * may remove), both behind `_ensure_can_manage_keys_programmatically`. Reachable only when the simulator runs the later build
 * (`method-specs.ts`).
 */
import { isTruthy } from '../../src/value.ts';
import { isSystem } from '../orm/access.ts';
import { formatDatetime } from '../clock.ts';
import { configParameters, str2bool } from '../orm/config-parameters.ts';
import type { Env } from '../orm/env.ts';
import { accessDenied, assertionError, userError } from '../errors.ts';
import type { KeyStore } from '../auth/key-store.ts';
import { pyRepr } from '../python-repr.ts';
import { checkExpirationDate, datetimeArg, removeRecords, requestOf } from './apikeys.ts';
import type { MethodImpl } from './call.ts';

/** `DEFAULT_PROGRAMMATIC_API_KEYS_LIMIT`. */
const defaultProgrammaticLimit = 10;

/** `_ensure_can_manage_keys_programmatically`: system users, or the ICP switch. */
function ensureCanManageKeys(env: Env): void {
  if (isSystem(env) || str2bool(configParameters(env.db).get('base.enable_programmatic_api_keys'))) return;
  throw userError('Programmatic API keys are not enabled');
}

/** The caller's keys that never expire or have not expired yet. */
function liveKeysOf(env: Env, keys: KeyStore): number {
  const now = formatDatetime(env.now);
  return keys.list(env.db.name).filter((k) => k.uid === env.uid && (k.expiration === null || k.expiration >= now)).length;
}

/** `res.users.apikeys.generate(key, scope, name, expiration_date)` (later builds). */
export const generateKey: MethodImpl = (call) => {
  const { env } = call;
  const keys = requestOf(env).keys;
  ensureCanManageKeys(env);
  const expiration = datetimeArg(call.arg('expiration_date'));
  const configured = Number.parseInt(configParameters(env.db).get('base.programmatic_api_keys_limit') ?? '', 10);
  const limit = Number.isInteger(configured) && configured >= 0 ? configured : defaultProgrammaticLimit;
  if (liveKeysOf(env, keys) >= limit) throw userError(`Limit of ${limit} API keys is reached for programmatic creation`);
  const scopeArg = call.arg('scope');
  const scope = typeof scopeArg === 'string' && scopeArg !== '' ? scopeArg : null;
  const key = call.arg('key');
  const owner = typeof key === 'string' ? keys.check(key, scope ?? 'rpc', env.db.name) : undefined;
  if (owner === undefined || owner !== env.uid)
    throw accessDenied('The provided API key is invalid or does not belong to the current user.');
  checkExpirationDate(env, expiration);
  const name = call.arg('name');
  return keys.add({ uid: env.uid, name: typeof name === 'string' ? name : pyRepr(name), scope, expiration, db: env.db.name }).key;
};

/** `res.users.apikeys.revoke(key)` (later builds): any live key the caller may remove. */
export const revokeKey: MethodImpl = (call) => {
  const { env } = call;
  const keys = requestOf(env).keys;
  ensureCanManageKeys(env);
  const key = call.arg('key');
  if (!isTruthy(key)) throw assertionError('');
  const record = typeof key === 'string' ? keys.find(key, env.db.name) : undefined;
  if (record === undefined || (record.expiration !== null && record.expiration < formatDatetime(env.now))) {
    throw accessDenied('The provided API key is invalid.');
  }
  removeRecords(env, keys, [record.id]);
  return true;
};
