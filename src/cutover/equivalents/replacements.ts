/**
 * The JSON-2 call that replaces a deprecated one, where Odoo's deprecation message names a
 * replacement: the method (and model) to call instead, and how the arguments the client passes map
 * onto it. The message itself stays Odoo's (`deprecations.ts`); this table is what it means for a
 * request body (Odoo: `odoo/orm/models.py` signatures).
 */
import type { Struct, Value } from '../../value.ts';

/** A deprecated method's replacement. */
export interface Replacement {
  /** The JSON-2 method to call instead. */
  method: string;
  /** Another model to call it on (`ir.http.get_currencies` → `res.currency`); default: the same model. */
  model?: string;
  /** The replacement's body from the deprecated call's (placeholder) body. */
  body(original: Struct): Struct;
  /** What differs, in a sentence. */
  note: string;
}

/** Copies `from` → `to` for each pair present in `original`, in the replacement's parameter order. */
function rename(original: Struct, pairs: readonly (readonly [from: string, to: string])[]): Struct {
  const out: Struct = new Map();
  if (original.has('ids')) out.set('ids', original.get('ids') as Value);
  for (const [from, to] of pairs) if (original.has(from)) out.set(to, original.get(from) as Value);
  if (original.has('context')) out.set('context', original.get('context') as Value);
  return out;
}

const replacements: Readonly<Record<string, Replacement>> = {
  // "Since 19.0, read_group is deprecated. Please use … formatted_read_group for a complete formatted result"
  read_group: {
    method: 'formatted_read_group',
    body: (b) =>
      rename(b, [
        ['domain', 'domain'],
        ['groupby', 'groupby'],
        ['fields', 'aggregates'],
        ['offset', 'offset'],
        ['limit', 'limit'],
        ['orderby', 'order'],
      ]),
    note: "formatted_read_group groups by every groupby field at once (read_group's lazy=False), and takes its aggregates as 'field:agg' (e.g. 'amount_total:sum'; '__count' for the number of records).",
  },
  // "Deprecated since 19.0, use action_archive or action_unarchive"
  toggle_active: {
    method: 'action_archive',
    body: (b) => rename(b, []),
    note: 'Call action_archive on active records and action_unarchive on archived ones: toggle_active flipped each record.',
  },
  // "check_access_rights() is deprecated since 18.0; use check_access() instead."
  check_access_rights: {
    method: 'has_access',
    body: (b) => rename(b, [['operation', 'operation']]),
    note: 'Odoo names check_access(), which is @api.private in 19 (JSON-2 refuses it with 403); has_access(operation) answers the same question with True or False, on no records for the model-level check.',
  },
  // "check_access_rule() is deprecated since 18.0; use check_access() instead."
  check_access_rule: {
    method: 'has_access',
    body: (b) => rename(b, [['operation', 'operation']]),
    note: 'Odoo names check_access(), which is @api.private in 19 (JSON-2 refuses it with 403); has_access(operation) on the same records answers True or False instead of raising.',
  },
  // "Deprecated since 19.0, use `_check_field_access` on models. To get the list of allowed fields, use `fields_get`."
  check_field_access_rights: {
    method: 'fields_get',
    body: (b) => rename(b, [['field_names', 'allfields']]),
    note: '_check_field_access is private; fields_get lists the fields the user may access (with their attributes).',
  },
  // "Deprecated since 19.0, use get_all_currencies on 'res.currency'"
  get_currencies: {
    method: 'get_all_currencies',
    model: 'res.currency',
    body: (b) => rename(b, []),
    note: "get_all_currencies on res.currency answers the currencies ir.http's get_currencies gave.",
  },
};

/** The replacement of a deprecated method, or undefined where Odoo names none. */
export function replacementOf(method: string): Replacement | undefined {
  return Object.hasOwn(replacements, method) ? replacements[method] : undefined;
}
