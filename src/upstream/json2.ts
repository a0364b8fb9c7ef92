/**
 * `POST /json/2/<model>/<method>` with a bearer key and named arguments (reference §2): the one
 * upstream call behind every `object` method.
 */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import type { LegacyError } from '../errors.ts';
import { stringifyJson } from '../json/index.ts';
import type { Struct, Value } from '../value.ts';
import { errorFromAnswer, jsonFromAnswer } from './answer.ts';
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
}

/** Calls a model method; resolves with its result or rejects with a {@link LegacyError}. */
export async function callJson2(http: UpstreamHttp, config: Config, call: Json2Call, origin: CallOrigin): Promise<Value> {
  const headers = forwardedHeaders(config, origin, call.db);
  headers.authorization = `bearer ${call.key}`;
  headers['content-type'] = 'application/json; charset=utf-8';
  for (const name of config.dbHeaders) headers[name.toLowerCase()] = call.db;
  const path = `/json/2/${encodeURIComponent(call.model)}/${encodeURIComponent(call.method)}`;
  const res = await http.send({ method: 'POST', path, headers, body: stringifyJson(call.body) }, origin);
  if (res.status === 200 && res.contentType.startsWith('application/json')) {
    return jsonFromAnswer(res, http.url, config.maxDepth);
  }
  throw errorFromAnswer(res, http.url, call.db, config.maxDepth) satisfies LegacyError;
}
