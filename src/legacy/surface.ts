/**
 * The legacy surface Odoo 19.0 serves, declared once (data): one row per `service.method` with how
 * Odoo's `dispatch` calls it (`exp_<method>(*params)`, the `db` service taking the master password
 * first), its Python signature for CPython's arity errors, and whether a second sending is harmless.
 * Dispatch (`common.ts`, `db.ts`), metric labels (`metrics/labels.ts`) and which calls shadow and
 * verify may send again (`cutover/shadow/policy.ts`) all read it. `surface.test.ts` holds it against
 * Odoo's own `exp_*` definitions (`odoo19-exp-functions.json`, extracted from Odoo's source).
 *
 * `object` has no `exp_*` functions in 19.0: its `dispatch` unpacks `db, uid, passwd, model, method,
 * *args` itself (`object.ts`), and what a call does depends on the model method it names.
 */
import type { PositionalSignature } from '../python/call-arity.ts';

/** The legacy services, as Odoo's `rpc_dispatchers` names them. */
export type LegacyServiceName = 'common' | 'db' | 'object';

/**
 * Whether shadow and verify may send the call a second time:
 * - `yes`: it only reads and costs little;
 * - `accepted-login`: it checks a password — sent again only when Odoo accepted it, since a second
 *   failed attempt feeds Odoo's login cooldown;
 * - `no`: it can change state, or moves a whole database (`dump`);
 * - `by-model-method`: an `object` call, decided by the model method it names.
 */
export type Resend = 'yes' | 'accepted-login' | 'no' | 'by-model-method';

export interface LegacyFunction {
  service: LegacyServiceName;
  method: string;
  /** The `exp_*` function `dispatch` calls, with its positional parameters after the master password. */
  signature: PositionalSignature | undefined;
  /** `dispatch` pops `params[0]` and runs `check_super` on it (the `db` service's master password). */
  master: boolean;
  resend: Resend;
}

const exp = (
  service: LegacyServiceName,
  method: string,
  params: string[],
  required: number,
  resend: Resend,
  master = false,
): LegacyFunction => ({ service, method, signature: { name: `exp_${method}`, params, required }, master, resend });

/** Every `service.method` Odoo 19.0 answers on `/xmlrpc/2/<service>`, `/xmlrpc/<service>` and `/jsonrpc`. */
export const legacySurface: readonly LegacyFunction[] = [
  // odoo/service/common.py
  exp('common', 'login', ['db', 'login', 'password'], 3, 'accepted-login'),
  exp('common', 'authenticate', ['db', 'login', 'password', 'user_agent_env'], 4, 'accepted-login'),
  exp('common', 'version', [], 0, 'yes'),
  exp('common', 'about', ['extended'], 0, 'yes'),
  exp('common', 'set_loglevel', ['loglevel', 'logger'], 1, 'no'),
  // odoo/service/db.py: all but four take the master password first
  exp('db', 'create_database', ['db_name', 'demo', 'lang', 'user_password', 'login', 'country_code', 'phone'], 3, 'no', true),
  exp('db', 'duplicate_database', ['db_original_name', 'db_name', 'neutralize_database'], 2, 'no', true),
  exp('db', 'drop', ['db_name'], 1, 'no', true),
  exp('db', 'dump', ['db_name', 'format'], 2, 'no', true),
  exp('db', 'restore', ['db_name', 'data', 'copy'], 2, 'no', true),
  exp('db', 'rename', ['old_name', 'new_name'], 2, 'no', true),
  exp('db', 'change_admin_password', ['new_password'], 1, 'no', true),
  exp('db', 'migrate_databases', ['databases'], 1, 'no', true),
  // not decorated with check_db_management_enabled, but dispatch still takes the master password first
  exp('db', 'list_countries', [], 0, 'yes', true),
  exp('db', 'db_exist', ['db_name'], 1, 'yes'),
  exp('db', 'list', ['document'], 0, 'yes'),
  exp('db', 'list_lang', [], 0, 'yes'),
  exp('db', 'server_version', [], 0, 'yes'),
  // odoo/service/model.py: dispatch unpacks the parameters itself
  { service: 'object', method: 'execute', signature: undefined, master: false, resend: 'by-model-method' },
  { service: 'object', method: 'execute_kw', signature: undefined, master: false, resend: 'by-model-method' },
];

const byName = new Map(legacySurface.map((f) => [`${f.service}.${f.method}`, f]));

/** The row of `service.method`, or undefined when Odoo 19.0 does not serve it. */
export function legacyFunction(service: string, method: string): LegacyFunction | undefined {
  return byName.get(`${service}.${method}`);
}

/** Whether `service` is one of the legacy services. */
export function isLegacyService(service: string): service is LegacyServiceName {
  return service === 'common' || service === 'db' || service === 'object';
}

/** The `common`/`db` methods no shadow or verify may send twice, whatever the operator allows. */
export function neverResentServiceMethod(method: string): boolean {
  return legacySurface.some((f) => f.method === method && f.resend === 'no');
}

/** `common.login` or `common.authenticate`: a call that checks a password (`resend: 'accepted-login'`). */
export function isPasswordLogin(service: string, method: string): boolean {
  return legacyFunction(service, method)?.resend === 'accepted-login';
}
