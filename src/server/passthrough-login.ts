/**
 * A web login passed through (`POST /web/session/authenticate`, as OdooRPC logs in) is made at the
 * URL root Odoo already has in `web.base.url`, as the gateway's own logins are: Odoo's
 * `res.users.authenticate` stores the request's URL root there on a system user's login unless
 * `web.base.url.freeze` is set, and a gateway beside Odoo (another host or port) would otherwise
 * leave its own address in every e-mail link and portal URL (docs/first-run.md). When the gateway
 * does not know the value (no service key able to read it, no login seen yet), the request goes
 * as it came: in a drop-in deployment the client's Host is Odoo's public address anyway.
 */
import type { CallOrigin } from '../call.ts';
import { parseJson } from '../json/index.ts';
import { baseUrlHeaders } from '../upstream/index.ts';
import { isStruct, type Value } from '../value.ts';
import { sessionAuthenticatePath } from './session-login-tap.ts';

/** The base URL Odoo has in `db` when the gateway knows it. Never rejects. */
export type LoginBaseUrl = (db: string, origin: CallOrigin) => Promise<string | undefined>;

/** An authenticate body is a few hundred bytes; a larger one is passed as it came. */
const maxReadBytes = 64 * 1024;

/** The `params.db` of a JSON-RPC authenticate body, else undefined. */
export function loginDatabase(body: Uint8Array): string | undefined {
  if (body.byteLength > maxReadBytes) return undefined;
  let envelope: Value;
  try {
    envelope = parseJson(Buffer.from(body).toString('utf8'), { maxDepth: 64 });
  } catch {
    return undefined;
  }
  const params = isStruct(envelope) ? envelope.get('params') : undefined;
  const db = params !== undefined && isStruct(params) ? params.get('db') : undefined;
  return typeof db === 'string' && db !== '' ? db : undefined;
}

/**
 * The Host and X-Forwarded-Host/-Proto to send instead of the client's for this request, or
 * undefined to send it as it came (another route, a body not in memory, no database named, the base
 * * URL unknown; one with a path is logged in at its root, as the gateway's own logins are).
 */
export async function loginAtBaseUrl(
  request: { method: string; path: string; body: Uint8Array | undefined },
  origin: CallOrigin,
  baseUrlOf: LoginBaseUrl,
): Promise<Record<string, string> | undefined> {
  if (request.method !== 'POST' || request.path !== sessionAuthenticatePath || request.body === undefined) return undefined;
  const db = loginDatabase(request.body);
  if (db === undefined) return undefined;
  const root = await baseUrlOf(db, origin);
  return root === undefined ? undefined : baseUrlHeaders(root);
}
