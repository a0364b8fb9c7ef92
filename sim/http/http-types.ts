/** The simulator's framework-free request and response shapes (node:http stays in `sim/http-server.ts`). */
import { stringifyJson } from '../../src/json/index.ts';
import type { Value } from '../../src/value.ts';

export interface SimRequest {
  method: string;
  /** The decoded path, without the query string. */
  path: string;
  /** Request headers with lower-cased names. */
  headers: Record<string, string>;
  body: string;
  /** The body's bytes (multipart uploads carry binary files). */
  raw?: Buffer;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A body sent as it is produced (chunked) instead of `body`: database backups. */
  stream?: AsyncIterable<Uint8Array>;
  /** The response to send once it is ready (status and headers included); the rest is ignored. */
  deferred?: Promise<SimResponse>;
}

export const contentTypeJson = 'application/json; charset=utf-8';
export const contentTypeHtml = 'text/html; charset=utf-8';

/** `make_json_response`: `json.dumps(ensure_ascii=False)` with Python's separators. */
export function jsonResponse(status: number, value: Value, headers: Record<string, string> = {}): SimResponse {
  if (holdsLoneSurrogate(value)) return unencodableResponse();
  return {
    status,
    headers: { 'Content-Type': contentTypeJson, ...headers },
    body: stringifyJson(value, { python: true, ensureAscii: false }),
  };
}

export function htmlResponse(status: number, html: string, headers: Record<string, string> = {}): SimResponse {
  return { status, headers: { 'Content-Type': contentTypeHtml, ...headers }, body: html };
}

/** The mimetype of a Content-Type header (`application/json; charset=utf-8` → `application/json`). */
export function mimetypeOf(req: SimRequest): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Whether text holds a lone surrogate (it is not well-formed UTF-16), which `str.encode('utf-8')` refuses. */
export function hasLoneSurrogate(text: string): boolean {
  return !text.isWellFormed();
}

function holdsLoneSurrogate(v: Value): boolean {
  if (typeof v === 'string') return hasLoneSurrogate(v);
  if (Array.isArray(v)) return v.some(holdsLoneSurrogate);
  if (v instanceof Map) return [...v].some(([k, x]) => hasLoneSurrogate(k) || holdsLoneSurrogate(x));
  return false;
}

/**
 * Werkzeug's generic 500 page: what a JSON answer becomes when `json.dumps(ensure_ascii=False)`
 * kept a lone surrogate (from the request) and encoding the body to UTF-8 fails.
 */
export function unencodableResponse(): SimResponse {
  return htmlResponse(
    500,
    '<!doctype html>\n<html lang=en>\n<title>500 Internal Server Error</title>\n<h1>Internal Server Error</h1>\n' +
      '<p>The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application.</p>\n',
  );
}
