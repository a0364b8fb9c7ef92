/**
 * The methods the simulator implements, by name. A method of the method table that is not here is
 * answered with a NotImplementedError naming it (and listed in `not-modelled.ts`).
 */
import { createDescription, makeKey, removeKeys, runCheck } from './apikeys.ts';
import { generateKey, revokeKey } from './apikeys-programmatic.ts';
import type { MethodImpl } from './call.ts';
import { getParam } from './config-parameter.ts';
import { customMethods } from './custom.ts';
import { checkAccessRights, checkAccessRule, checkFieldAccessRights, defaultGet, fieldsGet, hasAccess } from './meta.ts';
import { formattedReadGroup, readGroup } from './read-group.ts';
import { isTupleReadGroup, tupleReadGroup } from './read-group-tuples.ts';
import { contextGet, nameSearch, read, search, searchCountMethod, searchRead } from './search.ts';
import { webReadMethod, webSearchRead } from './web.ts';
import { checkObjectReference } from './xmlid.ts';
import { actionArchive, actionUnarchive, copy, create, nameCreate, toggleActive, unlink, write } from './write.ts';

/** BaseModel (and web's Base) methods, for every seeded model. */
const generic: Record<string, MethodImpl> = {
  search,
  search_count: searchCountMethod,
  search_read: searchRead,
  read,
  write,
  create,
  unlink,
  copy,
  fields_get: fieldsGet,
  default_get: defaultGet,
  name_search: nameSearch,
  name_create: nameCreate,
  // 19.0's or 20.0's, as the served table binds it (sim/persona.ts `readGroup`)
  read_group: (call) => (isTupleReadGroup(call.spec.params) ? tupleReadGroup(call) : readGroup(call)),
  formatted_read_group: formattedReadGroup,
  web_read: webReadMethod,
  web_search_read: webSearchRead,
  has_access: hasAccess,
  check_access_rights: checkAccessRights,
  check_access_rule: checkAccessRule,
  check_field_access_rights: checkFieldAccessRights,
  action_archive: actionArchive,
  action_unarchive: actionUnarchive,
  toggle_active: toggleActive,
};

/** Methods of one model. */
const specific: Record<string, Record<string, MethodImpl>> = {
  'res.users': { context_get: contextGet },
  // The key flows (Odoo: `res_users.py` `res.users.apikeys`, `res_users.py` identity check (`res.users.identitycheck`)); generate/revoke
  // are reachable only on the later build.
  'res.users.apikeys': { remove: removeKeys, generate: generateKey, revoke: revokeKey },
  'res.users.apikeys.description': { create: createDescription, make_key: makeKey },
  'res.users.identitycheck': { run_check: runCheck },
  'ir.config_parameter': { get_param: getParam },
  // OdooRPC's env.ref()
  'ir.model.data': { check_object_reference: checkObjectReference },
};
// Custom methods a database's own modules would add (absent from the recorded method table).
for (const custom of customMethods) (specific[custom.model] ??= {})[custom.method] = custom.impl;

/** Methods every model has but that write: refused on the read-only views (the key store, ir.model, ir.access). */
const keyViewReadOnly = new Set([
  'write',
  'create',
  'unlink',
  'copy',
  'name_create',
  'action_archive',
  'action_unarchive',
  'toggle_active',
]);

/** The implementation of `model.method`, or undefined when the simulator does not model it. */
export function methodImpl(model: string, seeded: boolean, method: string): MethodImpl | undefined {
  const own = specific[model]?.[method];
  if (own !== undefined) return own;
  if (!seeded) return undefined;
  if ((model === 'res.users.apikeys' || model === 'ir.model' || model === 'ir.access') && keyViewReadOnly.has(method)) return undefined;
  return generic[method];
}

/** Names of the generic methods (for the not-modelled list). */
export const genericMethodNames: readonly string[] = Object.keys(generic);
/** Names of model-specific methods, as `model.method`. */
export const specificMethodNames: readonly string[] = Object.entries(specific).flatMap(([m, ms]) =>
  Object.keys(ms).map((k) => `${m}.${k}`),
);
