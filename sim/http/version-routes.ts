/**
 * The db-less routes (Odoo: `addons/web/controllers/webclient.py`): `GET /web/version` (alias `/json/version`), the JSON-RPC
 * `/web/webclient/version_info` (the `common.version()` dict) and `/web/health`. The release is the
 * persona's (`sim/persona.ts`).
 */
import { JsonSyntaxError, parseJson } from '../../src/json/index.ts';
import type { Value } from '../../src/value.ts';
import { htmlResponse, jsonResponse, mimetypeOf, type SimRequest, type SimResponse } from './http-types.ts';
import { unsupportedMediaTypePage } from './html-pages.ts';
import { badJsonRpcRequest } from './jsonrpc-envelope.ts';
import type { Release } from '../persona.ts';

export function webVersion(release: Release): SimResponse {
  return jsonResponse(
    200,
    new Map<string, Value>([
      ['version_info', release.versionInfo],
      ['version', release.version],
    ]),
  );
}

export function webHealth(): SimResponse {
  return jsonResponse(200, new Map<string, Value>([['status', 'pass']]));
}

/** `/web/webclient/version_info`: a JSON-RPC route (`type='jsonrpc'`, `auth='none'`). */
export function webclientVersionInfo(req: SimRequest, release: Release): SimResponse {
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
    ['server_version', release.version],
    ['server_version_info', release.versionInfo],
    ['server_serie', release.serie],
    ['protocol_version', release.protocolVersion],
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
