/** The msgid of `@check_identity`'s refusal (`odoo/addons/base/models/res_users.py`, 19.0). */
export const refusalSource = 'This method can only be accessed over HTTP';
