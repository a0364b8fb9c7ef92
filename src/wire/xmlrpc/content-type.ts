/**
 * Content types of the XML-RPC endpoints. Odoo's `/xmlrpc/<service>` and `/xmlrpc/2/<service>`
 * routes are `type='http'` (Odoo: `addons/rpc/controllers/xmlrpc.py`): the request body is read whatever the
 * `Content-Type` says, or without one, so the gateway accepts any too. Every answer, faults and
 * parse errors included, is HTTP 200 with the type below (fixtures/conformance/INDEX.md findings §1–2).
 */

/** The `Content-Type` of every XML-RPC answer. */
export const contentTypeXml = 'text/xml; charset=utf-8';

/**
 * werkzeug reads a form body (`application/x-www-form-urlencoded`, `multipart/form-data`; any case,
 * spaces or parameters) into `request.form` when Odoo's dispatcher collects the request's params,
 * before `_xmlrpc` calls `get_data()`: that finds nothing left, and expat answers `no element found:
 * line 1, column 0` (a real Odoo 19 does so). The XML of such a request is read as empty.
 */
export function isFormContentType(contentType: string | undefined): boolean {
  const mimetype = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  return mimetype === 'application/x-www-form-urlencoded' || mimetype === 'multipart/form-data';
}

/**
 * The largest form body werkzeug parses, or `undefined` for no form: Odoo's `max_form_memory_size`
 * (10 MiB) bounds a urlencoded body's declared length; both form types stay under `maxBody`
 * (`max_content_length`). Past it, werkzeug's 413 page (`formTooLargePage`).
 */
export function formLimit(contentType: string | undefined, maxBody: number): number | undefined {
  if (!isFormContentType(contentType)) return undefined;
  const urlencoded = (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
  return urlencoded ? Math.min(10 * 1024 * 1024, maxBody) : maxBody;
}

/** werkzeug's RequestEntityTooLarge page, as Odoo 19 sends it (HTTP 413, `text/html; charset=utf-8`). */
export const formTooLargePage =
  '<!doctype html>\n<html lang=en>\n<title>413 Request Entity Too Large</title>\n<h1>Request Entity Too Large</h1>\n' +
  '<p>The data value transmitted exceeds the capacity limit.</p>\n';

/** Whether a request `Content-Type` is accepted: always, as on Odoo's `type='http'` routes. */
export function isRequestContentTypeAccepted(_contentType: string | undefined): boolean {
  return true;
}
