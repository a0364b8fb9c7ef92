/**
 * The Python qualname a signature is given when no table knows the method that runs: Odoo names a
 * model's class after the model (`res.partner` → `class ResPartner`), and Python prefixes its
 * TypeError texts with `<Class>.<method>`.
 */

/**
 * The class name Odoo's convention gives `model`: `res.users.apikeys` → `ResUsersApikeys`,
 * `x_custom.model` → `XCustomModel`. `core` (what `/doc-bearer` says for BaseModel's own methods)
 * → `BaseModel`; `base` (web's `_inherit = 'base'`) → `Base`.
 */
export function classNameFromModel(model: string): string {
  if (model === 'core') return 'BaseModel';
  return model
    .split(/[._]/)
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** `<Class>.<method>` for a method introduced by `model` (see {@link classNameFromModel}). */
export function qualnameFromModel(model: string, method: string): string {
  return `${classNameFromModel(model)}.${method}`;
}

/** The method name a qualname runs as: `BaseModel.search` → `search` (a bare name is its own method). */
export function methodFromQualname(qualname: string): string {
  return qualname.slice(qualname.lastIndexOf('.') + 1);
}
