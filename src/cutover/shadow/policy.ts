/**
 * Which legacy calls shadow mode may send again to the upstream's legacy endpoint:
 * read-only methods of the allowlist only. Never a call that can change state, never a `db`
 * function but the five that only read, never a call the gateway refused as AccessDenied (a second
 * failed attempt feeds Odoo's login cooldown), never a `login`/`authenticate` the gateway answered
 * False (a wrong password). The allowlist is narrowed or extended only with methods the operator
 * names (`--shadow-methods +name,-name`); a method that can change state cannot be added.
 */
import { isPasswordLogin, legacySurface, neverResentServiceMethod } from '../../legacy/surface.ts';
import { ConfigError, parseShadowMethodChanges, type Config, type ShadowMethodChanges } from '../../config.ts';
import type { CallOutcome } from '../../wire/response.ts';
import type { AnswerView } from './answer-view.ts';

/** The methods shadowed by default: model methods that only read, `common.version`, and the db functions below. */
export const defaultShadowMethods: readonly string[] = [
  'read',
  'search',
  'search_read',
  'search_count',
  'fields_get',
  'name_search',
  'read_group',
  'formatted_read_group',
  'default_get',
  'check_access_rights',
  'context_get',
  'version',
  'list',
  'server_version',
  'db_exist',
  'list_lang',
  'list_countries',
];

/**
 * The only `db` functions ever shadowed (`legacy/surface.ts`: a second sending is harmless): they read,
 * and none takes a password but `list_countries` (the master).
 */
export const shadowableDbFunctions: ReadonlySet<string> = new Set(
  legacySurface.filter((f) => f.service === 'db' && f.resend === 'yes').map((f) => f.method),
);

/** Model methods that change state (the ORM's writers and workflow entry points); `common` and `db` ones are in `legacy/surface.ts`. */
const writers: ReadonlySet<string> = new Set([
  'create',
  'write',
  'unlink',
  'copy',
  'copy_data',
  'name_create',
  'toggle_active',
  'load',
  'web_save',
  'onchange',
  'message_post',
  'message_subscribe',
  'message_unsubscribe',
  'signal_workflow',
  'exec_workflow',
  'import_data',
  'execute',
  'execute_kw',
]);

/** Why a method can never be shadowed, or undefined when the operator may allow it. */
export function neverShadowedReason(method: string): string | undefined {
  if (writers.has(method) || neverResentServiceMethod(method)) return 'it can change state';
  if (/^(action_|button_|_)/.test(method)) return 'it can change state (action_*, button_* and private methods)';
  if (/^(workflow|signal_|trg_)/.test(method)) return 'it is a workflow method';
  return undefined;
}

/**
 * The allowlist `--shadow-methods` asks for: the defaults, each `+name` added and each `-name`
 * removed. Returns the list, or a message saying what is wrong.
 */
export function shadowAllowlist({ changes }: ShadowMethodChanges): string[] | string {
  const methods = new Set(defaultShadowMethods);
  for (const { add, name } of changes) {
    if (!add) {
      methods.delete(name);
      continue;
    }
    const never = neverShadowedReason(name);
    if (never !== undefined) return `${name} is never shadowed: ${never}`;
    methods.add(name);
  }
  return [...methods];
}

/** {@link shadowAllowlist} of the settings, or the {@link ConfigError} that stops the start. */
export function shadowMethodsOf(config: Pick<Config, 'shadowMethods'>): string[] {
  const methods = shadowAllowlist(config.shadowMethods);
  if (typeof methods === 'string') {
    throw new ConfigError([`--shadow-methods / SHADOW_METHODS: invalid value ${JSON.stringify(config.shadowMethods.spec)}: ${methods}`]);
  }
  return methods;
}

/** `--shadow-methods` text read into an allowlist, or a message saying what is wrong (the policy's own tests). */
export function parseShadowMethods(spec: string): string[] | string {
  const changes = parseShadowMethodChanges(spec);
  return typeof changes === 'string' ? changes : shadowAllowlist(changes);
}

/** The name a call is allowlisted under: the model method for `object`, else the service method. */
export function shadowedName(outcome: CallOutcome): string | undefined {
  if (outcome.service === 'object')
    return outcome.method === 'execute' || outcome.method === 'execute_kw' ? outcome.modelMethod : undefined;
  return outcome.method;
}

/**
 * Whether a finished call may be shadowed, from what the gateway answered: false for methods off
 * the allowlist, `db` functions that are not read-only, AccessDenied answers, and the gateway's own
 * upstream failures (nothing to compare).
 */
export function mayShadow(outcome: CallOutcome | undefined, allowlist: ReadonlySet<string>): boolean {
  if (outcome === undefined) return false;
  const kind = outcome.error?.kind;
  if (kind === 'access_denied' || kind === 'upstream_timeout' || kind === 'upstream_unavailable' || kind === 'upstream_invalid')
    return false;
  if (outcome.service !== 'common' && outcome.service !== 'db' && outcome.service !== 'object') return false;
  if (outcome.service === 'db' && !shadowableDbFunctions.has(outcome.method)) return false;
  const name = shadowedName(outcome);
  return name !== undefined && allowlist.has(name) && neverShadowedReason(name) === undefined;
}

/** A `login`/`authenticate` the gateway answered False: a wrong password, never sent again. */
export function isRefusedLogin(outcome: CallOutcome, gateway: AnswerView): boolean {
  return isPasswordLogin(outcome.service, outcome.method) && gateway.kind === 'result' && gateway.value === false;
}

/**
 * Why a method the report lists is never shadowed, or undefined when shadow mode samples it (the
 * readiness line names the methods never sampled, and why).
 */
export function notShadowedReason(
  service: string,
  method: string,
  modelMethod: string | undefined,
  allowlist: ReadonlySet<string>,
): string | undefined {
  if (service !== 'common' && service !== 'db' && service !== 'object') return 'not a legacy service';
  if (service === 'db' && !shadowableDbFunctions.has(method)) return 'a db function that is never shadowed';
  const name = service === 'object' ? modelMethod : method;
  if (name === undefined) return 'not a model call';
  const never = neverShadowedReason(name);
  if (never !== undefined) return `never shadowed: ${never}`;
  return allowlist.has(name) ? undefined : 'not on the shadow allowlist (--shadow-methods)';
}
