/** The rules of each model the simulator knows more about than its seed file (see `types.ts`). */
import { baseRules } from './base.ts';
import { partnerRules } from './partner.ts';
import { saleOrderLineRules, saleOrderRules } from './sale.ts';
import type { ModelRules } from './types.ts';

export type { CheckRule, ConstrainsRule, ModelRules, UniqueRule } from './types.ts';

const noRules: ModelRules = {};

const table = new Map<string, ModelRules>([
  ...Object.entries(baseRules),
  ['res.partner', partnerRules],
  ['sale.order', saleOrderRules],
  ['sale.order.line', saleOrderLineRules],
]);

/** The rules of a model; an empty set for models with nothing special. */
export function rulesFor(model: string): ModelRules {
  return table.get(model) ?? noRules;
}
