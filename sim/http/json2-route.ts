/**
 * The `/json/2` routes at the HTTP level, in Odoo's order (Odoo: `addons/rpc/controllers/json2.py`): database selection
 * (session cookie or header: 403 HTML on a conflict, 404 HTML page for none), route match (the
 * catch-all answers 404 JSON for wrong verbs and paths), body type (415 HTML), bearer auth or an
 * interactive cookie session (401/403), body parsing (400; a non-object body is ignored), dispatch.
 */
import { JsonSyntaxError, parseJson } from '../../src/json/index.ts';
import type { Struct } from '../../src/value.ts';
import type { Database } from '../orm/database.ts';
import { type DispatchContext, dispatchJson2 } from './dispatch.ts';
import { badRequest, errorFrom, errorToBody, notFound, type OdooError } from '../errors.ts';
import { noDatabasePage, unsupportedMediaTypePage } from './html-pages.ts';
import { htmlResponse, jsonResponse, mimetypeOf, type SimRequest, type SimResponse } from './http-types.ts';
import type { KeyStore } from '../auth/key-store.ts';
import type { Persona } from '../persona.ts';
import type { MethodSpec } from '../seed.ts';
import { authenticateJson2, sessionAndDatabase } from './session-auth.ts';
import type { SessionStore } from '../auth/sessions.ts';

/** What the JSON-2 routes need from the running simulator. */
export interface Json2State {
  databases: Map<string, Database>;
  keys: KeyStore;
  methods: Map<string, Map<string, MethodSpec>>;
  now: () => Date;
  /** Web sessions (`session_id` cookies). */
  sessions: SessionStore;
  /** The later 19.0 build's rules (Odoo: `res_users.py` `res.users.apikeys.generate` (later builds)). */
  laterBuild: boolean;
  /** Logins with two-factor authentication: their web login stops at `{"uid": null}`. */
  totpLogins: ReadonlySet<string>;
  /** Odoo's `proxy_mode`: X-Forwarded-Host/-Proto make the request's URL root. */
  proxyMode: boolean;
  /** How long a web login's password check takes (its transaction open meanwhile); 0 or absent: none. */
  passwordCheckMs?: number;
  /** The series played (`sim/persona.ts`): its release, methods and models. */
  persona: Persona;
}

const rpcPath = /^\/json\/2\/([^/]+)\/([^/]+)$/;

/** `_get_session_and_dbname` without sessions: the header, else the only database. */
export function selectDatabase(state: Json2State, req: SimRequest): Database | undefined {
  const header = req.headers['x-odoo-database'];
  if (header !== undefined && header !== '') return state.databases.get(header);
  return state.databases.size === 1 ? [...state.databases.values()][0] : undefined;
}

function errorResponse(err: OdooError, where: string): SimResponse {
  return jsonResponse(err.status, errorToBody(err, where), err.headers);
}

/** Serves `/json/2` and `/json/2/...`. */
export function handleJson2(state: Json2State, req: SimRequest): SimResponse {
  const found = sessionAndDatabase(state, req);
  if ('status' in found) return found;
  const db = found.db;
  if (db === undefined) return htmlResponse(404, noDatabasePage());
  const match = rpcPath.exec(req.path);
  const isRpc = match !== null && (req.method === 'POST' || req.method === 'OPTIONS');
  const hasBody = req.body !== '';
  const mimetype = mimetypeOf(req);
  if (hasBody && mimetype !== 'application/json') {
    const compatible = mimetype === 'application/json-rpc' ? ['http', 'jsonrpc'] : ['http'];
    const route = isRpc ? '/json/2/<__model__>/<__method__>' : '/json/2';
    return htmlResponse(415, unsupportedMediaTypePage(compatible, route, 'json2'));
  }
  if (!isRpc) {
    const response = errorResponse(notFound('Did you mean POST /json/2/<model>/<method>?'), 'web_json_2_404');
    return req.method === 'HEAD' ? { ...response, body: '' } : response;
  }
  const [, model = '', method = ''] = match;
  try {
    const { uid, session } = authenticateJson2(req, state.keys, db, found.session);
    let params: Struct = new Map();
    if (hasBody) {
      let body;
      try {
        body = parseJson(req.body);
      } catch (err) {
        if (err instanceof JsonSyntaxError) throw badRequest(`could not parse the body as json: ${err.message}`);
        throw err;
      }
      if (body instanceof Map) params = body;
    }
    const request = { session, keys: state.keys, laterBuild: state.laterBuild };
    const ctx: DispatchContext = { db, uid, keys: state.keys, now: state.now(), methods: state.methods, request };
    return jsonResponse(200, dispatchJson2(ctx, model, method, params));
  } catch (err) {
    return errorResponse(errorFrom(err), `${model}.${method}`);
  }
}
