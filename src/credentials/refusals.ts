/**
 * The refusals the credentials layer raises (docs/architecture.md §5 steps 3, 4, 5), all AccessDenied (fault 3).
 * Bad credentials carry Odoo's plain "Access Denied"; the others say what an operator can do. Some
 * are answered `False` by `common.authenticate` (as Odoo answers bad credentials); the rest are
 * faults there too, because `False` would hide a problem only the operator can fix.
 */
import { accessDenied, type LegacyError } from '../errors.ts';

const answeredFalse = new WeakSet<LegacyError>();

function falseForAuthenticate(err: LegacyError): LegacyError {
  answeredFalse.add(err);
  return err;
}

/** True for refusals `common.authenticate` answers with `False` (bad credentials, throttling). */
export function isAnsweredFalse(err: unknown): boolean {
  return err instanceof Error && answeredFalse.has(err as LegacyError);
}

const badOnes = new WeakSet<LegacyError>();

/** Wrong login or password, a refused key: exactly what Odoo answers. */
export function badCredentials(): LegacyError {
  const err = falseForAuthenticate(accessDenied());
  badOnes.add(err);
  return err;
}

/** True for {@link badCredentials} (what the throttle counts as a failed login). */
export function isBadCredentials(err: unknown): boolean {
  return err instanceof Error && badOnes.has(err as LegacyError);
}

/** True for every refusal here (all AccessDenied): what the negative cache keeps. */
export function isRefusal(err: unknown): err is LegacyError {
  return err instanceof Error && (err as LegacyError).kind === 'access_denied';
}

const throttledOnes = new WeakSet<LegacyError>();

/**
 * A login Odoo's own cooldown refused (Odoo: `res_users.py` `_assert_can_auth`): its text is passed on. Like the gateway's
 * throttle it is about the address (Odoo counts failures per address, across logins), not about
 * these credentials: never cached against them, never a reason to drop their key.
 */
export function upstreamCooldown(message: string): LegacyError {
  const err = falseForAuthenticate(accessDenied(message));
  throttledOnes.add(err);
  return err;
}

/** Too many failures from this address for this login (docs/architecture.md §5 step 5). */
export function throttled(retryAfterMs: number): LegacyError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const err = falseForAuthenticate(
    accessDenied(
      `Too many login failures, please wait a bit before trying again. (legacy-rpc-gateway: repeated failed logins for this login from this address; next attempt in ${seconds} s)`,
    ),
  );
  throttledOnes.add(err);
  return err;
}

/**
 * Credentials already traded for keys twice within `--mint-interval`: about how often keys are
 * minted, not about the password, so like the throttle's refusal it is never cached against them.
 */
export function mintHeldOff(retryAfterMs: number): LegacyError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const err = falseForAuthenticate(
    accessDenied(
      `Access Denied (legacy-rpc-gateway: API keys were minted for these credentials moments ago and Odoo refused or lost them; the next one in ${seconds} s, see --mint-interval)`,
    ),
  );
  throttledOnes.add(err);
  return err;
}

/**
 * True for {@link throttled}, {@link upstreamCooldown} and {@link mintHeldOff}: a refusal about the address, not about these credentials,
 * so it is never cached against them and never retires a key they already opened.
 */
export function isThrottled(err: unknown): boolean {
  return err instanceof Error && throttledOnes.has(err as LegacyError);
}

/** The user has two-factor authentication: Odoo stops the web login at `{"uid": null}` (Odoo: `res_users.py` identity check (`res.users.identitycheck`)). */
export function twoFactorRefusal(): LegacyError {
  return accessDenied(
    'legacy-rpc-gateway cannot use the password of this user: two-factor authentication is enabled, so Odoo ' +
      'refuses the web login the gateway mints API keys with. Map this login to one of its API keys in the ' +
      'credential map (--credentials-file), or let the client send the API key as its password.',
  );
}

/**
 * Odoo refused to mint a key for this user: the key wizard's ValidationError or UserError (group
 * maximum, expiration required) or an AccessError (not an internal user), with Odoo's reason.
 */
export function mintRefusal(reason: string, kind: 'wizard' | 'access'): LegacyError {
  const hint =
    kind === 'wizard'
      ? "Lower --key-duration to what the user's groups allow, or map this login to an API key in the credential map (--credentials-file)."
      : 'Map this login to one of its API keys in the credential map (--credentials-file), or let the client send an API key as its password.';
  const sentence = /[.!?]$/.test(reason) ? reason : `${reason}.`;
  return accessDenied(`legacy-rpc-gateway could not mint an API key for this login: ${sentence} ${hint}`);
}

const unknownLogins = new WeakSet<LegacyError>();

/** An object call names a uid whose login the gateway cannot tell (docs/architecture.md §5 step 4). */
export function unknownLogin(uid: number | bigint, why: string, fix = 'configure --service-key'): LegacyError {
  const err = accessDenied(
    `legacy-rpc-gateway does not know the login of uid ${uid}, which it needs to trade the password for an API key: ${why}. ` +
      `Call common.login or common.authenticate with this password first, or ${fix} so the gateway can look the login up.`,
  );
  unknownLogins.add(err);
  return err;
}

/** The refusal {@link unknownLogin} made: the gateway could not find the uid's login. */
export function isUnknownLogin(err: unknown): boolean {
  return err instanceof Error && unknownLogins.has(err as LegacyError);
}

/** The credential map's key for this login is refused upstream (expired or revoked). */
export function mapKeyRefused(): LegacyError {
  return accessDenied(
    'legacy-rpc-gateway: Odoo refuses the API key the credential map (--credentials-file) holds for this login (expired or revoked); replace it in the map.',
  );
}

/** A refusal as the shared store keeps it: its text and how the gateway treats it. */
export interface RefusalRecord {
  message: string;
  bad: boolean;
  answeredFalse: boolean;
}

/** What another replica needs to raise the same refusal. */
export function refusalRecord(err: LegacyError): RefusalRecord {
  return { message: err.message, bad: isBadCredentials(err), answeredFalse: isAnsweredFalse(err) };
}

/** The refusal a record stands for, classified as the original was. */
export function refusalFromRecord(record: RefusalRecord): LegacyError {
  if (record.bad) return badCredentials();
  return record.answeredFalse ? upstreamCooldown(record.message) : accessDenied(record.message);
}
