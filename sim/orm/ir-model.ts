/**
 * `ir.model` as a read-only list of the database's models: one row per model (`model`, `name` — the
 * model's `_description` — `state`, `transient`), as OdooRPC's `'res.partner' in odoo.env` reads it
 * (`ir.model.search([('model', '=', name)])`). Ids are the simulator's own (Odoo's depend on module
 * install order).
 */
import type { Value } from '../../src/value.ts';
import type { Database } from './database.ts';
import { fieldAttrs, type FieldDef, fieldFromAttrs } from './fields.ts';

/** The model's `_description` and `_order` (odoo/addons/base/models/ir_model.py `IrModel`). */
export const irModelDescription = 'Models';
export const irModelOrder = 'model';

/** The fields of `ir.model` the simulator keeps. */
export function irModelFields(): Map<string, FieldDef> {
  const defs: [string, Map<string, Value>][] = [
    ['id', fieldAttrs('integer', 'ID', { readonly: true })],
    ['name', fieldAttrs('char', 'Model Description', { required: true, translate: true })],
    ['model', fieldAttrs('char', 'Model', { required: true })],
    [
      'state',
      fieldAttrs('selection', 'Type', {
        selection: [
          ['manual', 'Custom Object'],
          ['base', 'Base Object'],
        ],
      }),
    ],
    ['transient', fieldAttrs('boolean', 'Transient Model')],
  ];
  return new Map(defs.map(([name, a]) => [name, fieldFromAttrs(name, a)]));
}

/** The wizards of the method table (`models.TransientModel` in Odoo). */
const transientModels = new Set(['res.users.apikeys.description', 'res.users.identitycheck']);

/** Fills `ir.model` with one base row per model of `db`, in model-name order. */
export function fillIrModel(db: Database): void {
  const model = db.model('ir.model');
  if (model === undefined) return;
  const names = [...db.models.keys()].sort();
  names.forEach((name, i) => {
    const described = db.model(name);
    model.insert({
      id: i + 1,
      v: { name: described?.description ?? name, model: name, state: 'base', transient: transientModels.has(name) },
      extra: {},
    });
  });
}
