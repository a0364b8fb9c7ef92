/**
 * Odoo 19's constraints on the smaller seeded models, for the fields the simulator lets callers write:
 * SQL CHECKs (`models.Constraint`), `@api.constrains` methods and the refusals of overridden
 * `write()`s. Each cites its source; texts are Odoo's English ones.
 * Left out, because no seeded field can reach them: `res.groups` UNIQUE (privilege_id, name) and
 * api_key_duration, `res.users` notification_type, home action and group checks, `res.company`
 * subsidiaries and quotation validity, `product.product` packaging barcodes and combo items.
 */
import type { Env } from '../orm/env.ts';
import { typeError, userError, validationError } from '../errors.ts';
import type { Row } from '../orm/model.ts';
import { percentFormat } from '../python-format.ts';
import type { ModelRules } from './types.ts';

type ConstraintRules = Pick<ModelRules, 'checks' | 'constrains' | 'writeGuard' | 'prepareCreate'>;

const activeRows = (env: Env, model: string): Row[] => [...(env.db.model(model)?.rows.values() ?? [])].filter((r) => r.v.active !== false);
const ids = (rows: Row[]) => new Set(rows.map((r) => r.id));

/** odoo/addons/base/models/res_currency.py */
const currency: ConstraintRules = {
  // _rounding_gt_zero: CHECK (rounding>0)
  checks: [
    {
      fields: ['rounding'],
      violated: (row) => typeof row.v.rounding === 'number' && !(row.v.rounding > 0),
      message: 'The rounding factor must be greater than 0!',
    },
  ],
  constrains: [
    {
      // _check_company_currency_stays_active
      fields: ['active'],
      check(env, rows) {
        const inactive = ids(rows.filter((r) => r.v.active === false));
        const used = [...(env.db.model('res.company')?.rows.values() ?? [])].some(
          (c) => typeof c.v.currency_id === 'number' && inactive.has(c.v.currency_id),
        );
        return used ? userError('This currency is set on a company and therefore cannot be deactivated.') : undefined;
      },
    },
  ],
};

/** `tools.misc.DATETIME_FORMATS_MAP` without `%y`: `res.lang._disallowed_datetime_patterns`. */
const disallowedDatetimePatterns = [
  '%C',
  '%D',
  '%e',
  '%E',
  '%F',
  '%g',
  '%G',
  '%h',
  '%k',
  '%l',
  '%n',
  '%O',
  '%P',
  '%R',
  '%r',
  '%s',
  '%T',
  '%t',
  '%u',
  '%V',
];

/** odoo/addons/base/models/res_lang.py */
const lang: ConstraintRules = {
  // create(): url_code defaults to the ISO code, else the code
  prepareCreate(_env, vals) {
    if (!vals.get('url_code')) vals.set('url_code', vals.get('iso_code') || (vals.get('code') ?? false));
  },
  constrains: [
    {
      // _check_active
      fields: ['active'],
      check: (env) => (activeRows(env, 'res.lang').length === 0 ? validationError('At least one language must be active.') : undefined),
    },
    {
      // _check_format
      fields: ['time_format', 'date_format'],
      check(_env, rows) {
        const bad = rows.some((row) =>
          disallowedDatetimePatterns.some((p) =>
            [row.v.time_format, row.v.date_format].some((f) => typeof f === 'string' && f.includes(p)),
          ),
        );
        return bad
          ? validationError(
              'Invalid date/time format directive specified. Please refer to the list of allowed directives, displayed when you edit a language.',
            )
          : undefined;
      },
    },
  ],
  writeGuard(env, rows, vals) {
    const codes = new Set(rows.map((r) => r.v.code));
    if (vals.has('code') && rows.some((r) => r.v.code !== vals.get('code'))) return 'Language code cannot be modified.';
    if (vals.get('active') !== false) return undefined;
    const speaks = (r: Row) => codes.has(r.v.lang);
    const users = [...(env.db.model('res.users')?.rows.values() ?? [])];
    if (users.some((u) => u.v.active !== false && speaks(u))) return 'Cannot deactivate a language that is currently used by users.';
    if (activeRows(env, 'res.partner').some(speaks)) return 'Cannot deactivate a language that is currently used by contacts.';
    if (users.some(speaks)) return 'You cannot archive the language in which Odoo was setup as it is used by automated processes.';
    return undefined;
  },
};

/** `res.partner._formatting_address_fields()` and what `_check_address_format` adds to them. */
const addressFormatKeys = new Set([
  'street',
  'street2',
  'zip',
  'city',
  'state_id',
  'country_id',
  'state_code',
  'state_name',
  'country_code',
  'country_name',
  'company_name',
]);

/** odoo/addons/base/models/res_country.py */
const country: ConstraintRules = {
  constrains: [
    {
      // _check_address_format: `address_format % {field: 1 ...}`, ValueError and KeyError caught
      fields: ['address_format'],
      check(_env, rows) {
        for (const row of rows) {
          if (typeof row.v.address_format !== 'string' || row.v.address_format === '') continue;
          const outcome = percentFormat(row.v.address_format, addressFormatKeys);
          if (outcome.ok) continue;
          if (outcome.error === 'TypeError') return typeError(outcome.message); // not caught: a server error
          return userError('The layout contains an invalid format key');
        }
        return undefined;
      },
    },
  ],
};

/** odoo/addons/base/models/res_users.py */
const users: ConstraintRules = {
  constrains: [
    {
      // _check_user_company
      fields: ['company_id', 'company_ids', 'active'],
      check(env, rows) {
        const companies = env.db.model('res.company');
        const nameOf = (id: unknown) => (typeof id === 'number' ? String(companies?.get(id)?.v.name ?? '') : '');
        for (const user of rows) {
          if (user.v.active === false || typeof user.v.company_id !== 'number') continue;
          const allowed = Array.isArray(user.v.company_ids) ? user.v.company_ids : [];
          if (allowed.includes(user.v.company_id)) continue;
          return validationError(
            `Company ${nameOf(user.v.company_id)} is not in the allowed companies for user ${String(user.v.name)} (${allowed.map(nameOf).join(', ')}).`,
          );
        }
        return undefined;
      },
    },
  ],
};

/** addons/uom/models/uom_uom.py */
const uom: ConstraintRules = {
  // _factor_gt_zero: CHECK (relative_factor!=0)
  checks: [
    {
      fields: ['relative_factor'],
      violated: (row) => row.v.relative_factor === 0,
      message: 'The conversion ratio for a unit of measure cannot be 0!',
    },
  ],
  constrains: [
    {
      // _check_factor
      fields: ['relative_factor', 'relative_uom_id'],
      check: (_env, rows) =>
        rows.some((r) => r.v.relative_uom_id === false && r.v.relative_factor !== 1)
          ? userError('Reference unit of measure is missing.')
          : undefined,
    },
  ],
};

/** babel's `format_list` in English, as Odoo's `_()` renders a list argument: "A, B, and C". */
function formatList(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
}

/** addons/product/models/product_product.py */
const product: ConstraintRules = {
  constrains: [
    {
      // _check_barcode_uniqueness → _check_duplicated_product_barcodes (one company: the seed has no product companies)
      fields: ['barcode'],
      check(env, rows) {
        const written = new Set(rows.map((r) => r.v.barcode).filter((b) => typeof b === 'string' && b !== ''));
        const byBarcode = new Map<string, Row[]>();
        for (const row of activeRows(env, 'product.product').sort((a, b) => a.id - b.id)) {
          const code = row.v.barcode;
          if (typeof code === 'string' && written.has(code)) byBarcode.set(code, [...(byBarcode.get(code) ?? []), row]);
        }
        const lines = [...byBarcode]
          .filter(([, products]) => products.length > 1)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(
            ([code, products]) =>
              `- Barcode "${code}" already assigned to product(s): ${formatList(products.map((p) => env.db.displayName('product.product', p.id)))}`,
          );
        if (lines.length === 0) return undefined;
        return validationError(
          `Barcode(s) already assigned:\n\n${lines.join('\n')}\n\nNote: products that you don't have access to will not be shown above.`,
        );
      },
    },
  ],
};

export {
  country as countryConstraints,
  currency as currencyConstraints,
  lang as langConstraints,
  product as productConstraints,
  uom as uomConstraints,
  users as usersConstraints,
};
