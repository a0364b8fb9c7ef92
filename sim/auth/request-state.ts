/**
 * What Odoo's `request` global gives a method during an HTTP call: the web session (saved when it
 * came from a cookie, throwaway for bearer calls), the key store, and the build's rules. Methods
 * decorated `@check_identity` read `identity-check-last` from it; without a request they refuse.
 */
import type { KeyStore } from './key-store.ts';
import type { SimSession } from './sessions.ts';

/** The request-scoped state a method may use. */
export interface SimRequestState {
  session: SimSession;
  keys: KeyStore;
  /** The later 19.0 build's rules: public `res.users.apikeys.generate` / `revoke` (Odoo: `res_users.py` `res.users.apikeys.generate` (later builds)). */
  laterBuild: boolean;
}
