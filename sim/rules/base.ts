/**
 * Rules of the smaller seeded models (base, product, uom): hierarchical names, display names,
 * unique constraints, access groups, defaults and the users' and companies' own partners.
 */
import type { Struct, Value } from '../../src/value.ts';
import type { Database } from '../orm/database.ts';
import type { Env } from '../orm/env.ts';
import type { Row } from '../orm/model.ts';
import {
  countryConstraints,
  currencyConstraints,
  langConstraints,
  productConstraints,
  uomConstraints,
  usersConstraints,
} from './base-constraints.ts';
import type { CreateRecords, ModelRules } from './types.ts';

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
/** base.group_erp_manager, which owns the ACLs of users, companies and groups. */
const accessRights = ['Access Rights'];
/** base.group_system. */
const settings = ['Role / Administrator', 'Administration / Settings', 'Settings'];

function parentChain(db: Database, model: string, row: Row, field: string): Row[] {
  const chain: Row[] = [row];
  let current = row;
  for (let depth = 0; depth < 64; depth++) {
    const id = current.v[field];
    const parent = typeof id === 'number' ? db.model(model)?.get(id) : undefined;
    if (parent === undefined) break;
    chain.unshift(parent);
    current = parent;
  }
  return chain;
}

/** Recomputes a stored `complete_name` "Parent / Child" on rows and their descendants. */
function recomputeCompleteName(model: string) {
  return (env: Env, rows: Row[], changed: Set<string>): void => {
    if (!changed.has('name') && !changed.has('parent_id')) return;
    const store = env.db.model(model);
    if (store === undefined) return;
    const queue = [...rows];
    const seen = new Set<number>();
    while (queue.length > 0) {
      const row = queue.shift() as Row;
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      const name = parentChain(env.db, model, row, 'parent_id')
        .map((r) => text(r.v.name))
        .join(' / ');
      if (row.v.complete_name !== name) {
        env.tx.touch(row);
        row.v.complete_name = name;
      }
      for (const id of env.db.childrenOf(store, 'parent_id', row.id)) queue.push(store.get(id) as Row);
    }
  };
}

/** A partner for a new user or company, as their `create` makes one (`_inherits`). */
function createsPartner(env: Env, vals: Struct, create: CreateRecords): void {
  if (vals.get('partner_id')) return;
  const partner = new Map<string, Value>([['name', vals.get('name') ?? false]]);
  for (const f of ['email', 'phone', 'street', 'city', 'zip', 'country_id']) {
    const v = vals.get(f);
    if (v !== undefined) partner.set(f, v);
  }
  const partners = env.db.model('res.partner');
  if (partners !== undefined) vals.set('partner_id', create(env, partners, [partner])[0] ?? false);
}

function userCompany(env: Env): number | false {
  const company = env.user()?.v.company_id;
  return typeof company === 'number' ? company : false;
}

export const baseRules: Record<string, ModelRules> = {
  'res.partner.category': {
    parentField: 'parent_id',
    displayName: (db, row) =>
      parentChain(db, 'res.partner.category', row, 'parent_id')
        .map((r) => text(r.v.name))
        .join(' / '),
    recursionMessage: 'You can not create recursive tags.',
    defaults: { active: () => true },
  },
  'product.category': {
    recName: 'complete_name',
    parentField: 'parent_id',
    displayName: (_db, row) => text(row.v.complete_name),
    recursionMessage: 'You cannot create recursive categories.',
    recompute: recomputeCompleteName('product.category'),
  },
  'product.product': {
    recNamesSearch: ['name', 'default_code'],
    // product/models/product_product.py
    fieldGroups: { standard_price: ['Role / User'] },
    displayName: (_db, row) => {
      const code = text(row.v.default_code);
      return `${code ? `[${code}] ` : ''}${text(row.v.name)}${row.extra.variant ?? ''}`;
    },
    fromSeed(_db, row, seed) {
      // Variant attribute values (not exported) show as a " (Black)" suffix of the display name.
      const shown = seed.get('display_name');
      const code = text(row.v.default_code);
      const base = `${code ? `[${code}] ` : ''}${text(row.v.name)}`;
      if (typeof shown === 'string' && shown !== base && shown.startsWith(base)) {
        row.extra.variant = shown.slice(base.length);
      }
    },
    defaults: {
      type: () => 'consu',
      active: () => true,
      sale_ok: () => true,
      purchase_ok: () => true,
      list_price: () => 1,
      lst_price: () => 1,
      uom_id: (env) => firstId(env.db, 'uom.uom'),
      categ_id: (env) => firstId(env.db, 'product.category'),
    },
    ...productConstraints,
  },
  'res.country': {
    recNamesSearch: ['name', 'code'],
    managerGroups: settings,
    uniques: [
      { fields: ['name'], message: 'The name of the country must be unique!' },
      { fields: ['code'], message: 'The code of the country must be unique!' },
    ],
    ...countryConstraints,
  },
  'res.country.state': {
    recNamesSearch: ['name', 'code'],
    managerGroups: settings,
    displayName: (db, row) => {
      const country = typeof row.v.country_id === 'number' ? db.model('res.country')?.get(row.v.country_id) : undefined;
      return `${text(row.v.name)} (${text(country?.v.code)})`;
    },
    uniques: [{ fields: ['country_id', 'code'], message: 'The code of the state must be unique by country!' }],
  },
  'res.currency': {
    managerGroups: settings,
    uniques: [{ fields: ['name'], message: 'The currency code must be unique!' }],
    defaults: { active: () => true, rounding: () => 0.01, position: () => 'after' },
    ...currencyConstraints,
  },
  'res.lang': {
    managerGroups: settings,
    uniques: [
      { fields: ['name'], message: 'The name of the language must be unique!' },
      { fields: ['code'], message: 'The code of the language must be unique!' },
      { fields: ['url_code'], message: 'The URL code of the language must be unique!' },
    ],
    defaults: {
      active: () => false,
      direction: () => 'ltr',
      date_format: () => '%m/%d/%Y',
      time_format: () => '%H:%M:%S',
      week_start: () => '7',
      grouping: () => '[3,0]',
      decimal_point: () => '.',
      thousands_sep: () => ',',
    },
    // `date_format = fields.Selection(selection=_get_date_format_selection)`: not checked against the list
    methodSelections: ['date_format'],
    ...langConstraints,
  },
  'res.groups': {
    managerGroups: accessRights,
    displayName: (_db, row) => text(row.v.full_name) || text(row.v.name),
    fromSeed(_db, row, seed) {
      // `full_name` is "<privilege> / <name>"; keep the privilege part for renames.
      const full = seed.get('full_name');
      const name = text(row.v.name);
      if (typeof full === 'string' && full !== name && full.endsWith(name)) row.extra.privilege = full.slice(0, -name.length);
    },
    recompute(env, rows, changed) {
      if (!changed.has('name')) return;
      for (const row of rows) {
        env.tx.touch(row);
        row.v.full_name = `${row.extra.privilege ?? ''}${text(row.v.name)}`;
      }
    },
  },
  'res.users': {
    recNamesSearch: ['name', 'login'],
    managerGroups: accessRights,
    uniques: [{ fields: ['login'], message: 'You can not have two users with the same login!' }],
    defaults: {
      active: () => true,
      share: () => false,
      lang: (env) => env.context.get('lang') ?? 'en_US',
      company_id: (env) => userCompany(env),
      company_ids: (env) => {
        const c = userCompany(env);
        return c === false ? [] : [c];
      },
      group_ids: (env) => [...env.db.groupIdsNamed(['Role / User'])],
    },
    // `lang` is its partner's (`fields.Selection(_lang_get)`): any language code is written as it is
    methodSelections: ['lang'],
    prepareCreate(env, vals, create) {
      createsPartner(env, vals, create);
      if (!vals.has('all_group_ids')) vals.set('all_group_ids', vals.get('group_ids') ?? []);
    },
    ...usersConstraints,
  },
  'res.company': {
    managerGroups: accessRights,
    uniques: [{ fields: ['name'], message: 'The company name must be unique!' }],
    defaults: { currency_id: (env) => firstId(env.db, 'res.currency') },
    prepareCreate: createsPartner,
  },
  'uom.uom': {
    defaults: { active: () => true, relative_factor: () => 1, factor: () => 1 },
    ...uomConstraints,
  },
};

/** The smallest id of a model, as a stand-in for an XML-id default (`uom.product_uom_unit`). */
function firstId(db: Database, model: string): number | false {
  let min: number | false = false;
  for (const id of db.model(model)?.rows.keys() ?? []) if (min === false || id < min) min = id;
  return min;
}
