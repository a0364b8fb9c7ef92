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
  /** Keeps a `common.version()` dict fetched elsewhere (the start-up check's) as the current answer. */
  remember(info: Value): void;
  /**
   * The upstream's `server_serie` (`19.0`, `saas~19.1`, `20.0`) from the last answer any fetch got,
   * or undefined before one: the signatures layer reads it on every model call, so it never waits
   * for it. It changes only when Odoo is upgraded, and every fetch (the start-up check, a client's
   * `common.version`) brings it up to date.
   */
  serie(): string | undefined;
}

function serieOf(info: Value): string | undefined {
  const serie = isStruct(info) ? info.get('server_serie') : undefined;
  return typeof serie === 'string' ? serie : undefined;
}

export function createVersionCache(upstream: Upstream, ttlMs: number, now: () => number = Date.now): VersionCache {
  let cached: { value: Value; at: number } | undefined;
  let pending: Promise<Value> | undefined;
  let lastSerie: string | undefined;
  const remember = (value: Value) => {
    cached = { value, at: now() };
    lastSerie = serieOf(value) ?? lastSerie;
  };
  async function get(origin: CallOrigin): Promise<Value> {
    if (cached && now() - cached.at < ttlMs) return cached.value;
    pending ??= upstream.versionInfo(origin).then(
      (value) => {
        remember(value);
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
    remember,
    serie: () => lastSerie,
    async serverVersion(origin) {
      const info = await get(origin);
      const version = isStruct(info) ? info.get('server_version') : undefined;
      return typeof version === 'string' ? version : '';
    },
  };
}
