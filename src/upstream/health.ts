/**
 * `GET /web/health` (Odoo's load-balancer probe, `{"status": "pass"}`): whether the upstream
 * answers at all, for the admin port's `/readyz`.
 */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { forwardedHeaders } from './forwarded-headers.ts';
import type { UpstreamHttp } from './pool.ts';
import { upstreamError } from './transport-error.ts';

/** Resolves when the upstream answers 200; rejects with a LegacyError (unreachable, timeout, other status). */
export async function checkHealth(http: UpstreamHttp, config: Config, origin: CallOrigin): Promise<void> {
  const res = await http.send({ method: 'GET', path: '/web/health', headers: forwardedHeaders(config, origin, undefined) }, origin);
  if (res.status !== 200) throw upstreamError('upstream_invalid', `upstream /web/health answered ${res.status}`, http.url, res.elapsedMs);
}
