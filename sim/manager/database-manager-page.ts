/**
 * `/web/database/manager` (Odoo: `addons/web/controllers/database.py`): the real Odoo 19 page of `fixtures/odoo-data/` re-rendered
 * from the simulator's state — its database list, the "not protected" warnings while the master
 * password is still the default, and the `alert-danger` an error page adds. The language and country
 * selects stay as Odoo rendered them from `exp_list_lang()` / `exp_list_countries()`.
 */
import { readFileSync } from 'node:fs';

/** What the page shows. */
export interface ManagerPageState {
  databases: readonly string[];
  /** `verify_admin_password('admin')`: the default master password is still in force. */
  insecure: boolean;
  /** The error text of a failed operation (`Database creation error: …`). */
  error?: string;
}

const templateUrl = new URL('../../fixtures/odoo-data/web-database-manager.html', import.meta.url);

/** markupsafe's escape, as QWeb's `t-out` applies it. */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
}

interface Template {
  /** Up to the logo line, included. */
  head: string;
  /** The "not protected" warning under the logo. */
  warning: string;
  /** From `<div class="list-group">` to the first database item. */
  listStart: string;
  /** One database item, for the database `model`. */
  item: string;
  /** From the end of the list to the end of the page. */
  tail: string;
  /** The database name the item was captured with. */
  model: string;
}

function slice(text: string, from: string, to: string, after = 0): [number, number] {
  const start = text.indexOf(from, after);
  const end = start === -1 ? -1 : text.indexOf(to, start + from.length);
  if (start === -1 || end === -1) throw new Error(`web-database-manager.html: cannot find ${JSON.stringify(from)}…${JSON.stringify(to)}`);
  return [start, end + to.length];
}

function loadTemplate(): Template {
  const page = readFileSync(templateUrl, 'utf8');
  const [, logoEnd] = slice(page, '<img src="/web/static/img/logo2.png"', '/>\n');
  const [warningStart, warningEnd] = slice(page, '                    <div class="alert alert-warning">', '</div>\n', logoEnd);
  const itemOpen = '                            <div class="list-group-item';
  const firstItem = page.indexOf(itemOpen, warningEnd);
  const secondItem = page.indexOf(itemOpen, firstItem + 1);
  const listEnd = page.indexOf('\n                    </div>\n                        <div class="d-flex mt-2">', secondItem);
  if (warningStart !== logoEnd || firstItem === -1 || secondItem === -1 || listEnd === -1)
    throw new Error('web-database-manager.html: unexpected layout');
  const item = page.slice(firstItem, secondItem);
  const model = /data-db="([^"]+)"/.exec(item)?.[1];
  if (model === undefined) throw new Error('web-database-manager.html: no database in the list');
  return {
    head: page.slice(0, logoEnd),
    warning: page.slice(warningStart, warningEnd),
    listStart: page.slice(warningEnd, firstItem),
    item,
    tail: page.slice(listEnd + 1),
    model,
  };
}

let template: Template | undefined;

function itemFor(t: Template, name: string): string {
  const escaped = escapeMarkup(name);
  return t.item
    .replaceAll(`?db=${t.model}"`, `?db=${escaped}"`)
    .replaceAll(`data-db="${t.model}"`, `data-db="${escaped}"`)
    .replace(new RegExp(`\\n(\\s+)${t.model}\\n`), `\n$1${escaped}\n`);
}

// The modal warnings with the generated master password, and the hidden default password of the
// master password form: both only while the manager is unprotected.
const modalWarning =
  /\n\n {12}<div class="alert alert-warning">\n {16}<p>Warning, your Odoo database manager is not protected\.[\s\S]*?<\/div>/g;
const hiddenDefault = /<input type="hidden" name="master_pwd" class="form-control" value="admin"\/>/;
const masterRow = /\n {8}<div class="row mb-3">\n {12}<label for="master_pwd"[\s\S]*?\n {8}<\/div>/;

/** Renders the page. */
export function renderManagerPage(state: ManagerPageState): string {
  template ??= loadTemplate();
  const t = template;
  const error = state.error === undefined ? '' : `                    <div class="alert alert-danger">${escapeMarkup(state.error)}</div>\n`;
  const warning = state.insecure && state.databases.length > 0 ? t.warning : '';
  let tail = t.tail;
  if (!state.insecure) {
    const row = masterRow.exec(tail)?.[0] ?? '';
    tail = tail.replace(modalWarning, '').replace(hiddenDefault, row.trim());
  }
  return t.head + warning + error + t.listStart + state.databases.map((name) => itemFor(t, name)).join('') + tail;
}
