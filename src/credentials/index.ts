/**
 * Legacy credentials → API key (design §5). This scope: passthrough of API keys used as
 * passwords, a cache keyed by HMAC, single-flight first calls, and one re-check on 401.
 */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { accessDenied } from '../errors.ts';
import type { Upstream } from '../upstream/index.ts';
import { createCredentialCache } from './cache.ts';
import { createCacheKeyer } from './cache-key.ts';
import { checkKeyForUid, isUnauthorized, looksLikeApiKey, loginOfUid, uidOfKey } from './passthrough.ts';
import { probeDatabase } from './probe-database.ts';

export { isUnauthorized, looksLikeApiKey } from './passthrough.ts';

export interface Credentials {
  /**
   * Runs `call` with the bearer key standing for (db, uid, password). A 401 evicts the cached
   * check, re-checks once and retries once (the method never ran on a 401). Throws LegacyError.
   */
  callAs<T>(db: string, uid: number | bigint, password: string, origin: CallOrigin, call: (key: string) => Promise<T>): Promise<T>;
  /** `common.authenticate`: the uid, or `false` for credentials Odoo would refuse. */
  authenticate(db: string, login: string, password: string, origin: CallOrigin): Promise<number | bigint | false>;
  /** Resolves when `db` exists upstream; rejects with the legacy unknown-database fault. */
  probeDatabase(db: string, origin: CallOrigin): Promise<void>;
}

export function createCredentials(config: Config, upstream: Upstream): Credentials {
  const cache = createCredentialCache({ max: config.keyCacheSize, ttlMs: config.keyCacheTtlMs });
  const cacheKey = createCacheKeyer();

  async function keyFor(db: string, uid: number | bigint, password: string, origin: CallOrigin): Promise<{ key: string; slot: string }> {
    if (!looksLikeApiKey(password)) throw accessDenied();
    const slot = cacheKey(db, 'uid', String(uid), password);
    await cache.resolve(slot, async () => {
      await checkKeyForUid(upstream, db, uid, password, origin);
      return { uid };
    });
    return { key: password, slot };
  }

  return {
    async callAs(db, uid, password, origin, call) {
      const first = await keyFor(db, uid, password, origin);
      try {
        return await call(first.key);
      } catch (err) {
        if (!isUnauthorized(err)) throw err;
        cache.evict(first.slot);
        const again = await keyFor(db, uid, password, origin);
        try {
          return await call(again.key);
        } catch (err2) {
          if (isUnauthorized(err2)) throw accessDenied();
          throw err2;
        }
      }
    },

    probeDatabase: (db, origin) => probeDatabase(upstream, db, origin),

    async authenticate(db, login, password, origin) {
      if (!looksLikeApiKey(password)) {
        await probeDatabase(upstream, db, origin); // an unknown database is a fault, not False
        return false;
      }
      const slot = cacheKey(db, 'login', login, password);
      try {
        const checked = await cache.resolve(slot, async () => {
          const uid = await uidOfKey(upstream, db, password, origin);
          if (uid === undefined || (await loginOfUid(upstream, db, uid, password, origin)) !== login) throw accessDenied();
          return { uid };
        });
        return checked.uid;
      } catch (err) {
        if (err instanceof Error && 'kind' in err && err.kind === 'access_denied') return false;
        throw err;
      }
    },
  };
}
