/**
 * Classifies what a `/web/database/*` form post answered (docs/architecture.md §3 db "Answers"; Odoo:
 * `addons/web/controllers/database.py`): a 303 redirect is success; an HTML page with an `alert-danger` (HTTP 200 on 19.0, 4xx on later
 * versions) carries the error text after `Database <op> error: ` or `Could not <op> database. `; anything else is not an answer the gateway
 * understands.
 */
import { unescapeHtml } from '../html-text.ts';

/** A form post's answer, classified. */
export type DatabaseAnswer =
  /** The operation succeeded (303 See Other); `location` is where Odoo sends the browser. */
  | { kind: 'done'; location: string }
  /** The controller caught an exception and rendered its text on the manager page. */
  | { kind: 'error'; text: string }
  /** Neither: a proxy page, a 404, a 500 traceback page… */
  | { kind: 'unexpected'; status: number };

const alertDanger = /<div\b[^>]*class="[^"]*\balert-danger\b[^"]*"[^>]*>([\s\S]*?)<\/div>/i;
// 19.0: "Database creation error: …", "Master password update error: …"; later: "Could not drop database. …"
const errorPrefix = /^\s*(?:Database [a-z]+ error: |Master password update error: |Could not [a-z_ ]+ database\.\s*)/i;

/** The exception text of an error page's `alert-danger`, or undefined when it has none. */
export function errorTextOf(html: string): string | undefined {
  const m = alertDanger.exec(html);
  if (m === null) return undefined;
  const text = unescapeHtml((m[1] ?? '').replace(/<br\s*\/?>/gi, '\n'));
  const prefix = errorPrefix.exec(text);
  return prefix === null ? text.trim() : text.slice(prefix[0].length);
}

/** Classifies an answer from its status, content type, `Location` header and body text. */
export function classifyDatabaseAnswer(status: number, contentType: string, location: string | undefined, body: string): DatabaseAnswer {
  if (status === 303 || status === 302) return { kind: 'done', location: location ?? '' };
  if ((status === 200 || (status >= 400 && status < 500)) && contentType.startsWith('text/html')) {
    const text = errorTextOf(body);
    if (text !== undefined) return { kind: 'error', text };
  }
  return { kind: 'unexpected', status };
}
