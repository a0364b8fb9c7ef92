/**
 * Password logins counted against the throttle (docs/architecture.md §5 step 5): the attempt is
 * reserved before it goes upstream, so attempts in flight count; bad credentials count as a
 * failure, a success clears the slot, anything else lets the reservation go. Refusals an operator
 * can act on are logged.
 */
import { callDatabase, type CallOrigin } from '../call.ts';
import type { Logger } from '../log.ts';
import { isBadCredentials, isRefusal } from './refusals.ts';
import type { Throttle } from './throttle.ts';

/** Runs one password login (`run`) as a counted attempt of `req`'s (address, the call's database, login). */
export type CountedLogin = <T>(req: { login: string; origin: CallOrigin }, run: () => Promise<T>) => Promise<T>;

/** `slotOf`: the throttle slot of (client, the call's database, login), the one key-shaped passwords are counted in too. */
export function createCountedLogin(
  throttle: Pick<Throttle, 'reserve'>,
  slotOf: (origin: CallOrigin, login: string) => string,
  log: Logger,
): CountedLogin {
  return async (req, run) => {
    // Only attempts that would log in upstream are throttled: a password already traded for a
    // cached key keeps working while a wrong one is refused (Odoo's cooldown spares it too).
    const attempt = await throttle.reserve(slotOf(req.origin, req.login));
    try {
      const out = await run();
      await attempt.settle('succeeded');
      return out;
    } catch (err) {
      const line = { db: callDatabase(req.origin), clientIp: req.origin.ip, requestId: req.origin.requestId };
      if (isBadCredentials(err)) {
        await attempt.settle('failed');
        log.debug(line, 'login refused upstream');
      } else {
        await attempt.settle('abandoned');
        if (isRefusal(err)) log.warn({ ...line, login: req.login, reason: err.message }, 'could not trade a password for an API key');
      }
      throw err;
    }
  };
}
