/**
 * `ir.config_parameter`'s one method the simulator serves (Odoo:
 * `odoo/addons/base/models/ir_config_parameter.py`): its ACL grants nothing to other groups than
 * the system's.
 */
import { isSystem } from '../orm/access.ts';
import { configParameters } from '../orm/config-parameters.ts';
import { accessError } from '../errors.ts';
import type { MethodImpl } from './call.ts';

/** `ir.config_parameter.get_param(key, default=False)`: the stored text, else the default. */
export const getParam: MethodImpl = (call) => {
  if (!isSystem(call.env)) {
    throw accessError(
      "You are not allowed to access 'System Parameter' (ir.config_parameter) records.\n\n" +
        'This operation is allowed for the following groups:\n\t- Role / Administrator\n\n' +
        'Contact your administrator to request access if necessary.',
    );
  }
  const key = call.arg('key');
  const value = typeof key === 'string' ? configParameters(call.env.db).get(key) : undefined;
  return value ?? call.arg('default');
};
