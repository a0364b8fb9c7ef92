/**
 * Passthrough (docs/architecture.md §5 step 1): a legacy password that looks like an Odoo API key is tried as the
 * bearer on `res.users/context_get`, and accepted only for the user who owns it. Only a password
 * of that shape is ever put in an Authorization header.
 */
import { callDatabase, type CallOrigin } from '../call.ts';
import { accessDenied, LegacyError, missingError } from '../errors.ts';
import { unauthorizedName, type Upstream } from '../upstream/index.ts';
import { isInt, isStruct, struct, type Value } from '../value.ts';
import { badCredentials } from './refusals.ts';

/** Whether a password is shaped like an Odoo API key (`api-key.ts`): only such a password is tried as a bearer. */
export { looksLikeApiKey } from '../api-key.ts';

/** True for the refusal JSON-2 gives a bad, expired or revoked key. */
export function isUnauthorized(err: unknown): boolean {
  return err instanceof LegacyError && err.name === unauthorizedName;
}

/**
 * The uid owning `key` in the call's database, or `undefined` when the upstream refuses the key (401).
 * `onContext` hears the `context_get` answer it read the uid from (its `lang` is the caller's language).
 */
export async function uidOfKey(
  upstream: Upstream,
  key: string,
  origin: CallOrigin,
  onContext?: (context: Value) => void,
): Promise<number | bigint | undefined> {
  let result: Value;
  try {
    result = await upstream.json2({ db: callDatabase(origin), key, model: 'res.users', method: 'context_get', body: new Map() }, origin);
  } catch (err) {
    if (isUnauthorized(err)) return undefined;
    throw err;
  }
  onContext?.(result);
  const uid = isStruct(result) ? result.get('uid') : undefined;
  if (uid === undefined || !isInt(uid)) throw accessDenied();
  return uid;
}

/**
 * Checks that `key` belongs to `uid` in the call's database. A key of another user is AccessDenied; a uid that
 * does not exist at all is the MissingError Odoo raises while loading that user (corpus
 * err-wrong-uid-xmlrpc2).
 */
export async function checkKeyForUid(
  upstream: Upstream,
  uid: number | bigint,
  key: string,
  origin: CallOrigin,
  onContext?: (context: Value) => void,
): Promise<void> {
  const owner = await uidOfKey(upstream, key, origin, onContext);
  if (owner === undefined) throw badCredentials();
  if (BigInt(owner) === BigInt(uid)) return;
  // uid 0 is no user Odoo loads (`not uid` refuses it first): Access Denied, not a MissingError.
  if (BigInt(uid) === 0n) throw badCredentials();
  if (!(await userExists(upstream, uid, key, origin))) {
    throw missingError(`Record does not exist or has been deleted.\n(Record: res.users(${uid},), User: ${uid})`);
  }
  throw badCredentials();
}

async function userExists(upstream: Upstream, uid: number | bigint, key: string, origin: CallOrigin): Promise<boolean> {
  const body = struct({
    context: struct({ active_test: false }),
    domain: [['id', '=', uid]],
  });
  try {
    const count = await upstream.json2({ db: callDatabase(origin), key, model: 'res.users', method: 'search_count', body }, origin);
    return count !== 0;
  } catch {
    return true; // cannot tell: keep the safer AccessDenied
  }
}

/** The login of `uid` in the call's database, read with its own key; `undefined` if it cannot be read. */
export async function loginOfUid(upstream: Upstream, uid: number | bigint, key: string, origin: CallOrigin): Promise<string | undefined> {
  const body = struct({ ids: [uid], fields: ['login'] });
  const rows = await upstream.json2({ db: callDatabase(origin), key, model: 'res.users', method: 'read', body }, origin);
  const row = Array.isArray(rows) ? rows[0] : undefined;
  const login = row !== undefined && isStruct(row) ? row.get('login') : undefined;
  return typeof login === 'string' ? login : undefined;
}
