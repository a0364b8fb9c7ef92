/**
 * Methods every model inherits that Odoo 19 marks `@api.private` (Odoo: `odoo/orm/models.py` "PRIV"): public
 * names, but refused over any RPC with the same AccessError as `_x` names. They are not in the
 * method table, so without this list the gateway could not tell them from unknown methods.
 */
const privateMethods = new Set([
  'browse',
  'check_access',
  'ensure_one',
  'exists',
  'fetch',
  'filtered',
  'filtered_domain',
  'grouped',
  'lock_for_update',
  'mapped',
  'new',
  'search_fetch',
  'sorted',
  'sudo',
  'with_company',
  'with_context',
  'with_env',
  'with_prefetch',
  'with_user',
]);

/** True for `_x` names and the inherited `@api.private` methods: legacy answers fault 4. */
export function isPrivateMethod(method: string): boolean {
  return method.startsWith('_') || privateMethods.has(method) || method.startsWith('invalidate_') || method.startsWith('flush_');
}
