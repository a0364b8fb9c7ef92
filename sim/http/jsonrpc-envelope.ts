/**
 * `type='jsonrpc'` routes (Odoo: `odoo/http.py` `JsonRPCDispatcher`, `odoo/http.py` JsonRPCDispatcher): the request envelope
 * (415 HTML for a wrong content type, 400 for bad JSON) and the answer envelope — `result` (left out
 * for None), or `error` with code 0 "Odoo Server Error", or code 100 for an expired session.
 */
import { JsonSyntaxError, parseJson } from '../../src/json/index.ts';
import { struct, type Struct, type Value } from '../../src/value.ts';
import { errorToBody, type OdooError } from '../errors.ts';
import { unsupportedMediaTypePage } from './html-pages.ts';
import { htmlResponse, jsonResponse, mimetypeOf, type SimRequest, type SimResponse } from './http-types.ts';

/** A parsed JSON-RPC request: its `id` and its `params` object. */
export interface JsonRpcRequest {
  id: Value;
  params: Struct;
}

/**
 * The JSON-RPC dispatcher's refusal of a body it cannot read: a 400 whose body is the bare
 * description (`Response(description, 400)`, no Werkzeug page around it).
 */
export function badJsonRpcRequest(description: 'Invalid JSON data' | 'Invalid JSON-RPC data'): SimResponse {
  return htmlResponse(400, description);
}

/** Reads the envelope, or the HTML answer Odoo gives before its dispatcher runs. */
export function readJsonRpc(req: SimRequest): JsonRpcRequest | SimResponse {
  const mimetype = mimetypeOf(req);
  if (mimetype !== 'application/json' && mimetype !== 'application/json-rpc') {
    const compatible = req.body === '' ? ['http', 'json2'] : ['http'];
    return htmlResponse(415, unsupportedMediaTypePage(compatible, req.path, 'jsonrpc'));
  }
  let envelope: Value;
  try {
    envelope = parseJson(req.body);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return badJsonRpcRequest('Invalid JSON data');
    throw err;
  }
  if (!(envelope instanceof Map)) return badJsonRpcRequest('Invalid JSON-RPC data');
  const id = envelope.get('id') ?? null;
  const params = envelope.get('params');
  return { id, params: params instanceof Map ? params : new Map() };
}

/** The success envelope; a None result has no `result` member. */
export function jsonRpcResult(id: Value, result: Value, headers: Record<string, string> = {}): SimResponse {
  const envelope = struct({ jsonrpc: '2.0', id });
  if (result !== null) envelope.set('result', result);
  return jsonResponse(200, envelope, headers);
}

/** The error envelope of an exception raised while serving `where`. */
export function jsonRpcError(id: Value, err: OdooError, where: string): SimResponse {
  return jsonResponse(
    200,
    struct({ jsonrpc: '2.0', id, error: struct({ code: 0, message: 'Odoo Server Error', data: errorToBody(err, where) }) }),
  );
}

/** `SessionExpiredException` on an `auth='user'` route without a logged-in session: code 100. */
export function jsonRpcSessionExpired(id: Value): SimResponse {
  const data = struct({
    name: 'odoo.http.SessionExpiredException',
    message: 'Session expired',
    arguments: ['Session expired'],
    context: new Map(),
    debug:
      'Traceback (most recent call last):\n  File "odoo-simulator", line 1, in _authenticate\nodoo.http.SessionExpiredException: Session expired\n',
  });
  return jsonResponse(200, struct({ jsonrpc: '2.0', id, error: struct({ code: 100, message: 'Odoo Session Expired', data }) }));
}
