/**
 * The public classmethods and staticmethods among the built-in table's methods, found by reading
 * every model class of Odoo 19.0's source (`is_transient` in odoo/orm/models.py; ir_module.py in
 * odoo/addons/base/models; ir_http.py in addons/web/models and addons/utm/models).
 *
 * `call_kw` (odoo/service/model.py) finds no `_api_model` on them, so it browses `args[0]` and calls
 * `method(recs, *args[1:])`: the recordset lands in their first declared parameter (`name` of
 * `get_module_info(cls, name)`), and JSON-2 binds `Model.browse(ids)` to it the same way
 * (addons/rpc/controllers/json2.py). The table's rows lost that parameter (its extraction took the
 * first one for `self`), so these rows give the parameters as declared, after `cls`.
 */
import type { ParamRow } from './builtin-table.ts';

export interface UnboundMethod {
  readonly binding: 'classmethod' | 'staticmethod';
  /** Declared parameters (after `cls`), rows as in the built-in table. */
  readonly params: readonly ParamRow[];
}

/** By the qualname of the function that runs. */
export const unboundMethods: Readonly<Record<string, UnboundMethod>> = {
  'BaseModel.is_transient': { binding: 'classmethod', params: [] },
  'IrHttp.get_utm_domain_cookies': { binding: 'classmethod', params: [] },
  'IrHttp.is_a_bot': { binding: 'classmethod', params: [] },
  'IrModuleModule.get_module_info': { binding: 'classmethod', params: [['name']] },
  'IrModuleModule.get_values_from_terp': { binding: 'staticmethod', params: [['terp']] },
};
