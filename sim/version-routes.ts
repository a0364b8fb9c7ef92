/**
 * The db-less routes (Odoo: `addons/web/controllers/webclient.py`): `GET /web/version` (alias `/json/version`), the JSON-RPC
 * `/web/webclient/version_info` (the `common.version()` dict) and `/web/health`.
 */
import { JsonSyntaxError, parseJson } from '../src/json/index.ts';
import type { Value } from '../src/value.ts';
import { htmlResponse, jsonResponse, mimetypeOf, type SimRequest, type SimResponse } from './http-types.ts';
import { unsupportedMediaTypePage } from './html-pages.ts';
import { badJsonRpcRequest } from './jsonrpc-envelope.ts';

/** The simulated release (`odoo/release.py`): 19.0 final. */
export const odooRelease = {
  versionInfo: [19, 0, 0, 'final', 0, ''] as Value[],
  version: '19.0',
  serie: '19.0',
  protocolVersion: 1,
};

export function webVersion(): SimResponse {
  return jsonResponse(
    200,
    new Map<string, Value>([
      ['version_info', odooRelease.versionInfo],
      ['version', odooRelease.version],
    ]),
  );
}

export function webHealth(): SimResponse {
  return jsonResponse(200, new Map<string, Value>([['status', 'pass']]));
}

/** `/web/webclient/version_info`: a JSON-RPC route (`type='jsonrpc'`, `auth='none'`). */
export function webclientVersionInfo(req: SimRequest): SimResponse {
  const mimetype = mimetypeOf(req);
  if (mimetype !== 'application/json' && mimetype !== 'application/json-rpc') {
    const compatible = req.body === '' ? ['http', 'json2'] : ['http'];
    return htmlResponse(415, unsupportedMediaTypePage(compatible, req.path, 'jsonrpc'));
  }
  let request: Value;
  try {
    request = parseJson(req.body);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return badJsonRpcRequest('Invalid JSON data');
    throw err;
  }
  const id = request instanceof Map ? (request.get('id') ?? null) : null;
  const result = new Map<string, Value>([
    ['server_version', odooRelease.version],
    ['server_version_info', odooRelease.versionInfo],
    ['server_serie', odooRelease.serie],
    ['protocol_version', odooRelease.protocolVersion],
  ]);
  return jsonResponse(
    200,
    new Map<string, Value>([
      ['jsonrpc', '2.0'],
      ['id', id],
      ['result', result],
    ]),
  );
}
