/**
 * `sale.order` and `sale.order.line` (addons/sale/models/): the `S00001` sequence, defaults, order
 * addresses from the customer, line subtotals and order totals (taxes are not modelled), and the
 * UserError when deleting an order that is neither a draft nor cancelled.
 */
import { isTruthy } from '../../src/value.ts';
import type { Env } from '../orm/env.ts';
import type { Row } from '../orm/model.ts';
import type { ModelRules } from './types.ts';

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;

function companyOf(env: Env): number | false {
  const company = env.user()?.v.company_id;
  return typeof company === 'number' ? company : false;
}

function companyCurrency(env: Env): number | false {
  const company = companyOf(env);
  const row = company === false ? undefined : env.db.model('res.company')?.get(company);
  const currency = row?.v.currency_id;
  return typeof currency === 'number' ? currency : false;
}

/** Order totals from its lines: untaxed = Σ subtotal, total = Σ line total. */
function recomputeOrders(env: Env, orderIds: Set<number>): void {
  const orders = env.db.model('sale.order');
  const lines = env.db.model('sale.order.line');
  if (orders === undefined || lines === undefined) return;
  for (const id of orderIds) {
    const order = orders.get(id);
    if (order === undefined) continue;
    let untaxed = 0;
    let total = 0;
    for (const lineId of env.db.childrenOf(lines, 'order_id', id)) {
      const line = lines.get(lineId);
      untaxed += num(line?.v.price_subtotal);
      total += num(line?.v.price_total);
    }
    env.tx.touch(order);
    order.v.amount_untaxed = round2(untaxed);
    order.v.amount_tax = round2(total - untaxed);
    order.v.amount_total = round2(total);
  }
}

/** `company_ids` of a rule's eval context: the caller's companies. */
function userCompanies(env: Env): number[] {
  const ids = env.user()?.v.company_ids;
  return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
}

const orderUnlinkable = new Set(['draft', 'cancel']);

export const saleOrderRules: ModelRules = {
  recNamesSearch: ['name', 'partner_id.name'],
  sequence: { field: 'name', prefix: 'S', padding: 5 },
  defaults: {
    state: () => 'draft',
    date_order: (env) => env.nowText,
    company_id: (env) => companyOf(env),
    currency_id: (env) => companyCurrency(env),
    user_id: (env) => env.uid,
    invoice_status: () => 'no',
  },
  prepareCreate(_env, vals) {
    // `_compute_partner_invoice_id` / `_compute_partner_shipping_id`: the customer's own address.
    const partner = vals.get('partner_id');
    for (const f of ['partner_invoice_id', 'partner_shipping_id']) if (!vals.has(f)) vals.set(f, partner ?? false);
  },
  unlinkGuard: (row: Row) =>
    orderUnlinkable.has(String(row.v.state))
      ? undefined
      : ['You can not delete a sent quotation or a confirmed sales order.', 'You must first cancel it.'].join(' '),
  recompute(env, rows, changed) {
    if (changed.has('order_line')) recomputeOrders(env, new Set(rows.map((r) => r.id)));
  },
  copyExclude: ['name', 'state', 'date_order', 'invoice_status', 'client_order_ref'],
  // sale/security/ir_rules.xml
  recordRules: [
    {
      name: 'Sales Order multi-company',
      operations: ['read', 'write', 'create', 'unlink'],
      companyRelated: true,
      test: (env, row) => row.v.company_id === false || userCompanies(env).includes(row.v.company_id as number),
    },
    {
      name: 'Personal Orders',
      groups: ['Sales / User: Own Documents Only'],
      operations: ['read', 'write', 'create', 'unlink'],
      test: (env, row) => row.v.user_id === env.uid || row.v.user_id === false,
    },
    { name: 'All Orders', groups: ['Sales / User: All Documents'], operations: ['read', 'write', 'create', 'unlink'], test: () => true },
  ],
};

const lineTriggers = new Set(['product_uom_qty', 'price_unit', 'discount', 'order_id', 'product_id']);

export const saleOrderLineRules: ModelRules = {
  displayName(db, row) {
    const order = typeof row.v.order_id === 'number' ? db.model('sale.order')?.get(row.v.order_id) : undefined;
    const name = typeof row.v.name === 'string' ? (row.v.name.split('\n')[0] ?? '') : '';
    return `${typeof order?.v.name === 'string' ? order.v.name : ''} - ${name}`;
  },
  defaults: { sequence: () => 10, product_uom_qty: () => 1 },
  // _non_accountable_null_fields: CHECK(display_type IS NULL OR (product_id IS NULL AND price_unit = 0
  // AND product_uom_qty = 0 AND product_uom_id IS NULL AND customer_lead = 0)). Its sibling
  // _accountable_required_fields (display_type, is_downpayment or product and unit) never fails here:
  // is_downpayment is NULL unless written, and NULL passes a CHECK, as on Odoo.
  checks: [
    {
      fields: ['display_type', 'product_id', 'price_unit', 'product_uom_qty'],
      violated: (row) =>
        row.v.display_type !== false && (row.v.product_id !== false || row.v.price_unit !== 0 || row.v.product_uom_qty !== 0),
      message: 'Forbidden values on non-accountable sale order line',
    },
  ],
  prepareCreate(env, vals) {
    // `_compute_product_uom_qty`: a section or note line has no quantity, whatever was sent
    if (isTruthy(vals.get('display_type') ?? false)) vals.set('product_uom_qty', 0);
    // `_compute_name` / `_compute_price_unit` from the product when the client did not send them.
    const productId = vals.get('product_id');
    const product = typeof productId === 'number' ? env.db.model('product.product')?.get(productId) : undefined;
    if (product === undefined) return;
    if (!vals.has('name')) vals.set('name', env.db.displayName('product.product', product.id));
    if (!vals.has('price_unit')) vals.set('price_unit', num(product.v.lst_price));
  },
  recompute(env, rows, changed) {
    if (![...changed].some((f) => lineTriggers.has(f))) return;
    const orderIds = new Set<number>();
    for (const row of rows) {
      const subtotal = round2(num(row.v.product_uom_qty) * num(row.v.price_unit) * (1 - num(row.v.discount) / 100));
      env.tx.touch(row);
      row.v.price_subtotal = subtotal;
      row.v.price_total = subtotal;
      if (typeof row.v.order_id === 'number') orderIds.add(row.v.order_id);
    }
    recomputeOrders(env, orderIds);
  },
};
