/**
 * Content types of the XML-RPC endpoints. Odoo's `/xmlrpc/<service>` and `/xmlrpc/2/<service>`
 * routes are `type='http'` (reference odoo19.md §4.1): the request body is read whatever the
 * `Content-Type` says, or without one, so the gateway accepts any too. Every answer, faults and
 * parse errors included, is HTTP 200 with the type below (corpus findings §1–2).
 */

/** The `Content-Type` of every XML-RPC answer. */
export const contentTypeXml = 'text/xml; charset=utf-8';

/** Whether a request `Content-Type` is accepted: always, as on Odoo's `type='http'` routes. */
export function isRequestContentTypeAccepted(_contentType: string | undefined): boolean {
  return true;
}

/** The request types Werkzeug parses as a form when the body is first asked for. */
const formTypes = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/**
 * The body Odoo's XML-RPC route parses: `request.httprequest.get_data()`, which is empty once
 * Werkzeug has consumed a form body (Odoo then faults `ExpatError: no element found`).
 */
export function bodyOdooReads(contentType: string | undefined, body: Uint8Array): Uint8Array {
  const mime = (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return formTypes.has(mime) ? new Uint8Array(0) : body;
}
