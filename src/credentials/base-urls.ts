/**
 * The `web.base.url` of each database, so that the gateway's password logins are made at the URL
 * root Odoo already has and leave the parameter (and its write date) untouched, as a native legacy
 * login does (docs/first-run.md). Learnt from the service key right before a login (system users'
 * keys may read system parameters), else from what the last login's `session_info` stated, else
 * Odoo's own address as the gateway reaches it (what a login made there directly would store).
 * Web logins that pass through the gateway (`/web/session/authenticate`, as OdooRPC logs in) are
 * made at the value when it is known (`known`), and teach it (their `session_info` states it).
 * A base URL no login can be made at (a path: Odoo's ProxyFix takes no prefix) is logged in at its
 * own root: never at the client's Host, which would let a caller choose what a system user's login
 * stores (the start-up check warns to freeze the parameter there).
 */
import type { CallOrigin } from '../call.ts';
import type { ServiceKeys } from '../service-keys.ts';
import { baseUrlHeaders, type Upstream } from '../upstream/index.ts';
import { struct } from '../value.ts';

/** The table of base URLs. */
export interface BaseUrls {
  /** The base URL to log in at in `db`, read afresh with the service key where it can be. Never rejects. */
  forLogin(db: string, origin: CallOrigin): Promise<string>;
  /** As `forLogin`, without the fall-back to Odoo's own address: undefined when nothing says it. Never rejects. */
  known(db: string, origin: CallOrigin): Promise<string | undefined>;
  /** Records what a login's answer stated. */
  learn(db: string, baseUrl: string | undefined): void;
}

/** Creates the table; `upstreamUrl` is Odoo's address as the gateway reaches it. */
export function createBaseUrls(options: { upstream: Upstream; serviceKeys: ServiceKeys | undefined; upstreamUrl: string }): BaseUrls {
  const { upstream, serviceKeys } = options;
  const known = new Map<string, string>();
  const ownRoot = new URL(options.upstreamUrl).origin;

  async function read(db: string, origin: CallOrigin): Promise<string | undefined> {
    const key = serviceKeys?.keyFor(db);
    if (key === undefined) return undefined;
    try {
      const value = await upstream.json2(
        { db, key, model: 'ir.config_parameter', method: 'get_param', body: struct({ key: 'web.base.url', default: false }) },
        origin,
      );
      return typeof value === 'string' && value !== '' ? value : undefined;
    } catch {
      return undefined; // not a system user's key, or the upstream away: what was learnt stands
    }
  }

  async function knownFor(db: string, origin: CallOrigin): Promise<string | undefined> {
    const fresh = await read(db, origin);
    if (fresh !== undefined) known.set(db, fresh);
    return known.get(db);
  }

  /** `baseUrl` where a login can be made at it, else its scheme and host, else Odoo's own address. */
  function loginRoot(baseUrl: string | undefined): string {
    if (baseUrl === undefined || baseUrlHeaders(baseUrl) !== undefined) return baseUrl ?? ownRoot;
    const root = URL.canParse(baseUrl) ? new URL(baseUrl).origin : 'null';
    return root !== 'null' && baseUrlHeaders(root) !== undefined ? root : ownRoot;
  }

  return {
    async forLogin(db, origin) {
      return loginRoot(await knownFor(db, origin));
    },
    async known(db, origin) {
      const value = await knownFor(db, origin);
      return value === undefined ? undefined : loginRoot(value);
    },
    learn(db, baseUrl) {
      if (baseUrl !== undefined) known.set(db, baseUrl);
    },
  };
}
