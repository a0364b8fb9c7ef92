/**
 * `ir.access` (20.0; odoo/addons/base/models/ir_access.py): the one model that replaced
 * `ir.model.access` and `ir.rule`. A row grants (`group_id` set: a permission) or restricts (no
 * group: a restriction) the operations of `operation` — a subset of `crud` — on the records of
 * `domain` of one model (`model_id`, a many2one to `ir.model`). `_description` "Access", `_order`
 * `model_id, group_id, id`.
 *
 * The simulator's rows state its own generic access rules (`access.ts`) in that form: internal users
 * read every model and change those without manager groups; the first manager group changes them;
 * portal and public users read base data; API keys are their owner's (system users see every key).
 * They are a description only: access is still decided by `access.ts`. Ids are the simulator's own.
 */
import type { Value } from '../../src/value.ts';
import { internalGroupNames, shareReadable, systemGroupNames } from './access.ts';
import type { Database } from './database.ts';
import { fieldAttrs, type FieldDef, fieldFromAttrs } from './fields.ts';
import { rulesFor } from '../rules/index.ts';

export const irAccessDescription = 'Access';
export const irAccessOrder = 'model_id, group_id, id';

/** `CRUD_SELECTION` of ir_access.py, in its order. */
const crudSelection: [string, string][] = [
  ['crud', 'Create, Read, Update, Delete'],
  ['cru', 'Create, Read, Update'],
  ['crd', 'Create, Read, Delete'],
  ['cud', 'Create, Update, Delete'],
  ['rud', 'Read, Update, Delete'],
  ['cr', 'Create, Read'],
  ['cu', 'Create, Update'],
  ['cd', 'Create, Delete'],
  ['ru', 'Read, Update'],
  ['rd', 'Read, Delete'],
  ['ud', 'Update, Delete'],
  ['c', 'Create'],
  ['r', 'Read'],
  ['u', 'Update'],
  ['d', 'Delete'],
];

/** The stored fields of `ir.access` the simulator keeps (not the computed `kind`, `is_standard`, `for_*`, nor `note`). */
export function irAccessFields(): Map<string, FieldDef> {
  const defs: [string, Map<string, Value>][] = [
    ['id', fieldAttrs('integer', 'ID', { readonly: true })],
    ['name', fieldAttrs('char', 'Name', { required: true })],
    ['active', fieldAttrs('boolean', 'Active', { help: 'Only active accesses are taken into account when checking access rights.' })],
    ['model_id', fieldAttrs('many2one', 'Model', { relation: 'ir.model', required: true })],
    ['group_id', fieldAttrs('many2one', 'Group', { relation: 'res.groups' })],
    [
      'operation',
      fieldAttrs('selection', 'Operation', {
        required: true,
        selection: crudSelection,
        help: "Which operation(s) this access applies to, a subset of 'crud'.",
      }),
    ],
    ['domain', fieldAttrs('char', 'Domain', { help: 'The operations will only be allowed for records in this domain' })],
    ['display_name', fieldAttrs('char', 'Display Name', { readonly: true, store: false, sortable: false, groupable: false })],
  ];
  return new Map(defs.map(([name, a]) => [name, fieldFromAttrs(name, a)]));
}

/** The API keys' record rule, as an ir.access domain. */
const ownKeys = "[('user_id', '=', user.id)]";

/** Fills `ir.access` from the simulator's access rules, one row per (model, group), in model-name order. */
export function fillIrAccess(db: Database): void {
  const access = db.model('ir.access');
  const irModel = db.model('ir.model');
  if (access === undefined || irModel === undefined) return;
  const groupId = (names: readonly string[]): number | undefined => [...db.groupIdsNamed(names)].sort((a, b) => a - b)[0];
  const internal = groupId(internalGroupNames);
  const system = groupId(systemGroupNames);
  const portal = groupId(['Role / Portal']);
  const publicGroup = groupId(['Role / Public']);
  let id = 1;
  const add = (modelId: number, model: string, suffix: string, group: number | undefined, operation: string, domain: string | false) => {
    if (group === undefined) return;
    access.insert({
      id: id++,
      v: { name: `${model}.${suffix}`, active: true, model_id: modelId, group_id: group, operation, domain },
      extra: {},
    });
  };
  const byName = [...irModel.rows.values()].sort((a, b) => String(a.v.model).localeCompare(String(b.v.model)));
  for (const row of byName) {
    const model = String(row.v.model);
    const managers = rulesFor(model).managerGroups;
    const own = model === 'res.users.apikeys' ? ownKeys : false;
    add(row.id, model, 'user', internal, managers === undefined ? 'crud' : 'r', own);
    if (managers !== undefined) add(row.id, model, 'manager', groupId(managers.slice(0, 1)), 'crud', false);
    if (shareReadable.has(model)) {
      add(row.id, model, 'portal', portal, 'r', own);
      add(row.id, model, 'public', publicGroup, 'r', own);
    }
    if (own !== false) add(row.id, model, 'system', system, 'crud', false);
  }
}
