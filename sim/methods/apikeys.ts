/**
 * The API key flows of `odoo/addons/base/models/res_users.py` (Odoo: `res_users.py` `res.users.apikeys`, `res_users.py` identity check
 * (`res.users.identitycheck`), `res_users.py` `res.users.apikeys.generate` (later builds)): the `res.users.apikeys.description` wizard
 * (expiry today + N days at 00:00 UTC, the group maximum), `make_key` and `res.users.apikeys.remove` behind `@check_identity` (10-minute
 * window kept in the web session) and `res.users.identitycheck.run_check` (the password, never a key). The later build's programmatic
 * `generate` / `revoke` are in `apikeys-programmatic.ts`.
 */
import { struct, type Struct, type Value } from '../../src/value.ts';
import { isShare, isSystem } from '../orm/access.ts';
import { formatDatetime, parseOdooDatetime } from '../clock.ts';
import type { Database } from '../orm/database.ts';
import type { Env } from '../orm/env.ts';
import { accessError, assertionError, missingError, userError, validationError, valueError } from '../errors.ts';
import type { KeyStore } from '../auth/key-store.ts';
import { pyRepr } from '../python-repr.ts';
import type { SimRequestState } from '../auth/request-state.ts';
import { Call, type MethodImpl } from './call.ts';

/** `check_identity`: a passed identity check is trusted for 10 minutes. */
export const identityWindowMs = 10 * 60 * 1000;
/** The selection of `res.users.apikeys.description.duration`, in days ('0' persistent, '-1' custom). */
const durations = ['1', '7', '30', '90', '180', '365', '0', '-1'];
/** `res.groups.api_key_duration` of the groups that set one: base.group_user has 90.0 (base_groups.xml). */
const groupDurations: readonly { names: readonly string[]; days: number }[] = [{ names: ['Role / User'], days: 90 }];

interface Wizard {
  uid: number;
  name: string;
  /** Odoo datetime, or null for a persistent key. */
  expiration: string | null;
}

interface IdentityCheck {
  uid: number;
  /** The decorated call to run again once the password is checked. */
  model: string;
  method: string;
  ids: Value[];
}

/** Transient records of one database (the wizard and the identity check are TransientModels). */
class KeyFlowRecords {
  readonly wizards = new Map<number, Wizard>();
  readonly checks = new Map<number, IdentityCheck>();
  nextWizard = 1;
  nextCheck = 1;
}

const records = new WeakMap<Database, KeyFlowRecords>();

function recordsOf(db: Database): KeyFlowRecords {
  let r = records.get(db);
  if (r === undefined) records.set(db, (r = new KeyFlowRecords()));
  return r;
}

/** Odoo's `request`, which the key flows need (`UserError` outside HTTP, as Odoo). */
export function requestOf(env: Env): SimRequestState {
  if (env.request === undefined) throw userError('This method can only be accessed over HTTP');
  return env.request;
}

/** Python's repr of a float day count: `90.0`. */
function pyFloat(days: number): string {
  return Number.isInteger(days) ? `${days}.0` : String(days);
}

/** `max(group.api_key_duration for group in user.all_group_ids) or 1.0`. */
function maxDurationDays(env: Env): number {
  const mine = env.user()?.v.all_group_ids;
  const groups = new Set(Array.isArray(mine) ? mine : []);
  let max = 0;
  for (const g of groupDurations) {
    for (const id of env.db.groupIdsNamed(g.names)) if (groups.has(id)) max = Math.max(max, g.days);
  }
  return max || 1;
}

/** `_check_expiration_date`: system users are exempt; others need a date within their maximum. */
export function checkExpirationDate(env: Env, expiration: string | null): void {
  if (isSystem(env)) return;
  if (expiration === null) throw validationError('The API key must have an expiration date');
  const max = maxDurationDays(env);
  const at = parseOdooDatetime(expiration)?.getTime() ?? Number.NaN;
  if (at > env.now.getTime() + max * 86_400_000) throw validationError(`You cannot exceed ${pyFloat(max)} days.`);
}

/** `fields.Date.today() + timedelta(days)`, stored as a datetime: 00:00 UTC, N days ahead. */
export function expiryInDays(now: Date, days: number): string {
  return formatDatetime(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)));
}

/** A datetime argument as `fields.Datetime.from_string` reads it; null/False means none. */
export function datetimeArg(v: Value): string | null {
  if (v === null || v === false) return null;
  const parsed = typeof v === 'string' ? parseOdooDatetime(v) : undefined;
  if (parsed === undefined) throw valueError(`time data ${pyRepr(v)} does not match format '%Y-%m-%d %H:%M:%S'`);
  return formatDatetime(parsed);
}

function singleId(call: Call): number {
  const [id, ...more] = call.ids;
  if (id === undefined || more.length > 0) throw valueError(`Expected singleton: ${call.model.name}(${call.ids.map(String).join(', ')})`);
  if (typeof id !== 'number')
    throw missingError(`Record does not exist or has been deleted.\n(Record: ${call.model.name}(${pyRepr(id)},), User: ${call.env.uid})`);
  return id;
}

function missing(call: Call, id: number): never {
  throw missingError(`Record does not exist or has been deleted.\n(Record: ${call.model.name}(${id},), User: ${call.env.uid})`);
}

function action(members: Record<string, Value>): Struct {
  return struct(members);
}

/** `check_identity`: runs `fn` inside the window, else stores the call and opens the identity check. */
function checkIdentity(call: Call, fn: (call: Call) => Value): Value {
  const request = requestOf(call.env);
  const last = request.session.identityCheckLast;
  if (last !== undefined && last > call.env.now.getTime() - identityWindowMs) return fn(call);
  const flows = recordsOf(call.env.db);
  const id = flows.nextCheck++;
  flows.checks.set(id, { uid: call.env.uid, model: call.model.name, method: call.method, ids: call.ids });
  return action({
    type: 'ir.actions.act_window',
    res_model: 'res.users.identitycheck',
    res_id: id,
    name: 'Access Control',
    target: 'new',
    views: [[false, 'form']],
    context: struct({ dialog_size: 'medium' }),
  });
}

/** `res.users.apikeys.description.create`: one wizard per dict, its expiry checked at once. */
export const createDescription: MethodImpl = (call) => {
  const vals = call.arg('vals_list');
  const list = vals instanceof Map ? [vals] : vals;
  if (!Array.isArray(list)) throw valueError(`${pyRepr(vals)} is not a list of dicts`);
  const flows = recordsOf(call.env.db);
  const ids: number[] = [];
  for (const v of list) {
    if (!(v instanceof Map)) throw valueError(`${pyRepr(v)} is not a dict`);
    const name = v.get('name');
    if (typeof name !== 'string' || name === '') throw validationError("Missing required value for the field 'Description' (name)");
    const duration = v.get('duration') ?? '30';
    if (typeof duration !== 'string' || !durations.includes(duration)) {
      throw valueError(`Wrong value for res.users.apikeys.description.duration: ${pyRepr(duration)}`);
    }
    const days = Number(duration);
    const expiration =
      duration === '-1' ? datetimeArg(v.get('expiration_date') ?? false) : days === 0 ? null : expiryInDays(call.env.now, days);
    checkExpirationDate(call.env, expiration);
    const id = flows.nextWizard++;
    flows.wizards.set(id, { uid: call.env.uid, name, expiration });
    ids.push(id);
  }
  return ids;
};

function makeKeyNow(call: Call): Value {
  // check_access_make_key: only internal users (portal's ICP portal.allow_api_keys is not modelled)
  if (isShare(call.env)) throw accessError('Only internal users can create API keys');
  const flows = recordsOf(call.env.db);
  const id = singleId(call);
  const wizard = flows.wizards.get(id);
  if (wizard === undefined || wizard.uid !== call.env.uid) missing(call, id);
  const key = requestOf(call.env).keys.add({
    uid: call.env.uid,
    name: wizard.name,
    scope: null,
    expiration: wizard.expiration,
    db: call.env.db.name,
  }).key;
  flows.wizards.delete(id);
  return action({
    type: 'ir.actions.act_window',
    res_model: 'res.users.apikeys.show',
    name: 'API Key Ready',
    views: [[false, 'form']],
    target: 'new',
    context: struct({ default_key: key }),
  });
}

/** `make_key` (`@check_identity`). */
export const makeKey: MethodImpl = (call) => checkIdentity(call, makeKeyNow);

function closeAction(): Struct {
  return action({ type: 'ir.actions.act_window_close' });
}

/** `_remove`: the owner or a system user; ids that are gone are skipped. */
export function removeRecords(env: Env, keys: KeyStore, ids: readonly Value[]): void {
  const found = keys.list(env.db.name).filter((k) => ids.includes(k.id));
  if (!isSystem(env) && found.some((k) => k.uid !== env.uid)) {
    throw accessError("You can not remove API keys unless they're yours or you are a system user");
  }
  for (const k of found) keys.remove(k.id, env.db.name);
}

function removeNow(call: Call): Value {
  removeRecords(call.env, requestOf(call.env).keys, call.ids);
  return closeAction();
}

/** `res.users.apikeys.remove` (`@check_identity`). */
export const removeKeys: MethodImpl = (call) => checkIdentity(call, removeNow);

/** The decorated methods `run_check` may run again. */
const replayable: Record<string, (call: Call) => Value> = {
  'res.users.apikeys.description.make_key': makeKeyNow,
  'res.users.apikeys.remove': removeNow,
};

/** `res.users.identitycheck.run_check`: the password from `context.password`, then the stored call. */
export const runCheck: MethodImpl = (call) => {
  const request = call.env.request;
  if (request === undefined) throw assertionError('This method can only be accessed over HTTP');
  const id = singleId(call);
  const check = recordsOf(call.env.db).checks.get(id);
  if (check === undefined || check.uid !== call.env.uid) missing(call, id);
  const password = call.env.context.get('password');
  // interactive credentials: the password only, never an API key
  if (typeof password !== 'string' || password === '' || call.env.db.passwords.get(check.uid) !== password) {
    throw userError('Incorrect Password, try again or click on Forgot Password to reset your password.');
  }
  request.session.identityCheckLast = call.env.now.getTime();
  const model = call.env.db.model(check.model);
  const replay = replayable[`${check.model}.${check.method}`];
  if (model === undefined || replay === undefined) throw assertionError(`${check.model}.${check.method} is not checked by identity`);
  return replay(new Call(call.env.withContext(new Map()), model, check.ids, check.method, call.spec, new Map(), new Map()));
};
