/**
 * The 13 functions of Odoo 19's legacy `db` service (`odoo/service/db.py`, Odoo: `odoo/service/db.py`): their
 * positional parameters after the master password (for CPython's arity TypeErrors, which name the
 * `exp_*` function) and whether `dispatch` takes a master password first.
 */
import type { PositionalSignature } from '../python/call-arity.ts';

/** One `exp_*` function as `dispatch` calls it. */
export interface DbFunction extends PositionalSignature {
  /** `dispatch` pops `params[0]` and runs `check_super` on it before the call. */
  master: boolean;
}

const fn = (method: string, params: string[], required: number, master: boolean): [string, DbFunction] => [
  method,
  { name: `exp_${method}`, params, required, master },
];

/** The functions by legacy method name. */
export const dbFunctions: ReadonlyMap<string, DbFunction> = new Map([
  fn('create_database', ['db_name', 'demo', 'lang', 'user_password', 'login', 'country_code', 'phone'], 3, true),
  fn('duplicate_database', ['db_original_name', 'db_name', 'neutralize_database'], 2, true),
  fn('drop', ['db_name'], 1, true),
  fn('dump', ['db_name', 'format'], 2, true),
  fn('restore', ['db_name', 'data', 'copy'], 2, true),
  fn('rename', ['old_name', 'new_name'], 2, true),
  fn('change_admin_password', ['new_password'], 1, true),
  fn('migrate_databases', ['databases'], 1, true),
  // not decorated, but dispatch still takes the master password first
  fn('list_countries', [], 0, true),
  // called without a password
  fn('db_exist', ['db_name'], 1, false),
  fn('list', ['document'], 0, false),
  fn('list_lang', [], 0, false),
  fn('server_version', [], 0, false),
]);
