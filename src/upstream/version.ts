/**
 * The version routes: `POST /web/webclient/version_info` (JSON-RPC, returns exactly
 * `common.version()`'s dict) with a fallback reshaping `GET /web/version` (Odoo: `addons/web/controllers/webclient.py`).
 */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { isStruct, struct, type Value } from '../value.ts';
import { errorFromAnswer, errorFromJsonRpc, jsonFromAnswer, upstreamError } from './errors/index.ts';
import { forwardedHeaders } from './forwarded-headers.ts';
import type { UpstreamHttp } from './pool.ts';

/** `common.version()`'s dict as the upstream reports it. */
export async function fetchVersionInfo(http: UpstreamHttp, config: Config, origin: CallOrigin): Promise<Value> {
  const headers = forwardedHeaders(config, origin, undefined);
  headers['content-type'] = 'application/json';
  const body = '{"jsonrpc":"2.0","method":"call","params":{},"id":null}';
  const res = await http.send({ method: 'POST', path: '/web/webclient/version_info', headers, body }, origin);
  if (res.status === 200 && res.contentType.startsWith('application/json')) {
    const envelope = jsonFromAnswer(res, http.url, config.maxDepth);
    if (isStruct(envelope) && envelope.has('result')) return envelope.get('result') as Value;
    const error = isStruct(envelope) ? envelope.get('error') : undefined;
    if (error !== undefined && isStruct(error)) {
      throw errorFromJsonRpc(error, upstreamError('upstream_invalid', 'upstream version_info failed', http.url, res.elapsedMs));
    }
  }
  if (res.status !== 404) throw errorFromAnswer(res, http.url, '', config.maxDepth);
  return fetchWebVersion(http, config, origin);
}

/** `GET /web/version` reshaped into `common.version()`'s keys. */
async function fetchWebVersion(http: UpstreamHttp, config: Config, origin: CallOrigin): Promise<Value> {
  const headers = forwardedHeaders(config, origin, undefined);
  const res = await http.send({ method: 'GET', path: '/web/version', headers }, origin);
  if (res.status !== 200) throw errorFromAnswer(res, http.url, '', config.maxDepth);
  const body = jsonFromAnswer(res, http.url, config.maxDepth);
  const info = isStruct(body) ? body.get('version_info') : undefined;
  const version = isStruct(body) ? body.get('version') : undefined;
  if (!Array.isArray(info) || typeof version !== 'string') {
    throw upstreamError('upstream_invalid', 'upstream /web/version answer has no version_info', http.url, res.elapsedMs);
  }
  return struct({
    server_version: version,
    server_version_info: info,
    server_serie: `${String(info[0])}.${String(info[1])}`,
    protocol_version: 1,
  });
}
