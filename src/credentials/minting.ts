/**
 * Minting (docs/architecture.md §5 step 3, Odoo: `res_users.py` identity check (`res.users.identitycheck`); recorded in corpus
 * `sess-mint-*`): a web login with the password, then over `call_kw` with the session cookie the key wizard's `create` → `make_key` (an
 * identity-check action) → `res.users.identitycheck.run_check` with the password in the context → the key; the session is destroyed; the
 * key's real `expiration_date` is read with the key itself. Also the fresh password login a re-check takes (same step), and removal of a
 * key inside a session.
 */
import type { CallOrigin } from '../call.ts';
import { LegacyError, upstreamErrorName } from '../errors.ts';
import type { Upstream, WebSession } from '../upstream/index.ts';
import type { BaseUrls } from './base-urls.ts';
import { isInt, isStruct, struct, type Struct, type Value } from '../value.ts';
import { badCredentials, mintRefusal, twoFactorRefusal, upstreamCooldown } from './refusals.ts';
import { looksLikeApiKey } from '../api-key.ts';

/** What a mint needs. `retireKeyId`: a key of the same user to remove inside the same session. */
export interface MintRequest {
  db: string;
  login: string;
  password: string;
  /** One of Odoo's durations in days. */
  durationDays: number;
  /** The key's description, unique enough to find it again (`keyName`). */
  name: string;
  retireKeyId?: number;
}

/** A minted key. */
export interface MintedKey {
  uid: number | bigint;
  key: string;
  /** The `res.users.apikeys` record id, when the read found it (used to remove the key later). */
  keyId: number | undefined;
  /** Epoch ms of `expiration_date` (00:00 UTC, Odoo's clock); `Infinity` for a key without one. */
  expiresAt: number;
  /** Epoch ms of the key's `create_date`: Odoo's clock when it was created (undefined when the read did not find it). */
  createdAt?: number;
  /** The web session the key was minted in, left open to check the password with later. */
  session: WebSession;
}

const wizardModel = 'res.users.apikeys.description';

/**
 * How every key this gateway mints is named: `legacy-rpc-gateway for `, or with `--key-tag`
 * `legacy-rpc-gateway (<tag>) for ` (two gateways in front of one Odoo each recognise their own).
 */
export function keyNamePrefix(tag = ''): string {
  return tag === '' ? 'legacy-rpc-gateway for ' : `legacy-rpc-gateway (${tag}) for `;
}

/** The description of a minted key: the gateway, the client it serves, and a nonce to find it by. */
export function keyName(origin: CallOrigin, nonce: string, tag = ''): string {
  const client = origin.userAgent === '' ? 'a legacy client' : origin.userAgent.slice(0, 80);
  return `${keyNamePrefix(tag)}${client} at ${origin.ip} [${nonce}]`;
}

/**
 * A key description this gateway (with `tag`) gave: its prefix, and a nonce at its end that `owns`
 * recognises (key-marks.ts: bound to the gateway's secret, so a name cannot be made up to match).
 */
export function isOwnKeyName(name: string, tag: string, owns: (nonce: string) => boolean): boolean {
  const nonce = /\[([0-9a-f]{8}\.[0-9a-f]{16})\]$/.exec(name)?.[1];
  return name.startsWith(keyNamePrefix(tag)) && nonce !== undefined && owns(nonce);
}

/** `text` as a literal SQL LIKE pattern (`=like` in a domain): `\`, `%` and `_` escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `fields.Datetime` text (UTC) → epoch ms. */
export function parseOdooDatetime(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  return m === null ? undefined : Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** `today + N days at 00:00 UTC`, what Odoo computes when the key cannot be read back. */
export function expiryInDays(now: number, days: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days);
}

/** What `res.users._assert_can_auth` raises while a login cooldown is on. */
const cooldownText = 'Too many login failures, please wait a bit before trying again.';

/**
 * Odoo 19.0's cooldown refusal can fail while it is worded: its translation lookup takes the login
 * text (a local named `user`) for a uid, and the web login answers `ValueError: invalid literal for
 * int()` from inside `_assert_can_auth`. That is still the cooldown, not an answer about the password.
 */
function isCrashedCooldown(err: unknown): boolean {
  return err instanceof LegacyError && err.kind !== 'access_denied' && /, in _assert_can_auth\n/.test(err.debug);
}

/**
 * A fresh web login with the password at the database's base URL: the uid it opens, and its session,
 * kept for later checks. Bad credentials, a cooldown and a second factor become their refusals.
 */
export async function passwordLogin(
  upstream: Upstream,
  req: { db: string; login: string; password: string },
  origin: CallOrigin,
  baseUrls?: BaseUrls,
): Promise<{ uid: number | bigint; session: WebSession }> {
  let login;
  try {
    const baseUrl = await baseUrls?.forLogin(req.db, origin);
    login = await upstream.webSession.authenticate({ ...req, baseUrl }, origin);
    baseUrls?.learn(req.db, login.baseUrl);
  } catch (err) {
    if (err instanceof LegacyError && err.kind === 'access_denied')
      throw err.message === 'Access Denied' ? badCredentials() : upstreamCooldown(err.message);
    if (isCrashedCooldown(err)) throw upstreamCooldown(cooldownText);
    throw err;
  }
  if (login.uid === null) {
    await endSession(upstream, login.session, origin);
    throw twoFactorRefusal();
  }
  return { uid: login.uid, session: login.session };
}

/** Logs out of `session`, best effort. */
export async function endSession(upstream: Upstream, session: WebSession, origin: CallOrigin): Promise<void> {
  try {
    await upstream.webSession.destroy(session, origin);
  } catch {
    // best effort: an abandoned session expires on its own
  }
}

/** Runs a `@check_identity` method, passing the identity check with the password when it is due. */
async function withIdentityCheck(
  upstream: Upstream,
  session: WebSession,
  model: string,
  method: string,
  ids: Value[],
  password: string,
  origin: CallOrigin,
): Promise<Value> {
  const first = await upstream.webSession.callKw(session, { model, method, args: [ids], kwargs: new Map() }, origin);
  if (!isStruct(first) || first.get('res_model') !== 'res.users.identitycheck' || !isInt(first.get('res_id') ?? null)) return first;
  const kwargs = struct({ context: struct({ password }) });
  try {
    return await upstream.webSession.callKw(
      session,
      { model: 'res.users.identitycheck', method: 'run_check', args: [[first.get('res_id') as Value]], kwargs },
      origin,
    );
  } catch (err) {
    // "Incorrect Password, try again…": the password changed since the login a moment ago
    if (err instanceof LegacyError && err.name === 'odoo.exceptions.UserError') throw badCredentials();
    throw err;
  }
}

/** The wizard's and the access checks' refusals, with Odoo's reason (fault 3). */
function refusalFrom(err: unknown): unknown {
  if (!(err instanceof LegacyError)) return err;
  if (err.kind === 'validation_error' || err.kind === 'user_error') return mintRefusal(err.message, 'wizard');
  if (err.kind === 'access_error') return mintRefusal(err.message, 'access');
  return err;
}

/** Reads the new key's record with the key itself: its id and real `expiration_date`. */
async function readKeyRecord(
  upstream: Upstream,
  db: string,
  key: string,
  name: string,
  origin: CallOrigin,
): Promise<{ id: number | undefined; expiresAt: number | undefined; createdAt: number | undefined }> {
  // the read sess-mint-6 records: the key's own record, found by its unique description
  const body: Struct = struct({ domain: [['name', '=', name]], fields: ['name', 'expiration_date', 'scope', 'create_date'] });
  const rows = await upstream.json2({ db, key, model: 'res.users.apikeys', method: 'search_read', body }, origin);
  const row = Array.isArray(rows) && rows.length === 1 && isStruct(rows[0] as Value) ? (rows[0] as Struct) : undefined;
  const id = row?.get('id');
  const expiration = row?.get('expiration_date');
  const created = row?.get('create_date');
  return {
    id: typeof id === 'number' ? id : undefined,
    createdAt: typeof created === 'string' ? parseOdooDatetime(created) : undefined,
    expiresAt: expiration === false ? Number.POSITIVE_INFINITY : typeof expiration === 'string' ? parseOdooDatetime(expiration) : undefined,
  };
}

/** Errors of mints that made a key Odoo refused at once (born expired): they count against `--mint-interval`. */
const madeKeys = new WeakSet<Error>();
function keyMade(err: Error): Error {
  madeKeys.add(err);
  return err;
}

/** True when the failed mint `err` made a key upstream all the same (it counts as a mint for `--mint-interval`). */
export function madeAKey(err: unknown): boolean {
  return err instanceof Error && madeKeys.has(err);
}

const clockFaults = new WeakSet<Error>();

/** True for the fault of a key born expired: Odoo's clock behind its database's. */
export function isClockBehind(err: unknown): err is LegacyError {
  return err instanceof Error && clockFaults.has(err);
}

/** The key's record read in the mint's web session (a key Odoo refuses cannot read itself). */
async function readKeyInSession(
  upstream: Upstream,
  session: WebSession,
  name: string,
  origin: CallOrigin,
): Promise<{ expiresAt: number | undefined; createdAt: number | undefined }> {
  const kwargs = struct({ domain: [['name', '=', name]], fields: ['expiration_date', 'create_date'] });
  const rows = await upstream.webSession.callKw(session, { model: 'res.users.apikeys', method: 'search_read', args: [], kwargs }, origin);
  const row = Array.isArray(rows) && rows.length === 1 && isStruct(rows[0] as Value) ? (rows[0] as Struct) : undefined;
  const expiration = row?.get('expiration_date');
  const created = row?.get('create_date');
  return {
    createdAt: typeof created === 'string' ? parseOdooDatetime(created) : undefined,
    expiresAt: typeof expiration === 'string' ? parseOdooDatetime(expiration) : undefined,
  };
}

const dayMs = 86_400_000;

/**
 * Odoo computes a key's `expiration_date` by its own clock (`fields.Date.today()` + N days, 00:00 UTC)
 * and checks it against PostgreSQL's (`expiration_date >= now() at time zone 'utc'`); `create_date` is
 * PostgreSQL's `now()`. A key that expires before it was created was refused as soon as it was made:
 * Odoo's clock is behind its database's by more than the key's whole life. The fault (fault 1,
 * never a refusal cached against the credentials) says so, by how much at least, and what to fix.
 */
export function bornExpired(
  record: { expiresAt: number | undefined; createdAt: number | undefined } | undefined,
  durationDays: number,
): LegacyError | undefined {
  if (record?.expiresAt === undefined || record.createdAt === undefined || !Number.isFinite(record.expiresAt)) return undefined;
  if (record.expiresAt > record.createdAt) return undefined;
  // Odoo's "today" is the day before the expiry's N days: its clock was before the end of that day
  const behindMs = record.createdAt - (record.expiresAt - (durationDays - 1) * dayMs);
  const hours = Math.max(0, behindMs) / 3_600_000;
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const err = new LegacyError('upstream_invalid', {
    name: upstreamErrorName,
    message:
      `Odoo's clock is behind its database's: the API key Odoo just minted expires at ${iso(record.expiresAt)} ` +
      `(today + ${durationDays} day(s) by the Odoo server's clock) but PostgreSQL made it at ${iso(record.createdAt)}, ` +
      `so Odoo refuses it at once (Odoo's clock is at least ${hours.toFixed(1)} h behind). ` +
      "Set the Odoo host's clock right (NTP) so it agrees with the database server's; a longer --key-duration only hides it.",
  });
  clockFaults.add(err);
  return err;
}

/** Trades a password for a new API key; rejects with a refusal (fault 3) or an upstream error. */
export async function mintKey(
  upstream: Upstream,
  req: MintRequest,
  origin: CallOrigin,
  now: number,
  baseUrls?: BaseUrls,
): Promise<MintedKey> {
  const { uid, session } = await passwordLogin(upstream, req, origin, baseUrls);
  let key: string;
  try {
    const vals = struct({ name: req.name, duration: String(req.durationDays) });
    const wizardId = await upstream.webSession.callKw(
      session,
      { model: wizardModel, method: 'create', args: [vals], kwargs: new Map() },
      origin,
    );
    if (!isInt(wizardId)) throw new LegacyError('upstream_invalid', { name: upstreamErrorName, message: 'the key wizard answered no id' });
    const shown = await withIdentityCheck(upstream, session, wizardModel, 'make_key', [wizardId], req.password, origin);
    const context = isStruct(shown) ? shown.get('context') : undefined;
    const candidate = isStruct(context ?? null) ? (context as Struct).get('default_key') : undefined;
    if (typeof candidate !== 'string' || !looksLikeApiKey(candidate)) {
      throw new LegacyError('upstream_invalid', { name: upstreamErrorName, message: 'make_key answered no API key' });
    }
    key = candidate;
    if (req.retireKeyId !== undefined)
      await removeKeyInSession(upstream, session, req.retireKeyId, req.password, origin).catch(() => undefined);
  } catch (err) {
    await endSession(upstream, session, origin);
    throw refusalFrom(err);
  }
  // the session stays open: checking it later tells whether the password changed
  const record = await readKeyRecord(upstream, req.db, key, req.name, origin).catch(async (err: unknown) => {
    // refused at once: read it in the session instead, to say why (a key born expired: Odoo's clock behind)
    const born = await readKeyInSession(upstream, session, req.name, origin).catch(() => undefined);
    await endSession(upstream, session, origin);
    const dead = bornExpired(born, req.durationDays);
    // a key born dead counts against --mint-interval: every login would make another. Other failures
    // (a 401 storm in front of Odoo) leave the pacer alone, so the gateway recovers as soon as they end.
    throw dead === undefined ? err : keyMade(dead);
  });
  const dead = bornExpired(record, req.durationDays);
  if (dead !== undefined) {
    await endSession(upstream, session, origin);
    throw keyMade(dead);
  }
  return {
    uid,
    key,
    keyId: record.id,
    expiresAt: record.expiresAt ?? expiryInDays(now, req.durationDays),
    ...(record.createdAt === undefined ? {} : { createdAt: record.createdAt }),
    session,
  };
}

/** `res.users.apikeys.remove` of one key inside an open session (identity check passed with `password`). */
export async function removeKeyInSession(
  upstream: Upstream,
  session: WebSession,
  keyId: number,
  password: string,
  origin: CallOrigin,
): Promise<void> {
  await withIdentityCheck(upstream, session, 'res.users.apikeys', 'remove', [keyId], password, origin);
}

/** What {@link sweepKeys} needs: whose keys, the one kept, and the password for the identity check. */
export interface SweepRequest {
  uid: number | bigint;
  /** The record id of the key in use: it and every newer key are kept. */
  keepKeyId: number;
  password: string;
  /** `--key-tag`: only keys named by this gateway are removed. */
  tag: string;
  /** Whether a name's nonce is one this gateway made for this user (key-marks.ts). */
  owns: (nonce: string) => boolean;
}

/**
 * Removes, inside an open session of the key's owner, the keys this gateway minted for that user
 * before the one in use (Odoo 19.0 lets a user remove only their own keys, in a web session, behind
 * the identity check; docs/security.md "Minted keys"). The user's keys are listed with
 * `res.users.apikeys.search_read` (own keys for a user; every user's for a system user, hence the
 * `user_id` term); only those named by this gateway (`isOwnKeyName`, its secret's mark) and older than the kept one (a
 * smaller id: a newer key may be another replica's renewal) go. Answers the removed record ids.
 */
export async function sweepKeys(upstream: Upstream, session: WebSession, req: SweepRequest, origin: CallOrigin): Promise<number[]> {
  const domain = [
    ['user_id', '=', req.uid],
    ['name', '=like', `${likeLiteral(keyNamePrefix(req.tag))}%`],
    ['id', '<', req.keepKeyId],
  ];
  const rows = await upstream.webSession.callKw(
    session,
    { model: 'res.users.apikeys', method: 'search_read', args: [], kwargs: struct({ domain, fields: ['name', 'user_id'] }) },
    origin,
  );
  const ids: number[] = [];
  for (const row of Array.isArray(rows) ? rows : []) {
    if (!isStruct(row)) continue;
    const id = row.get('id');
    const name = row.get('name');
    const owner = row.get('user_id');
    const ownerId = Array.isArray(owner) ? owner[0] : owner;
    if (typeof id !== 'number' || id >= req.keepKeyId || typeof name !== 'string' || !isOwnKeyName(name, req.tag, req.owns)) continue;
    if (!isInt(ownerId ?? null) || BigInt(ownerId as number) !== BigInt(req.uid)) continue;
    ids.push(id);
  }
  if (ids.length === 0) return ids;
  await withIdentityCheck(upstream, session, 'res.users.apikeys', 'remove', ids, req.password, origin);
  return ids;
}
