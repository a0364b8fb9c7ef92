/**
 * When the password behind a key is confirmed again, and how (docs/architecture.md §5 step 3;
 * docs/security.md): within `--revalidate-interval` of the last confirmation a key is served as is;
 * past half of it a check starts in the background (a credential in steady use never waits); past
 * all of it the call waits for the check. A check is a look at the web session the password last
 * opened while the last real login is younger than `--login-recheck-interval`, else a fresh login.
 * Pure functions of the entry and the clock.
 */
import type { PasswordKey } from './password-key-types.ts';

/** What a call does about the password behind `entry`: nothing, a check in the background, or wait for one. */
export type CheckDue = 'none' | 'background' | 'wait';

/** The check a call needs at `now`, `intervalMs` being the bound (`--revalidate-interval`). */
export function checkDue(entry: Pick<PasswordKey, 'validatedAt'>, now: number, intervalMs: number): CheckDue {
  const age = now - entry.validatedAt;
  if (age >= intervalMs) return 'wait';
  return age >= intervalMs / 2 ? 'background' : 'none';
}

/** Whether the next call renews the key (it is still served with the old one meanwhile). */
export function renewalDue(entry: Pick<PasswordKey, 'renewAt'>, now: number): boolean {
  return now >= entry.renewAt;
}

/**
 * Whether the last real login behind `entry` is younger than `loginRecheckIntervalMs` (unknown: no),
 * so a check of its session may stand for a login: what Odoo decides at login besides the password
 * (an enforced 2FA policy) changes no field the session token covers.
 */
export function loginStands(entry: Pick<PasswordKey, 'loggedInAt'>, now: number, loginRecheckIntervalMs: number): boolean {
  return entry.loggedInAt !== undefined && now - entry.loggedInAt < loginRecheckIntervalMs;
}
