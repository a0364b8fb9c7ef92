/**
 * TLS to an https upstream: Node's bundled roots, plus the CAs of `--upstream-ca` (a private CA
 * that signed Odoo's certificate). Used by the pool, the passthrough and websocket tunnels alike.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { Config } from '../config.ts';

/** The `ca` option for `tls.connect` and undici's `connect`, or nothing when no CA file is set. */
export function tlsOptionsFrom(config: Pick<Config, 'upstreamCa'>): { ca?: string[] } {
  if (config.upstreamCa === undefined) return {};
  return { ca: [...rootCertificates, readFileSync(config.upstreamCa, 'utf8')] };
}
