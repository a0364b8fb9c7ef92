/**
 * Generated legacy `read_group` calls (the shapes the successor is checked with against the
 * simulator and a real Odoo 19.0), and an answer as one comparable value.
 */
import { seededRandom as random } from '../differential/generate.ts';
import type { Value } from '../../src/value.ts';
import { errorData } from './stack.ts';

export interface Shape {
  model: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
}

export const shapeFields: Record<string, { groups: string[]; dates: string[]; numbers: string[] }> = {
  'sale.order': {
    groups: ['state', 'partner_id', 'user_id', 'company_id'],
    dates: ['date_order', 'create_date'],
    numbers: ['amount_total', 'amount_untaxed'],
  },
  'res.partner': {
    groups: ['country_id', 'is_company', 'type', 'category_id'],
    dates: ['create_date'],
    numbers: ['color', 'credit_limit'],
  },
  'sale.order.line': {
    groups: ['order_id', 'product_id', 'state'],
    dates: ['create_date'],
    numbers: ['price_subtotal', 'product_uom_qty'],
  },
};

export function shapes(count: number, seed: number): Shape[] {
  const rnd = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const out: Shape[] = [];
  for (let i = 0; i < count; i++) {
    const model = pick(Object.keys(shapeFields));
    const f = shapeFields[model] as (typeof shapeFields)[string];
    const groupby: string[] = [];
    for (let n = pick([0, 1, 1, 2, 3]); n > 0; n--) {
      groupby.push(rnd() < 0.35 ? `${pick(f.dates)}${pick(['', ':day', ':week', ':month', ':quarter', ':year'])}` : pick(f.groups));
    }
    const fields = [pick(['', '__count', pick(f.numbers), `${pick(f.numbers)}:max`, `total:sum(${pick(f.numbers)})`])].filter(
      (x) => x !== '',
    );
    const kwargs: Record<string, unknown> = { lazy: rnd() < 0.5 };
    if (rnd() < 0.3 && groupby[0] !== undefined) kwargs.orderby = pick([`${groupby[0].split(':')[0]} desc`, '__count desc']);
    if (rnd() < 0.2) kwargs.limit = pick([1, 2]);
    if (rnd() < 0.2) kwargs.offset = 1;
    const domain = pick([[], [['id', '>', 2]], ['|', ['id', '<', 5], ['id', '>', 8]], ['!', ['id', '=', 3]]]);
    out.push({ model, args: [domain, fields, groupby], kwargs });
  }
  return out;
}

/** The answer as one comparable value. */
export function toPlain(answer: { result?: Value; error?: Map<string, Value> }): Value {
  if (answer.error !== undefined) {
    const data = errorData(answer.error);
    return new Map<string, Value>([
      ['error', data.name],
      ['message', data.message],
    ]);
  }
  return answer.result ?? null;
}
