/**
 * The HTML pages Odoo answers with before its JSON dispatchers take over (Odoo: `odoo/http.py` `Json2Dispatcher.dispatch`, `odoo/http.py`
 * `_get_session_and_dbname`): werkzeug 2.2's default error page, and Odoo's own "no database" 404 page (`NOT_FOUND_NODB`).
 */

const reasons: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  415: 'Unsupported Media Type',
};

/** werkzeug's default description of a 404. */
export const notFoundDescription =
  'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** werkzeug `HTTPException.get_body()`: title, heading, the escaped description with `\n` as `<br>`. */
export function werkzeugPage(code: number, description: string): string {
  const reason = reasons[code] ?? 'Error';
  const body = escapeHtml(description).replace(/\n/g, '<br>');
  return `<!doctype html>\n<html lang=en>\n<title>${code} ${reason}</title>\n<h1>${reason}</h1>\n<p>${body}</p>\n`;
}

/** Odoo's `NOT_FOUND_NODB` page (`odoo/http.py`): no database selected, or an unknown one. */
export function noDatabasePage(): string {
  const reason = reasons[404] as string;
  return [
    '<!DOCTYPE html>',
    `<title>404 ${reason}</title>`,
    `<h1>${reason}</h1>`,
    '<p>No database is selected and the requested URL was not found in the server-wide controllers.</p>',
    '<p>Please verify the hostname, <a href=/web/login>login</a> and try again.</p>',
    '',
    '<!-- Alternatively, use the X-Odoo-Database header. -->',
    '',
  ].join('\n');
}

/**
 * The 415 raised by `_set_request_dispatcher` when a body's type fits no dispatcher of the route:
 * "Request inferred type is compatible with [...] but '<route>' is type='<type>'." (Odoo: `odoo/http.py` `Json2Dispatcher.dispatch`).
 */
export function unsupportedMediaTypePage(compatible: string[], route: string, routeType: string): string {
  const list = `[${compatible.map((t) => `'${t}'`).join(', ')}]`;
  const description =
    `Request inferred type is compatible with ${list} but '${route}' is type='${routeType}'.\n\n` +
    'Please verify the Content-Type request header and try again.';
  return werkzeugPage(415, description);
}
