/**
 * Reads `GET /web/database/manager` (Odoo: `addons/web/controllers/database.py`; `fixtures/odoo-data/web-database-manager.html`):
 * whether the manager is still unprotected, and the `<select>` options Odoo renders from the same
 * functions as legacy `db.list_lang()` and `db.list_countries()` — order kept, HTML unescaped, the
 * empty option dropped.
 */
import { unescapeHtml } from './html-text.ts';

/** What the manager page says. */
export interface ManagerPage {
  /**
   * The master password is still Odoo's default: every form there adopts the master password it
   * is sent (corpus `webdb-insecure-default-master-takeover`).
   */
  insecure: boolean;
  /** `[code, name]` of the language select, in page order; undefined when the page has none. */
  langs: [string, string][] | undefined;
  /** `[code, name]` of the country select, in page order; undefined when the page has none. */
  countries: [string, string][] | undefined;
}

/** The warning Odoo shows while `verify_admin_password('admin')` holds. */
const insecureMarker = /database manager is not protected/i;

function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`, 'i').exec(tag);
  return m === null ? undefined : unescapeHtml(m[1] ?? '');
}

/** The options of the `<select name="…">`, or undefined when there is no such select. */
function selectOptions(html: string, name: string): [string, string][] | undefined {
  for (const open of html.matchAll(/<select\b[^>]*>/gi)) {
    if (attribute(open[0], 'name') !== name) continue;
    const start = (open.index ?? 0) + open[0].length;
    const end = html.indexOf('</select>', start);
    const body = html.slice(start, end === -1 ? undefined : end);
    const out: [string, string][] = [];
    for (const option of body.matchAll(/<option\b([^>]*)>([^<]*)<\/option>/gi)) {
      const value = attribute(` ${option[1] ?? ''}`, 'value') ?? '';
      if (value !== '') out.push([value, unescapeHtml(option[2] ?? '')]);
    }
    return out;
  }
  return undefined;
}

/** Parses the manager page. */
export function parseManagerPage(html: string): ManagerPage {
  return { insecure: insecureMarker.test(html), langs: selectOptions(html, 'lang'), countries: selectOptions(html, 'country_code') };
}
