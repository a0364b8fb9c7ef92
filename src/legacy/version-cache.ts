/**
 * `common.version()` answers, reused for a short while: every legacy client asks for them at start
 * and they only change when the upstream is upgraded.
 */
import type { CallOrigin } from '../call.ts';
import type { Upstream } from '../upstream/index.ts';
import { isStruct, type Value } from '../value.ts';

export interface VersionCache {
  /** The upstream's `common.version()` dict. */
  get(origin: CallOrigin): Promise<Value>;
  /** Its `server_version` string (also `db.server_version()` and `about(True)`). */
  serverVersion(origin: CallOrigin): Promise<string>;
}

export function createVersionCache(upstream: Upstream, ttlMs: number, now: () => number = Date.now): VersionCache {
  let cached: { value: Value; at: number } | undefined;
  let pending: Promise<Value> | undefined;
  async function get(origin: CallOrigin): Promise<Value> {
    if (cached && now() - cached.at < ttlMs) return cached.value;
    pending ??= upstream.versionInfo(origin).then(
      (value) => {
        cached = { value, at: now() };
        pending = undefined;
        return value;
      },
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    );
    return pending;
  }
  return {
    get,
    async serverVersion(origin) {
      const info = await get(origin);
      const version = isStruct(info) ? info.get('server_version') : undefined;
      return typeof version === 'string' ? version : '';
    },
  };
}
