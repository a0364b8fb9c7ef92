/** The simulator's framework-free request and response shapes (node:http stays in `http-server.ts`). */
import { stringifyJson } from '../src/json/index.ts';
import type { Value } from '../src/value.ts';

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
}

export const contentTypeJson = 'application/json; charset=utf-8';
export const contentTypeHtml = 'text/html; charset=utf-8';

/** `make_json_response`: `json.dumps(ensure_ascii=False)` with Python's separators. */
export function jsonResponse(status: number, value: Value, headers: Record<string, string> = {}): SimResponse {
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
