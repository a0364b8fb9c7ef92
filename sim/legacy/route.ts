/**
 * The legacy endpoints `/xmlrpc/<service>`, `/xmlrpc/2/<service>` and `/jsonrpc` (Odoo: `addons/rpc/controllers/xmlrpc.py`),
 * served only when the simulator is started with them (`legacyEndpoints`): by default it answers
 * them 404 like an Odoo without the `rpc` module, so a test of the gateway can never be answered by
 * them by mistake. Shadow-mode tests turn them on; a service can be removed (Odoo 20 drops `db`),
 * and one answer type can be perturbed to prove a difference is detected.
 */
import type { Value } from '../../src/value.ts';
import { debugText as simDebugText, errorFrom, errorToBody, OdooError } from '../errors.ts';
import { reprString } from '../python-repr.ts';
import { werkzeugPage } from '../http/html-pages.ts';
import { hasLoneSurrogate, htmlResponse, mimetypeOf, unencodableResponse, type SimRequest, type SimResponse } from '../http/http-types.ts';
import { readJsonRpc } from '../http/jsonrpc-envelope.ts';
import { pythonJson } from './json-write.ts';
import { builtin, builtinName, dispatchCommon, dispatchDb, dispatchObject, type LegacyServiceState } from './services.ts';
import { readMethodCall, XmlRpcReadError } from './xmlrpc-read.ts';
import { MarshalError, writeFault, writeResult, type Perturbation } from './xmlrpc-write.ts';

/** The legacy endpoints' live settings (tests change them between calls). */
export interface LegacyEndpointSettings {
  /** Served at all; false: 404, as an Odoo without them. */
  enabled: boolean;
  /** Services answered as unknown (`KeyError` from `rpc_dispatchers`), as a later Odoo without them. */
  removedServices: Set<string>;
  /** Writes one answer type wrongly (floats as ints), so a comparison must notice. */
  perturb: Perturbation | undefined;
}

/** The paths the legacy endpoints own. */
export function isLegacyPath(path: string): boolean {
  return path === '/jsonrpc' || /^\/xmlrpc\/(2\/)?[^/]+$/.test(path);
}

const xmlHeaders = { 'Content-Type': 'text/xml; charset=utf-8' };
const jsonHeaders = { 'Content-Type': 'application/json; charset=utf-8' };

/**
 * `odoo.http.dispatch_rpc`: 19.0 looks the service up in `rpc_dispatchers` (a KeyError for the ones
 * it lacks); from saas-19.1 on it serves `object` and `common` only and raises
 * `ValueError(f"Invalid service name: {service_name}")` for anything else.
 */
function dispatchRpc(state: LegacyServiceState, settings: LegacyEndpointSettings, service: string, method: string, params: Value[]): Value {
  const { persona } = state;
  if (!persona.legacyServices.includes(service) || settings.removedServices.has(service)) {
    throw persona.unknownService === 'ValueError'
      ? builtin('ValueError', `Invalid service name: ${service}`)
      : builtin('KeyError', service);
  }
  if (service === 'common') return dispatchCommon(state, method, params);
  if (service === 'db') return dispatchDb(state, method, params);
  return dispatchObject(state, method, params);
}

/**
 * The traceback text: the simulator's, except that a KeyError prints the repr of its key
 * (`KeyError: 'foo'`) while its message (`exception_to_unicode`) is the key itself.
 */
function debugText(err: OdooError, where: string): string {
  if (err.odooName !== builtinName('KeyError')) return simDebugText(err, where);
  return `Traceback (most recent call last):\n  File "odoo-simulator", line 1, in ${where}\nKeyError: ${reprString(err.message)}\n`;
}

/** `xmlrpc_handle_exception_int` (Odoo: `addons/rpc/controllers/xmlrpc.py`). */
function faultV2(err: OdooError, where: string): string {
  switch (err.odooName) {
    case 'odoo.exceptions.AccessError':
      return writeFault(4, err.message);
    case 'odoo.exceptions.AccessDenied':
      return writeFault(3, err.message);
    case 'odoo.exceptions.UserError':
    case 'odoo.exceptions.ValidationError':
    case 'odoo.exceptions.MissingError':
    case 'odoo.exceptions.LockError':
    case 'odoo.exceptions.RedirectWarning':
      return writeFault(2, err.message);
    default:
      return writeFault(1, debugText(err, where));
  }
}

/** `xmlrpc_handle_exception_string` (Odoo: `addons/rpc/controllers/xmlrpc.py`). */
function faultV1(err: OdooError, where: string): string {
  switch (err.odooName) {
    case 'odoo.exceptions.RedirectWarning':
      return writeFault(`warning -- Warning\n\n${err.message}`, '');
    case 'odoo.exceptions.MissingError':
      return writeFault(`warning -- MissingError\n\n${err.message}`, '');
    case 'odoo.exceptions.AccessError':
      return writeFault(`warning -- AccessError\n\n${err.message}`, '');
    case 'odoo.exceptions.AccessDenied':
      return writeFault('AccessDenied', err.message);
    case 'odoo.exceptions.UserError':
    case 'odoo.exceptions.ValidationError':
    case 'odoo.exceptions.LockError':
      return writeFault(`warning -- UserError\n\n${err.message}`, '');
    default:
      return writeFault(err.message, debugText(err, where));
  }
}

function xmlrpc(state: LegacyServiceState, settings: LegacyEndpointSettings, req: SimRequest, v2: boolean, service: string): SimResponse {
  const fault = (err: OdooError, where: string) => ({
    status: 200,
    headers: xmlHeaders,
    body: v2 ? faultV2(err, where) : faultV1(err, where),
  });
  let where = 'dispatch_rpc';
  try {
    // get_data() after Werkzeug parsed a form body: nothing left to read
    const form = ['application/x-www-form-urlencoded', 'multipart/form-data'].includes(mimetypeOf(req));
    const call = readMethodCall(form ? '' : req.body);
    where = `${service}.${call.methodName}`;
    const result = dispatchRpc(state, settings, service, call.methodName, call.params);
    return { status: 200, headers: xmlHeaders, body: writeResult(result, settings.perturb) };
  } catch (err) {
    if (err instanceof XmlRpcReadError) return fault(new OdooError(err.pythonName, err.message, 500), where);
    if (err instanceof MarshalError) return fault(builtin(err.pythonName, err.message), where);
    return fault(errorFrom(err), where);
  }
}

function jsonrpc(state: LegacyServiceState, settings: LegacyEndpointSettings, req: SimRequest): SimResponse {
  const rpc = readJsonRpc(req);
  if ('status' in rpc) return rpc;
  const { id, params } = rpc;
  const service = String(params.get('service'));
  const method = String(params.get('method'));
  const args = params.get('args');
  let body: string;
  try {
    const result = dispatchRpc(state, settings, service, method, Array.isArray(args) ? args : []);
    // a None result has no `result` member (Odoo: `odoo/http.py` `JsonRPCDispatcher`)
    body = `{"jsonrpc": "2.0", "id": ${pythonJson(id)}${result === null ? '' : `, "result": ${pythonJson(result, settings.perturb)}`}}`;
  } catch (err) {
    const error = errorFrom(err);
    const data = errorToBody(error, `${service}.${method}`) as Map<string, Value>;
    data.set('debug', debugText(error, `${service}.${method}`));
    body = `{"jsonrpc": "2.0", "id": ${pythonJson(id)}, "error": {"code": 0, "message": "Odoo Server Error", "data": ${pythonJson(data)}}}`;
  }
  if (hasLoneSurrogate(body)) return unencodableResponse();
  return { status: 200, headers: jsonHeaders, body };
}

/** Serves one legacy request (the caller checked {@link isLegacyPath} and that the endpoints are on). */
export function handleLegacy(state: LegacyServiceState, settings: LegacyEndpointSettings, req: SimRequest): SimResponse {
  if (req.path === '/jsonrpc') return jsonrpc(state, settings, req);
  if (req.method !== 'POST') return htmlResponse(405, werkzeugPage(405, 'The method is not allowed for the requested URL.'));
  const m = /^\/xmlrpc\/(2\/)?([^/]+)$/.exec(req.path);
  return xmlrpc(state, settings, req, m?.[1] !== undefined, m?.[2] ?? '');
}
