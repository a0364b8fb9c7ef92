/**
 * Retiring minted keys without the password (docs/architecture.md §5 step 3, Odoo: `res_users.py` `res.users.apikeys.generate` (later
 * builds)): on eviction and at shutdown the gateway revokes a key with `res.users.apikeys/revoke` where the server has it. The method is
 * feature-detected: 404 "does not exist" (earlier 19.0 builds) marks the database, 422 "not enabled" (a non-system user without
 * `base.enable_programmatic_api_keys`) marks the user; then keys are left to expire. A key the client supplied never comes here.
 */
import type { CallOrigin } from '../call.ts';
import { LegacyError } from '../errors.ts';
import type { Upstream } from '../upstream/index.ts';
import { struct } from '../value.ts';

/** How a retirement ended. */
export type RetireOutcome = 'revoked' | 'gone' | 'unavailable';

/** Revokes keys where the upstream allows it. */
export interface Retirer {
  /**
   * Revokes `key` (owned by `uid` in `keyDatabase`, the database the key was obtained in: a
   * retirement runs after the call, with the gateway's own origin) with itself as the bearer. Never throws.
   */
  revoke(keyDatabase: string, uid: number | bigint, key: string, origin: CallOrigin): Promise<RetireOutcome>;
}

/** Creates a retirer with its feature-detection memory (one probe per database at a time). */
export function createRetirer(upstream: Upstream): Retirer {
  const hasRevoke = new Map<string, boolean>();
  const notEnabled = new Set<string>();
  const probes = new Map<string, Promise<RetireOutcome>>();

  async function attempt(db: string, user: string, key: string, origin: CallOrigin): Promise<RetireOutcome> {
    try {
      await upstream.json2({ db, key, model: 'res.users.apikeys', method: 'revoke', body: struct({ key }) }, origin);
      hasRevoke.set(db, true);
      return 'revoked';
    } catch (err) {
      if (!(err instanceof LegacyError)) return 'unavailable';
      if (err.name === 'werkzeug.exceptions.NotFound' && /does not exist/.test(err.message)) {
        hasRevoke.set(db, false);
        return 'unavailable';
      }
      if (err.kind === 'user_error' && /not enabled/.test(err.message)) {
        notEnabled.add(user);
        return 'unavailable';
      }
      // 401 (expired, removed) or 403 "invalid": the key no longer works anyway
      if (err.name === 'werkzeug.exceptions.Unauthorized' || err.kind === 'access_denied') return 'gone';
      return 'unavailable';
    }
  }

  return {
    async revoke(db, uid, key, origin) {
      const user = `${db}\u0000${uid}`;
      const probe = probes.get(db);
      if (probe !== undefined) await probe;
      if (hasRevoke.get(db) === false || notEnabled.has(user)) return 'unavailable';
      const run = attempt(db, user, key, origin);
      if (!hasRevoke.has(db) && !probes.has(db)) {
        probes.set(db, run);
        void run.finally(() => probes.delete(db));
      }
      return run;
    },
  };
}
