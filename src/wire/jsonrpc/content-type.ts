/**
 * `/jsonrpc` is a `type='jsonrpc'` route: Odoo accepts `application/json` and
 * `application/json-rpc` only, and answers anything else with Werkzeug's 415 page (corpus
 * err-jsonrpc-wrong-content-type).
 */

/** The content type of every JSON-RPC answer. */
export const contentTypeJson = 'application/json; charset=utf-8';

/** True when the request's Content-Type lets Odoo's JSON-RPC dispatcher take the request. */
export function isJsonRpcContentType(header: string | undefined): boolean {
  const mime = (header ?? '').split(';', 1)[0]?.trim().toLowerCase();
  return mime === 'application/json' || mime === 'application/json-rpc';
}

/** Werkzeug's 415 page, naming the request types Odoo inferred from the request. */
export function unsupportedMediaTypePage(hasBody: boolean): string {
  const inferred = hasBody ? '[&#39;http&#39;]' : '[&#39;http&#39;, &#39;json2&#39;]';
  return (
    '<!doctype html>\n<html lang=en>\n<title>415 Unsupported Media Type</title>\n<h1>Unsupported Media Type</h1>\n' +
    `<p>Request inferred type is compatible with ${inferred} but &#39;/jsonrpc&#39; is type=&#39;jsonrpc&#39;.` +
    '<br><br>Please verify the Content-Type request header and try again.</p>\n'
  );
}

/**
 * Odoo's 400 for a body its JSON-RPC dispatcher cannot read: the bare description ("Invalid JSON
 * data", "Invalid JSON-RPC data") as a text/html body, no Werkzeug page around it.
 */
export function badRequestPage(description: string): string {
  return description;
}

/**
 * Werkzeug's 500 page: what Odoo answers when its own JSON answer cannot be encoded (a lone
 * surrogate the request carried, echoed in a result or in an exception's arguments).
 */
export const internalServerErrorPage =
  '<!doctype html>\n<html lang=en>\n<title>500 Internal Server Error</title>\n<h1>Internal Server Error</h1>\n' +
  '<p>The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application.</p>\n';
