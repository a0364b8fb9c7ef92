/**
 * Methods wrapped by Odoo's `@check_identity` (`odoo/addons/base/models/res_users.py`): the wrapper
 * takes `*args, **kwargs` and, with no HTTP request (legacy RPC never has one), raises
 * `UserError(_("This method can only be accessed over HTTP"))` before the method runs. JSON-2 serves
 * its calls inside a request, where the same methods run (`make_key`, then `run_check`, mints a key),
 * so the object service refuses them itself, at the point of Odoo's order where the wrapper is
 * called: after the model and method look-ups, the ids (`args[0]`), `dict(context)` and the keyword
 * names, before any binding. The list is generated from Odoo's source
 * (`scripts/gen-identity-checked.ts`, docs/signatures.md).
 */
import { pythonError, userError, type LegacyError } from '../errors.ts';
import { dictError } from '../python/dict-from.ts';
import { hasNonStringNames, isTruthy, type Struct, type Value } from '../value.ts';
import {
  adminCheckedMethods,
  identityCheckedMethods,
  identityRefusalTranslations,
  ormcachedMethods,
  requestAssertingMethods,
} from './identity-checked.generated.ts';
import { refusalSource } from './identity-refusal-source.ts';

/** True when Odoo 19.0's `model.method` is wrapped by `@check_identity`. */
export function isIdentityChecked(model: string, method: string): boolean {
  return Object.hasOwn(identityCheckedMethods, model) && (identityCheckedMethods[model] as readonly string[]).includes(method);
}

/**
 * True when Odoo 19.0's `model.method` is wrapped by `@assert_log_admin_access` (`ir_module.py`),
 * whose `check_and_log(self, *args, **kwargs)` raises AccessDenied for a non-admin before the
 * method's arguments bind; JSON-2 binds them against the wrapped signature first.
 */
export function isAdminChecked(model: string, method: string): boolean {
  return Object.hasOwn(adminCheckedMethods, model) && (adminCheckedMethods[model] as readonly string[]).includes(method);
}

/**
 * True when Odoo 19.0's `model.method` is wrapped by `@ormcache` (`odoo/tools/cache.py`), whose
 * `lookup(*args, **kwargs)` computes the cache key first with a `lambda` of the method's parameters:
 * arguments that do not bind are `<lambda>()`'s TypeError (`res.users.context_get(1, 2)`).
 */
export function isOrmcached(model: string, method: string): boolean {
  return Object.hasOwn(ormcachedMethods, model) && (ormcachedMethods[model] as readonly string[]).includes(method);
}

/** Odoo's `get_base_langs`: the `.po` files read for `lang`, later ones overriding earlier ones. */
function baseLangs(lang: string): string[] {
  const base = lang.split('_', 1)[0] as string;
  const langs = [base];
  if (base === 'es' && lang !== 'es_ES' && lang !== 'es_419') langs.push('es_419');
  if (lang === 'zh_HK') langs.push('zh_TW');
  if (lang !== base) langs.push(lang);
  return langs;
}

/** The refusal's text in `lang` as base's translations give it (the English source where none does). */
export function identityRefusalText(lang: string | undefined): string {
  let text = refusalSource;
  if (lang === undefined || lang === '') return text;
  for (const file of baseLangs(lang)) {
    if (Object.hasOwn(identityRefusalTranslations, file)) text = identityRefusalTranslations[file] as string;
  }
  return text;
}

/**
 * What call_kw and the wrapper raise for a call whose model and method exist: `args[0]` of no
 * args, `dict(context)`, non-string keyword names, then the wrapper's UserError in the language
 * `_()` finds (the call's `context.lang`, else the user's).
 */
export async function identityCheckRefusal(
  args: Value[],
  kwargs: Struct,
  userLang: () => Promise<string | undefined>,
): Promise<LegacyError> {
  if (args.length === 0) return pythonError('IndexError', 'list index out of range');
  const context = kwargs.get('context');
  if (context !== undefined && isTruthy(context)) {
    const bad = dictError(context);
    if (bad !== undefined) return bad;
  }
  if (hasNonStringNames(kwargs)) return pythonError('TypeError', 'keywords must be strings');
  const contextLang = context instanceof Map ? context.get('lang') : undefined;
  const lang = typeof contextLang === 'string' && contextLang !== '' ? contextLang : await userLang();
  return userError(identityRefusalText(lang));
}

/**
 * A public method whose own body starts by asserting a request (`res.users.identitycheck.run_check`,
 * which completes what a `@check_identity` method asked): with its arguments bound, legacy RPC gets
 * the `AssertionError`, where JSON-2 would run it.
 */
export function requestAssertionError(model: string, method: string): LegacyError | undefined {
  const methods = Object.hasOwn(requestAssertingMethods, model) ? requestAssertingMethods[model] : undefined;
  if (methods === undefined || !Object.hasOwn(methods, method)) return undefined;
  return pythonError('AssertionError', methods[method] as string);
}
