/**
 * `POST /json/2/<model>/<method>` with a bearer key and named arguments (Odoo: Odoo's JSON-2 controller
 * (`addons/rpc/controllers/json2.py`)): the one upstream call behind every `object` method.
 */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import type { LegacyError } from '../errors.ts';
import { stringifyJsonBytes } from '../json/index.ts';
import type { JsonText, Struct, Value } from '../value.ts';
import { errorFromAnswer, jsonTextFromAnswer } from './errors/index.ts';
import { forwardedHeaders } from './forwarded-headers.ts';
import type { UpstreamHttp } from './pool.ts';

export interface Json2Call {
  db: string;
  /** The bearer API key. */
  key: string;
  model: string;
  method: string;
  /** `{ids?, context?, ...named}`, sent as is. */
  body: Struct;
  /** `Accept-Language` to send: the request language Odoo's `_()` falls back to (src/legacy/legacy-lang.ts). */
  acceptLanguage?: string | undefined;
}

/** Calls a model method; resolves with its result or rejects with a {@link LegacyError}. */
export async function callJson2(http: UpstreamHttp, config: Config, call: Json2Call, origin: CallOrigin): Promise<Value> {
  return (await callJson2Text(http, config, call, origin)).value();
}

/**
 * The same call, its result kept as the upstream's JSON text: the legacy `object` service hands it
 * on as it is, so XML-RPC can write it without a value tree.
 */
export async function callJson2Text(http: UpstreamHttp, config: Config, call: Json2Call, origin: CallOrigin): Promise<JsonText> {
  const headers = forwardedHeaders(config, origin, call.db);
  headers.authorization = `bearer ${call.key}`;
  headers['content-type'] = 'application/json; charset=utf-8';
  if (call.acceptLanguage !== undefined) headers['accept-language'] = call.acceptLanguage;
  for (const name of config.dbHeaders) headers[name.toLowerCase()] = call.db;
  const path = `/json/2/${encodeURIComponent(call.model)}/${encodeURIComponent(call.method)}`;
  const res = await http.send({ method: 'POST', path, headers, database: call.db, body: stringifyJsonBytes(call.body) }, origin);
  if (res.status === 200 && res.contentType.startsWith('application/json')) {
    return jsonTextFromAnswer(res, http.url, config.maxDepth);
  }
  throw errorFromAnswer(res, http.url, call.db, config.maxDepth) satisfies LegacyError;
}
