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
