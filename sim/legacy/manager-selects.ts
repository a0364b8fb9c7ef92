/**
 * `exp_list_lang()` and `exp_list_countries()` from the simulator's data: the language and country
 * selects of the database manager page it serves (`fixtures/odoo-data/web-database-manager.html`),
 * which Odoo renders from those same two functions. `[code, name]` pairs in page order.
 */
import { readFileSync } from 'node:fs';
import type { Value } from '../../src/value.ts';

const pageUrl = new URL('../../fixtures/odoo-data/web-database-manager.html', import.meta.url);
const cache = new Map<string, Value[]>();

const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (s: string) =>
  s.replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (all, ref: string) =>
    ref[0] === '#'
      ? String.fromCodePoint(ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10))
      : (named[ref] ?? all),
  );

/** The options of `<select name="<name>">`, the empty one left out. */
export function managerSelect(name: 'lang' | 'country_code'): Value[] {
  const known = cache.get(name);
  if (known !== undefined) return structuredClone(known);
  const page = readFileSync(pageUrl, 'utf8');
  const start = page.search(new RegExp(`<select[^>]*\\bname="${name}"`));
  const end = page.indexOf('</select>', start);
  const options: Value[] = [];
  for (const m of page.slice(start, end).matchAll(/<option\b([^>]*)>([^<]*)<\/option>/g)) {
    // the attributes in any order (the default language's option is also `selected`)
    const value = /\bvalue="([^"]*)"/.exec(m[1] ?? '')?.[1] ?? '';
    if (value !== '') options.push([unescape(value), unescape(m[2] ?? '')]);
  }
  cache.set(name, options);
  return structuredClone(options);
}
