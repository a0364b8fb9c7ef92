/**
 * One reading of a request path: the one Odoo's werkzeug (2.2) routes on. Werkzeug percent-decodes
 * the whole path once (`%2F` included, UTF-8 with replacement) and merges runs of slashes (leading
 * ones served as is, inner ones answered with a 308 to the merged path); `/jsonrpc/` is served as
 * `/jsonrpc`; matching is case-sensitive. Measured against Odoo 19.0: `/xmlrpc%2F2%2Fcommon`,
 * `//xmlrpc/2/common`, `/%78mlrpc/2/common`, `/%2Fjsonrpc`, `/jsonrpc%2F` all reach the legacy
 * endpoints; `/XMLRPC/2/common` and `/jsonrpc%20` do not. So the gateway routes by this reading: a
 * spelling Odoo would send to a legacy endpoint is the gateway's, never passed through.
 */

/** The path as werkzeug routes it: percent-decoded once (UTF-8, U+FFFD for bad bytes), runs of `/` merged. */
export function werkzeugPath(path: string): string {
  const decoded = path.includes('%')
    ? path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'))
    : path;
  return decoded.includes('//') ? decoded.replace(/\/{2,}/g, '/') : decoded;
}

/**
 * The gateway route that serves `path` (raw, as the client wrote it, without the query) when Odoo
 * would route it to `/xmlrpc*` or `/jsonrpc`; `undefined` when Odoo would not.
 * @example legacyRoute('/xmlrpc%2F2%2Fcommon') // '/xmlrpc/2/common'
 * @example legacyRoute('/web/login') // undefined
 */
export function legacyRoute(path: string): string | undefined {
  const route = werkzeugPath(path);
  if (route === '/jsonrpc' || route === '/jsonrpc/') return '/jsonrpc';
  // Odoo 19 answers `/xmlrpc/2/common/` as `/xmlrpc/2/common`, and `/xmlrpc/2/` as the v1 route with
  // service '2'; `/xmlrpc` and `/xmlrpc/` name no service, so they are no route of Odoo's (its 404
  // page, passed through)
  // Odoo's routes are `/xmlrpc/<service>` and `/xmlrpc/2/<service>`, a service being one segment:
  // `/xmlrpc/2/object/x` or `/xmlrpc/3/object` are no route (404), and werkzeug resolves no dot
  // segment, so `/xmlrpc/2/./object` is none either
  const xmlrpc = /^\/xmlrpc(\/2)?\/([^/]+)\/?$/.exec(route);
  return xmlrpc ? `/xmlrpc${xmlrpc[1] ?? ''}/${xmlrpc[2] as string}` : undefined;
}

/** The raw path of a request URL (`http://host/p?q` → `/p`), not decoded. */
export function rawPathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf(':') + 3);
  if (start === -1) return '/';
  let end = url.length;
  for (const stop of ['?', '#']) {
    const at = url.indexOf(stop, start);
    if (at !== -1 && at < end) end = at;
  }
  return url.slice(start, end);
}
