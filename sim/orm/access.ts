/**
 * Access rights, generically (not Odoo's full ACL/rule tables): the superuser and system users may do
 * everything; other internal users may read every model and change those without `managerGroups`;
 * portal/public users may only read base data. Record rules: API keys are visible to their owner
 * (and to system users), and the `ir.rule`s and field `groups` a model's rules declare (`rules/`),
 * combined as `ir.rule._compute_domain` does. Messages follow `ir.model.access`
 * (odoo/addons/base/models/ir_model.py), `ir.rule._make_access_error` (ir_rule.py) and
 * `_check_field_access` (odoo/orm/models.py).
 */
import type { Value } from '../../src/value.ts';
import { displayNameOf } from './database.ts';
import { type Env, superuserId } from './env.ts';
import { accessError, missingError, type OdooError, valueError } from '../errors.ts';
import type { FieldDef } from './fields.ts';
import type { ModelStore, Row } from './model.ts';
import { rulesFor } from '../rules/index.ts';
import type { RecordRule } from '../rules/types.ts';

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

/** The `ir.rule`s of the model for `op` that apply to the caller (global ones, and those of their groups). */
function applicableRules(env: Env, model: ModelStore, op: Operation): { all: RecordRule[]; global: RecordRule[]; group: RecordRule[] } {
  const out = { all: [] as RecordRule[], global: [] as RecordRule[], group: [] as RecordRule[] };
  if (env.uid === superuserId) return out;
  const mine = userGroups(env);
  for (const rule of rulesFor(model.name).recordRules ?? []) {
    if (!rule.operations.includes(op)) continue;
    if (rule.groups === undefined) out.global.push(rule);
    else if ([...env.db.groupIdsNamed(rule.groups)].some((id) => mine.has(id))) out.group.push(rule);
    else continue;
    out.all.push(rule);
  }
  return out;
}

/**
 * The record rules of a model for the caller and `op` (`ir.rule._compute_domain`: the global rules
 * AND-ed with the OR of the caller's group rules), or undefined when there is no rule domain.
 */
export function recordRule(env: Env, model: ModelStore, op: Operation = 'read'): ((row: Row) => boolean) | undefined {
  if (model.name === 'res.users.apikeys' && !isSystem(env)) return (row) => row.v.user_id === env.uid;
  const { global, group } = applicableRules(env, model, op);
  if (global.length === 0 && group.length === 0) return undefined;
  return (row) => global.every((r) => r.test(env, row)) && (group.length === 0 || group.some((r) => r.test(env, row)));
}

const ruleOperations: Record<Operation, string> = { read: 'read', write: 'write', create: 'create', unlink: 'unlink' };

function missingRecord(env: Env, model: ModelStore, id: Value): OdooError {
  return missingError(`Record does not exist or has been deleted.\n(Record: ${model.name}(${String(id)},), User: ${env.uid})`);
}

function companyName(env: Env, id: number): string {
  const row = env.db.model('res.company')?.get(id);
  return typeof row?.v.name === 'string' ? row.v.name : `res.company,${id}`;
}

/**
 * `ir.rule._make_access_error(operation, records)` (odoo/addons/base/models/ir_rule.py): the
 * failing rules (`_get_failing`), the records (for `base.group_no_one` internal users), the
 * multi-company hint. A record that does not exist makes it raise Odoo's MissingError instead as
 * soon as it reads the records (a company rule failed, or the caller sees the record list).
 */
export function ruleAccessError(env: Env, model: ModelStore, ids: Value[], op: Operation): OdooError {
  const rows = ids.map((id) => (typeof id === 'number' ? model.get(id) : undefined));
  const { all, group } = applicableRules(env, model, op);
  const groupFails = group.length > 0 && !rows.every((row) => row !== undefined && group.some((r) => r.test(env, row)));
  // in the rules' order (ir.rule's id): the group rules when they fail together, each failing global rule
  const failing = all.filter((r) => (r.groups !== undefined ? groupFails : rows.some((row) => row === undefined || !r.test(env, row))));
  const user = env.userRow();
  const header =
    'Uh-oh! Looks like you have stumbled upon some top-secret records.\n\n' +
    `Sorry, ${String(user.v.name)} (id=${env.uid}) doesn't have '${ruleOperations[op]}' access to:`;
  let resolution =
    'If you really, really need access, perhaps you can win over your friendly administrator with a batch of freshly baked cookies.';
  const display = ids.slice(0, 6);
  const displayRows = rows.slice(0, 6);
  const companyRelated = failing.some((r) => r.companyRelated === true);
  const missingAt = displayRows.findIndex((r) => r === undefined);
  const userCompanies = Array.isArray(user.v.company_ids) ? user.v.company_ids : [];
  if (companyRelated && model.fields.has('company_id')) {
    if (missingAt !== -1) throw missingRecord(env, model, display[missingAt] ?? null);
    const companies = [...new Set(displayRows.map((r) => r?.v.company_id).filter((c): c is number => typeof c === 'number'))];
    if (companies.length > 1)
      resolution += '\n\nNote: this might be a multi-company issue. Switching company may help - in Odoo, not in real life!';
    else if (companies.length === 1 && userCompanies.includes(companies[0] as number))
      resolution += `\n\nThis seems to be a multi-company issue, you might be able to access the record by switching to the company: ${companyName(env, companies[0] as number)}.`;
    else if (companies.length === 1)
      resolution +=
        '\n\nThis seems to be a multi-company issue, but you do not have access to the proper company to access the record anyhow.';
  }
  const debug = !isShare(env) && [...env.db.groupIdsNamed(['Technical Features'])].some((id) => userGroups(env).has(id));
  if (!debug) return accessError(`${header}\n- ${model.description} (${model.name})\n\n${resolution}`);
  if (missingAt !== -1) throw missingRecord(env, model, display[missingAt] ?? null);
  const described = displayRows.map((row) => {
    const r = row as Row;
    const company = r.v.company_id;
    const withCompany = companyRelated && typeof company === 'number' && userCompanies.includes(company);
    return `- ${model.description}, ${displayNameOf(env.db, model, r)} (${model.name}: ${r.id}${withCompany ? `, company=${companyName(env, company)}` : ''})`;
  });
  const blamed = failing.map((r) => `- ${r.name}`).join('\n');
  return accessError(`${header}\n${described.join('\n')}\n\nBlame the following rules:\n${blamed}\n\n${resolution}`);
}

/**
 * `BaseModel._check_access(operation)` on `browse(ids)`: undefined when allowed, else the function
 * that makes the exception (`check_access` raises it, `has_access` answers False). The model's ACL
 * first; record rules only on records with an id, a missing record failing them.
 */
export function accessCheck(env: Env, model: ModelStore, ids: Value[], op: Operation): (() => OdooError) | undefined {
  if (!hasModelAccess(env, model, op)) {
    return () => {
      try {
        checkModelAccess(env, model, op);
      } catch (err) {
        return err as OdooError;
      }
      throw new Error('unreachable');
    };
  }
  if (!ids.some((id) => id !== false && id !== 0 && id !== null)) return undefined;
  const rule = recordRule(env, model, op);
  if (rule === undefined) return undefined;
  const forbidden = ids.filter((id) => {
    const row = typeof id === 'number' ? model.get(id) : undefined;
    return row === undefined || !rule(row);
  });
  if (forbidden.length === 0) return undefined;
  return () => ruleAccessError(env, model, forbidden, op);
}

const technicalFeatures = ['Technical Features'];

/** `BaseModel._has_field_access(field, operation)`: a field's `groups` (the simulator's `fieldGroups`). */
export function hasFieldAccess(env: Env, model: ModelStore, field: FieldDef): boolean {
  const groups = rulesFor(model.name).fieldGroups?.[field.name];
  if (groups === undefined || env.uid === superuserId) return true;
  const mine = userGroups(env);
  return [...env.db.groupIdsNamed(groups)].some((id) => mine.has(id));
}

/** `BaseModel._check_field_access(field, operation)`: Odoo's AccessError when the field is refused. */
export function checkFieldAccess(env: Env, model: ModelStore, field: FieldDef, operation: Value): void {
  if (hasFieldAccess(env, model, field)) return;
  let message =
    `You do not have enough rights to access the field "${field.name}" on ${model.description} (${model.name}). ` +
    `Please contact your system administrator.\n\nOperation: ${String(operation)}`;
  if ([...env.db.groupIdsNamed(technicalFeatures)].some((id) => userGroups(env).has(id))) {
    const names = rulesFor(model.name).fieldGroups?.[field.name] ?? [];
    const groups = [...env.db.groupIdsNamed(names)]
      .sort((a, b) => a - b)
      .map((id) => {
        const row = env.db.model('res.groups')?.get(id);
        return `'${String(row?.v.full_name ?? row?.v.name)}'`;
      });
    message += `\nUser: ${env.uid}\nGroups: allowed for groups ${groups.join(', ')}`;
  }
  throw accessError(message);
}

/** The fields `read(fields)` reads, in order: an unknown name is a ValueError, a refused one an AccessError. */
export function checkedFieldNames(env: Env, model: ModelStore, names: readonly string[]): FieldDef[] {
  const out: FieldDef[] = [];
  for (const name of names) {
    const f = model.field(name);
    if (f === undefined) throw valueError(`Invalid field '${name}' on '${model.name}'`);
    checkFieldAccess(env, model, f, 'read');
    out.push(f);
  }
  return out;
}
