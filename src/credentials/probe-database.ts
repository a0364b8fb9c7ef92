/**
 * Tells a known database from an unknown one without credentials: an unauthenticated JSON-2 call
 * gets 401 from a database that exists and Odoo's no-database page from one that does not.
 */
import type { CallOrigin } from '../call.ts';
import type { Upstream } from '../upstream/index.ts';
import { isUnauthorized } from './passthrough.ts';

/** Resolves when `db` exists upstream; rejects with the legacy unknown-database fault otherwise. */
export async function probeDatabase(upstream: Upstream, db: string, origin: CallOrigin): Promise<void> {
  try {
    await upstream.json2({ db, key: '-', model: 'res.users', method: 'context_get', body: new Map() }, origin);
  } catch (err) {
    if (isUnauthorized(err)) return;
    throw err;
  }
}
