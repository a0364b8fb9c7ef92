/**
 * `GET /doc-bearer/<model>.json` (addons/api_doc, Odoo: `addons/api_doc`): a model's method
 * documentation, with the bearer key, the database headers JSON-2 uses, and `If-None-Match` so an
 * unchanged registry answers 304.
 */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import type { LegacyError } from '../errors.ts';
import type { Value } from '../value.ts';
import { errorFromAnswer, jsonFromAnswer } from './errors/index.ts';
import { forwardedHeaders } from './forwarded-headers.ts';
import type { UpstreamHttp } from './pool.ts';

/** One documentation request: for which database and model, with which key, against which ETag. */
export interface DocBearerRequest {
  db: string;
  /** The bearer API key: the database's service key, or the key of the call that needs the document. */
  key: string;
  model: string;
  /** The ETag of the copy the caller holds, sent as `If-None-Match`. */
  etag?: string | undefined;
}

/** 200: the document and its ETag; 304: the caller's copy is still current. */
export type DocBearerAnswer = { status: 'modified'; etag: string | undefined; body: Value } | { status: 'not-modified' };

/**
 * Fetches one model's documentation. Rejects with a {@link LegacyError} for any other answer: 403
 * `odoo.exceptions.AccessError` (the key's user lacks the Technical Documentation group), 401
 * `werkzeug.exceptions.Unauthorized`, 404, or a transport failure.
 */
export async function fetchDocBearer(
  http: UpstreamHttp,
  config: Config,
  request: DocBearerRequest,
  origin: CallOrigin,
): Promise<DocBearerAnswer> {
  const headers = forwardedHeaders(config, origin, request.db);
  headers.authorization = `bearer ${request.key}`;
  for (const name of config.dbHeaders) headers[name.toLowerCase()] = request.db;
  if (request.etag !== undefined) headers['if-none-match'] = request.etag;
  const path = `/doc-bearer/${encodeURIComponent(request.model)}.json`;
  const res = await http.send({ method: 'GET', path, headers, database: request.db }, origin);
  if (res.status === 304) return { status: 'not-modified' };
  if (res.status === 200 && res.contentType.startsWith('application/json')) {
    const etag = res.headers.etag;
    return { status: 'modified', etag: typeof etag === 'string' ? etag : undefined, body: jsonFromAnswer(res, http.url, config.maxDepth) };
  }
  throw errorFromAnswer(res, http.url, request.db, config.maxDepth) satisfies LegacyError;
}
