/**
 * Credentials holding a lone surrogate (JSON-RPC can carry one as `\ud800`; XML cannot, expat refuses
 * it). Odoo 19 cannot encode such a password to hash it (passlib) nor such a login to query it: the
 * call fails with `UnicodeEncodeError` — over `/jsonrpc` the error envelope itself then fails to
 * encode, and the client gets a bare HTTP 500 page (measured). The gateway refuses them
 * before any cache slot, throttle count or upstream login, with the error Odoo raised.
 */
import { LegacyError } from '../errors.ts';
import { hasLoneSurrogate } from '../python/lone-surrogate.ts';

/** Throws Odoo's `UnicodeEncodeError` when `value` is not well-formed UTF-16. */
export function refuseLoneSurrogates(value: string): void {
  if (!hasLoneSurrogate(value)) return;
  const chars = Array.from(value); // Python counts code points; a lone surrogate stays one
  const at = chars.findIndex(hasLoneSurrogate);
  const unit = (chars[at] as string).charCodeAt(0).toString(16).padStart(4, '0');
  throw new LegacyError('internal', {
    name: 'builtins.UnicodeEncodeError',
    message: `'utf-8' codec can't encode character '\\u${unit}' in position ${at}: surrogates not allowed`,
  });
}
