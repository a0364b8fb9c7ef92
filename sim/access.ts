/**
 * Access rights, generically (not Odoo's full ACL/rule tables): the superuser and system users may do
 * everything; other internal users may read every model and change those without `managerGroups`;
 * portal/public users may only read base data. One record rule: API keys are visible to their owner
 * (and to system users). Messages follow `ir.model.access` (odoo/addons/base/models/ir_model.py).
 */
import { type Env, superuserId } from './env.ts';
import { accessError } from './errors.ts';
import type { ModelStore, Row } from './model.ts';
import { rulesFor } from './rules/index.ts';

export type Operation = 'read' | 'write' | 'create' | 'unlink';

export const operations: readonly Operation[] = ['read', 'write', 'create', 'unlink'];

/** base.group_system, by the names Odoo 19 (and earlier versions) give it. */
export const systemGroupNames = ['Role / Administrator', 'Administration / Settings', 'Settings'];
/** base.group_user. */
export const internalGroupNames = ['Role / User'];
/** Models portal and public users may read. */
export const shareReadable = new Set([
  'res.partner',
  'res.country',
  'res.country.state',
  'res.lang',
  'res.currency',
  'res.company',
  'uom.uom',
  'res.users.apikeys',
]);

const verbs: Record<Operation, string> = { read: 'access', write: 'modify', create: 'create', unlink: 'delete' };

function userGroups(env: Env): Set<number> {
  const groups = env.user()?.v.all_group_ids;
  return new Set(Array.isArray(groups) ? groups : []);
}

/** True for the superuser and members of base.group_system. */
export function isSystem(env: Env): boolean {
  if (env.uid === superuserId) return true;
  const mine = userGroups(env);
  for (const id of env.db.groupIdsNamed(systemGroupNames)) if (mine.has(id)) return true;
  return false;
}

/** True for portal and public users (`share`). */
export function isShare(env: Env): boolean {
  return env.user()?.v.share === true;
}

function allowedGroups(model: ModelStore, op: Operation): string[] {
  if (op === 'read') return shareReadable.has(model.name) ? [] : internalGroupNames;
  return rulesFor(model.name).managerGroups?.slice(0, 1) ?? internalGroupNames;
}

/** `has_access`-level check of the model ACL. */
export function hasModelAccess(env: Env, model: ModelStore, op: Operation): boolean {
  if (isSystem(env)) return true;
  if (isShare(env)) return op === 'read' && shareReadable.has(model.name);
  if (op === 'read') return true;
  const managers = rulesFor(model.name).managerGroups;
  if (managers === undefined) return true;
  const mine = userGroups(env);
  for (const id of env.db.groupIdsNamed(managers)) if (mine.has(id)) return true;
  return false;
}

/** Raises Odoo's ACL AccessError when the caller may not perform `op` on the model. */
export function checkModelAccess(env: Env, model: ModelStore, op: Operation): void {
  if (hasModelAccess(env, model, op)) return;
  const header = `You are not allowed to ${verbs[op]} '${model.description}' (${model.name}) records.`;
  const groups = allowedGroups(model, op);
  const groupInfo =
    groups.length === 0
      ? 'No group currently allows this operation.'
      : `This operation is allowed for the following groups:\n${groups.map((g) => `\t- ${g}`).join('\n')}`;
  throw accessError(`${header}\n\n${groupInfo}\n\nContact your administrator to request access if necessary.`);
}

/** The record rules of a model for the caller, or undefined when every record is visible. */
export function recordRule(env: Env, model: ModelStore): ((row: Row) => boolean) | undefined {
  if (model.name === 'res.users.apikeys' && !isSystem(env)) return (row) => row.v.user_id === env.uid;
  return undefined;
}
