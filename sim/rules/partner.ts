/**
 * `res.partner` (odoo/addons/base/models/res_partner.py): `complete_name` "Company, Person",
 * `commercial_partner_id`, `company_type` ↔ `is_company`, `country_code`, name search over
 * `_rec_names_search`, the recursion check, `copy()` naming.
 */
import type { Struct, Value } from '../../src/value.ts';
import type { Database } from '../orm/database.ts';
import type { Env } from '../orm/env.ts';
import { validationError } from '../errors.ts';
import type { Row } from '../orm/model.ts';
import type { ModelRules } from './types.ts';

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function partnerRow(db: Database, id: unknown): Row | undefined {
  return typeof id === 'number' ? db.model('res.partner')?.get(id) : undefined;
}

/** `commercial_partner_id`: the partner itself if it is a company or has no parent, else its parent's. */
function commercialOf(db: Database, row: Row, depth = 0): Row {
  const parent = partnerRow(db, row.v.parent_id);
  if (row.v.is_company === true || parent === undefined || depth > 64) return row;
  return commercialOf(db, parent, depth + 1);
}

/** `_get_complete_name`: "Company, Person" for a contact of a company (or with a `company_name`). */
function completeName(db: Database, row: Row): string {
  let name = text(row.v.name);
  const parent = partnerRow(db, row.v.parent_id);
  const companyName = row.extra.company_name;
  if ((companyName !== undefined || parent !== undefined) && row.v.is_company !== true) {
    const commercial = commercialOf(db, row);
    const commercialName = commercial.v.is_company === true ? text(commercial.v.name) : (companyName ?? '');
    name = `${commercialName || text(parent?.v.name)}, ${name}`;
  }
  return name.trim();
}

/** The partner and every descendant, parents first. */
function withDescendants(db: Database, rows: Row[]): Row[] {
  const model = db.model('res.partner');
  if (model === undefined) return rows;
  const out: Row[] = [];
  const seen = new Set<number>();
  const queue = [...rows];
  while (queue.length > 0) {
    const row = queue.shift() as Row;
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    out.push(row);
    for (const id of db.childrenOf(model, 'parent_id', row.id)) {
      const child = model.get(id);
      if (child !== undefined) queue.push(child);
    }
  }
  return out;
}

const recomputeTriggers = new Set(['name', 'parent_id', 'is_company', 'company_type']);

/** `[('id', 'child_of', user.commercial_partner_id.id)]`: the row or one of its parents is the caller's commercial partner. */
function childOfCommercialPartner(env: Env, row: Row): boolean {
  const partners = env.db.model('res.partner');
  const own = env.user()?.v.partner_id;
  const mine = typeof own === 'number' ? partners?.get(own) : undefined;
  const commercial =
    mine === undefined ? undefined : typeof mine.v.commercial_partner_id === 'number' ? mine.v.commercial_partner_id : mine.id;
  const seen = new Set<number>();
  for (let r: Row | undefined = row; r !== undefined && !seen.has(r.id);) {
    if (r.id === commercial) return true;
    seen.add(r.id);
    r = typeof r.v.parent_id === 'number' ? partners?.get(r.v.parent_id) : undefined;
  }
  return false;
}

/** `company_id parent_of company_ids` or no company (companies have no parents in the seed). */
function inUserCompanies(env: Env, row: Row): boolean {
  const companies = env.user()?.v.company_ids;
  return row.v.company_id === false || (Array.isArray(companies) && companies.includes(row.v.company_id as number));
}

export const partnerRules: ModelRules = {
  // base/security/base_security.xml (partner_share is left out: the seed's partners of internal users have no company)
  recordRules: [
    { name: 'res.partner company', operations: ['read', 'write', 'create', 'unlink'], companyRelated: true, test: inUserCompanies },
    {
      name: 'res_partner: portal/public: read access on my commercial partner',
      groups: ['Role / Portal', 'Role / Public'],
      operations: ['read'],
      test: childOfCommercialPartner,
    },
  ],
  // account/models/partner.py
  fieldGroups: { credit_limit: ['Accounting / Invoicing', 'Accounting / Read-only'] },
  recNamesSearch: ['complete_name', 'email', 'ref', 'vat', 'company_registry'],
  // `lang = fields.Selection(_lang_get)`: any language code is written as it is
  methodSelections: ['lang'],
  parentField: 'parent_id',
  displayName: (_db, row) => text(row.v.complete_name),
  // res_partner.py `_check_parent_id` names the hierarchy itself.
  recursionMessage: ['You cannot create recursive', 'Partner', 'hierarchies.'].join(' '),
  defaults: {
    type: () => 'contact',
    active: () => true,
    is_company: () => false,
    lang: (env: Env) => env.context.get('lang') ?? false,
    tz: (env: Env) => env.context.get('tz') ?? false,
  },
  fromSeed(db, row, seed: Struct) {
    // Partners with a `company_name` (not exported) show "Company, Person" without a parent.
    const shown = seed.get('complete_name');
    if (typeof shown !== 'string' || shown === completeName(db, row)) return;
    const suffix = `, ${text(row.v.name)}`;
    if (shown.endsWith(suffix)) row.extra.company_name = shown.slice(0, -suffix.length);
  },
  recompute(env, rows, changed) {
    if (![...changed].some((f) => recomputeTriggers.has(f))) return;
    const db = env.db;
    for (const row of withDescendants(db, rows)) {
      const complete = completeName(db, row);
      const commercial = commercialOf(db, row).id;
      if (row.v.complete_name === complete && row.v.commercial_partner_id === commercial) continue;
      env.tx.touch(row);
      row.v.complete_name = complete;
      row.v.commercial_partner_id = commercial;
    }
  },
  computed: {
    company_type: (_db, row) => (row.v.is_company === true ? 'company' : 'person'),
    country_code: (db, row) => {
      const id = row.v.country_id;
      const country = typeof id === 'number' ? db.model('res.country')?.get(id) : undefined;
      return typeof country?.v.code === 'string' ? country.v.code : false;
    },
  },
  inverses: {
    company_type: (value: Value) => ({ is_company: value === 'company' }),
  },
  copyDefaults: (_env, row) => ({ name: `${text(row.v.name)} (copy)` }),
  // _check_name: CHECK( (type='contact' AND name IS NOT NULL) or (type!='contact') ); a NULL type passes
  checks: [
    { fields: ['type', 'name'], violated: (row) => row.v.type === 'contact' && row.v.name === false, message: 'Contacts require a name' },
  ],
  constrains: [
    {
      // _check_partner_company: a company's own partner must belong to that company
      fields: ['company_id'],
      check(env, rows) {
        const companies = [...(env.db.model('res.company')?.rows.values() ?? [])];
        for (const partner of rows) {
          if (partner.v.is_company !== true || typeof partner.v.company_id !== 'number') continue;
          if (companies.some((c) => c.v.partner_id === partner.id && c.id !== partner.v.company_id)) {
            return validationError('The company assigned to this partner does not match the company this partner represents.');
          }
        }
        return undefined;
      },
    },
  ],
};
