/**
 * The language a legacy call runs with when nothing in it names one (docs/architecture.md §3).
 *
 * Legacy RPC runs with no HTTP request: where Odoo's `_()` finds no `lang` in its frame's context
 * or env, it falls back to `res.users.context_get()` of the caller (the user's language, else the
 * company's, else English: `odoo/tools/translate.py` `_get_lang`). JSON-2 runs inside a request, and
 * the same `_()` takes the request's language instead: the `Accept-Language` header's if installed,
 * else the company's (`ir.http._pre_dispatch`). So the gateway asks `context_get` once per key (with
 * no `Accept-Language`, as legacy has none) and sends that language as the JSON-2 call's
 * `Accept-Language`: texts Odoo translates and stores (`"%s (copy)"`, chatter messages, error
 * texts) come out in the language they would natively. COMPATIBILITY.md lists what still differs.
 */
import { callDatabase, type CallOrigin } from '../call.ts';
import type { Upstream } from '../upstream/index.ts';
import { isStruct, type Value } from '../value.ts';

/** How long a user's language is reused, in ms: a changed preference shows within this. */
export const userLangTtl = 60_000;
const maxEntries = 10_000;

export interface LegacyLang {
  /** The caller's `context_get()['lang']` in the call's database ({@link callDatabase}), undefined when it cannot be known. */
  userLang(key: string, origin: CallOrigin): Promise<string | undefined>;
  /** Keeps the language a `context_get` the client itself made with this key answered (no lookup of its own then). */
  remember(db: string, key: string, context: Value): void;
}

export function createLegacyLang(upstream: Upstream, now: () => number = Date.now): LegacyLang {
  const cache = new Map<string, { lang: string | undefined; at: number }>();
  const keep = (slot: string, lang: string | undefined) => {
    if (cache.size >= maxEntries) cache.clear();
    cache.set(slot, { lang, at: now() });
  };
  const langOf = (context: Value): string | undefined => {
    const value = isStruct(context) ? context.get('lang') : undefined;
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const inFlight = new Map<string, Promise<string | undefined>>();
  async function lookUp(slot: string, key: string, origin: CallOrigin): Promise<string | undefined> {
    let lang: string | undefined;
    try {
      lang = langOf(
        await upstream.json2({ db: callDatabase(origin), key, model: 'res.users', method: 'context_get', body: new Map() }, origin),
      );
    } catch {
      // the call itself will report what is wrong; it runs with the request's default language
      return undefined;
    }
    keep(slot, lang);
    return lang;
  }
  return {
    remember(db, key, context) {
      if (isStruct(context)) keep(`${db}\0${key}`, langOf(context));
    },
    userLang(key, origin) {
      const slot = `${callDatabase(origin)}\0${key}`;
      const hit = cache.get(slot);
      if (hit !== undefined && now() - hit.at < userLangTtl) return Promise.resolve(hit.lang);
      // one look-up per key however many first calls arrive together
      let pending = inFlight.get(slot);
      if (pending === undefined) {
        pending = lookUp(slot, key, origin).finally(() => inFlight.delete(slot));
        inFlight.set(slot, pending);
      }
      return pending;
    },
  };
}

/**
 * The `Accept-Language` value that makes Odoo's `request.best_lang` the language code `lang`
 * (`fr_FR` → `fr-FR`, parsed back by babel with `sep='-'`); undefined for a code babel cannot
 * read back (`sr@latin`).
 */
export function acceptLanguageFor(lang: string): string | undefined {
  return /^[a-z]{2,3}(_[A-Za-z0-9]{2,4})?$/.test(lang) ? lang.replace('_', '-') : undefined;
}
