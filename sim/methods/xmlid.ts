/**
 * `ir.model.data.check_object_reference(module, xml_id, raise_on_access_error=False)`
 * (odoo/addons/base/models/ir_model.py, 19.0), what OdooRPC's `env.ref()` calls: the external ID
 * `"%s.%s" % (module, xml_id)` is looked up in the database's `ir.model.data` rows (ValueError when
 * none names a record), then the record is searched for by id as the user, so archived records and
 * what the user may not read answer `(model, False)`, or AccessError when asked to raise.
 */
import { isTruthy } from '../../src/value.ts';
import { checkModelAccess } from '../orm/access.ts';
import { accessError, valueError } from '../errors.ts';
import { searchRows } from '../orm/orm-search.ts';
import { pyStr } from '../python-repr.ts';
import type { MethodImpl } from './call.ts';

/** `_xmlid_lookup`: `(model, res_id)` of the external ID, or ValueError as Odoo words it. */
function xmlidLookup(call: Parameters<MethodImpl>[0], xmlid: string): [string, number] {
  const dot = xmlid.indexOf('.');
  const [module, name] = [xmlid.slice(0, dot), xmlid.slice(dot + 1)];
  const data = call.env.db.model('ir.model.data');
  const row = [...(data?.rows.values() ?? [])].find((r) => r.v.module === module && r.v.name === name);
  const model = row?.v.model;
  const resId = row?.v.res_id;
  if (typeof model !== 'string' || typeof resId !== 'number' || resId === 0) {
    throw valueError(`External ID not found in the system: ${xmlid}`);
  }
  return [model, resId];
}

export const checkObjectReference: MethodImpl = (call) => {
  const [module, xmlId] = [pyStr(call.arg('module')), pyStr(call.arg('xml_id'))];
  const [model, resId] = xmlidLookup(call, `${module}.${xmlId}`);
  const target = call.env.db.model(model);
  if (target !== undefined) {
    checkModelAccess(call.env, target, 'read');
    if (searchRows(call.env, target, [['id', '=', resId]]).length > 0) return [model, resId];
  }
  if (isTruthy(call.arg('raise_on_access_error'))) {
    throw accessError(`Not enough access rights on the external ID "${module}.${xmlId}"`);
  }
  return [model, false];
};
