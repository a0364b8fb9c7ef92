/**
 * Extracts what Odoo's legacy `common` and `db` services serve from a 19.0 source tree, as Odoo's own
 * source lines: every `def exp_*(…):` of `odoo/service/common.py` and `odoo/service/db.py`, and the
 * line of `db.dispatch` that lists the functions called without the master password. Writes
 * `test/fixtures/odoo19-exp-functions.json`, which `src/legacy/surface.test.ts` holds the declared
 * surface (`src/legacy/surface.ts`) against.
 *
 *   npx tsx scripts/extract-exp-functions.ts /opt/odoo19
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const tree = process.argv[2];
if (tree === undefined) throw new Error('usage: extract-exp-functions.ts <odoo 19.0 source tree>');

const defsOf = (file: string) =>
  readFileSync(join(tree, 'odoo/service', file), 'utf8')
    .replaceAll('\r', '')
    .split('\n')
    .filter((l) => /^def exp_\w+\(/.test(l));

const db = readFileSync(join(tree, 'odoo/service/db.py'), 'utf8').replaceAll('\r', '').split('\n');
const start = db.findIndex((l) => l.startsWith('def dispatch('));
const withoutPassword = db.slice(start).find((l) => /^\s+if method in \[/.test(l));
if (withoutPassword === undefined) throw new Error("db.dispatch's list of functions without a password was not found");

const extract = {
  source: 'odoo/service/common.py and odoo/service/db.py of Odoo 19.0 (scripts/extract-exp-functions.ts)',
  common: defsOf('common.py'),
  db: defsOf('db.py'),
  dbDispatchWithoutPassword: withoutPassword.trim(),
};
const out = new URL('../test/fixtures/odoo19-exp-functions.json', import.meta.url);
writeFileSync(out, `${JSON.stringify(extract, null, 2)}\n`);
console.log(`wrote ${out.pathname}: ${extract.common.length} common, ${extract.db.length} db functions`);
