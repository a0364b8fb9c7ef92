/**
 * Passwords that are API keys (docs/architecture.md §5 step 1): checked once with `res.users/context_get` as the
 * bearer (owner must be the claimed uid, or have the claimed login), cached by HMAC, single-flight,
 * and one re-check on 401. The gateway never retires these keys: the client owns them.
 */
import { callDatabase, type CallOrigin } from '../call.ts';
import { accessDenied } from '../errors.ts';
import type { Upstream } from '../upstream/index.ts';
import type { Value } from '../value.ts';
import type { CredentialCache } from './cache.ts';
import { checkKeyForUid, isUnauthorized, loginOfUid, uidOfKey } from './passthrough.ts';
import { badCredentials } from './refusals.ts';

/** What the passthrough branch needs. */
export interface ApiKeyPasswordDeps {
  upstream: Upstream;
  cache: CredentialCache;
  /**
   * `authenticate`'s answers: no call follows them whose 401 would tell a revoked key or an archived
   * user, so they are trusted only for the bound a changed password has (`--revalidate-interval`).
   */
  authenticateCache: CredentialCache;
  cacheKey: (...parts: string[]) => string;
  /**
   * Runs right before a key is checked upstream (never for a key already checked): throws to
   * refuse the attempt (the throttle), so a correct cached key keeps working while bad ones are
   * refused.
   */
  beforeCheck?: (who: { uid?: number | bigint; login?: string }, origin: CallOrigin) => Promise<void> | void;
  /** Hears the `context_get` answer a key check read, with the call's database and the key. */
  onKeyContext?: (db: string, key: string, context: Value) => void;
}

/** Object calls and `authenticate` for key-shaped passwords, in the call's database ({@link callDatabase}). */
export interface ApiKeyPasswords {
  callAs<T>(uid: number | bigint, key: string, origin: CallOrigin, call: (key: string) => Promise<T>): Promise<T>;
  /** The uid owning `key` when it has `login`; rejects with bad credentials otherwise. */
  authenticate(login: string, key: string, origin: CallOrigin): Promise<number | bigint>;
}

/** Creates the passthrough branch. */
export function createApiKeyPasswords({
  upstream,
  cache,
  authenticateCache,
  cacheKey,
  beforeCheck = () => undefined,
  onKeyContext,
}: ApiKeyPasswordDeps): ApiKeyPasswords {
  const heard = (key: string, origin: CallOrigin) =>
    onKeyContext === undefined ? undefined : (context: Value) => onKeyContext(callDatabase(origin), key, context);
  async function checkedSlot(uid: number | bigint, key: string, origin: CallOrigin): Promise<string> {
    const slot = cacheKey(callDatabase(origin), 'uid', String(uid), key);
    await cache.resolve(slot, async () => {
      await beforeCheck({ uid }, origin);
      await checkKeyForUid(upstream, uid, key, origin, heard(key, origin));
      return { uid };
    });
    return slot;
  }

  return {
    async callAs(uid, key, origin, call) {
      const slot = await checkedSlot(uid, key, origin);
      try {
        return await call(key);
      } catch (err) {
        if (!isUnauthorized(err)) throw err;
        cache.evict(slot);
        await checkedSlot(uid, key, origin);
        try {
          return await call(key);
        } catch (err2) {
          if (isUnauthorized(err2)) throw accessDenied();
          throw err2;
        }
      }
    },

    async authenticate(login, key, origin) {
      const slot = cacheKey(callDatabase(origin), 'login', login, key);
      const checked = await authenticateCache.resolve(slot, async () => {
        await beforeCheck({ login }, origin);
        const uid = await uidOfKey(upstream, key, origin, heard(key, origin));
        if (uid === undefined || (await loginOfUid(upstream, uid, key, origin)) !== login) throw badCredentials();
        return { uid };
      });
      return checked.uid;
    },
  };
}
