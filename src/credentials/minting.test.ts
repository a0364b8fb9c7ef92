import { describe, expect, it } from 'vitest';
import { LegacyError } from '../errors.ts';
import type { CallKw, Upstream } from '../upstream/index.ts';
import { struct, type Value } from '../value.ts';
import { createKeyMarks } from './key-marks.ts';
import { isOwnKeyName, keyName, mintKey, passwordLogin, removeKeyInSession, sweepKeys, type MintRequest } from './minting.ts';
import { isAnsweredFalse, isBadCredentials, isThrottled } from './refusals.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const origin = testCallOrigin({ ip: '10.0.0.7', userAgent: 'Python-xmlrpc/3.11' });
const key = '0123456789abcdef0123456789abcdef01234567';
const request: MintRequest = { db: 'gw', login: 'demo', password: 'demo', durationDays: 1, name: 'legacy-rpc-gateway test' };
const odooError = (kind: LegacyError['kind'], name: string, message: string) => new LegacyError(kind, { name, message });
const identityAction = struct({ type: 'ir.actions.act_window', res_model: 'res.users.identitycheck', res_id: 9 });
const showAction = struct({ type: 'ir.actions.act_window', res_model: 'res.users.apikeys.show', context: struct({ default_key: key }) });

/** An upstream whose session routes answer from `answers` (by method) and that records every request. */
function fakeUpstream(answers: Partial<Record<string, Value | LegacyError>>, uid: number | null = 5) {
  const seen: string[] = [];
  const upstream = {
    webSession: {
      async authenticate() {
        seen.push('authenticate');
        const a = answers.authenticate;
        if (a instanceof LegacyError) throw a;
        return { uid, session: { db: 'gw', cookie: 'c' } };
      },
      async callKw(_s: unknown, call: CallKw) {
        if (call.method === 'search_read' || call.method === 'remove')
          seen.push(
            `${call.method} ${JSON.stringify(call.method === 'remove' ? call.args[0] : (call.kwargs.get('domain') as Value[]).at(1))}`,
          );
        else
          seen.push(
            call.method === 'run_check'
              ? `run_check ${JSON.stringify((call.kwargs.get('context') as Map<string, Value>).get('password'))}`
              : call.method,
          );
        const a = answers[call.method];
        if (a instanceof LegacyError) throw a;
        return a ?? null;
      },
      async destroy() {
        seen.push('destroy');
      },
    },
    async json2() {
      seen.push('search_read');
      return answers.search_read ?? [struct({ id: 31, expiration_date: '2026-11-22 00:00:00' })];
    },
  } as unknown as Upstream;
  return { upstream, seen };
}

const now = Date.parse('2026-11-21T23:40:00Z');

describe('mintKey()', () => {
  it('passes the identity check with the password when make_key asks for it, and reads the real expiry', async () => {
    const { upstream, seen } = fakeUpstream({ create: 7, make_key: identityAction, run_check: showAction });
    expect(await mintKey(upstream, request, origin, now)).toEqual({
      uid: 5,
      key,
      keyId: 31,
      expiresAt: Date.parse('2026-11-22T00:00:00Z'),
      session: { db: 'gw', cookie: 'c' },
    });
    // the session stays open, to confirm the password later without a login
    expect(seen).toEqual(['authenticate', 'create', 'make_key', 'run_check "demo"', 'search_read']);
  });

  it('takes the key from make_key directly inside the identity window, and computes the expiry when the read finds nothing', async () => {
    const { upstream, seen } = fakeUpstream({ create: 7, make_key: showAction, search_read: [] });
    expect(await mintKey(upstream, { ...request, durationDays: 7 }, origin, now)).toMatchObject({
      keyId: undefined,
      expiresAt: Date.parse('2026-11-28T00:00:00Z'),
    });
    expect(seen).toEqual(['authenticate', 'create', 'make_key', 'search_read']);
  });

  it.each([
    [
      'the expiration the wizard requires',
      'create',
      odooError('validation_error', 'odoo.exceptions.ValidationError', 'The API key must have an expiration date'),
      "legacy-rpc-gateway could not mint an API key for this login: The API key must have an expiration date. Lower --key-duration to what the user's groups allow, or map this login to an API key in the credential map (--credentials-file).",
    ],
    [
      'the group maximum',
      'create',
      odooError('validation_error', 'odoo.exceptions.ValidationError', 'You cannot exceed 1.0 days.'),
      "legacy-rpc-gateway could not mint an API key for this login: You cannot exceed 1.0 days. Lower --key-duration to what the user's groups allow, or map this login to an API key in the credential map (--credentials-file).",
    ],
    [
      'a non-internal user (403)',
      'run_check',
      odooError('access_error', 'odoo.exceptions.AccessError', 'Only internal users can create API keys'),
      'legacy-rpc-gateway could not mint an API key for this login: Only internal users can create API keys. Map this login to one of its API keys in the credential map (--credentials-file), or let the client send an API key as its password.',
    ],
  ])('refuses %s with fault 3 and the reason, and still ends the session', async (_what, method, error, message) => {
    const { upstream, seen } = fakeUpstream({ create: 7, make_key: identityAction, run_check: showAction, [method]: error });
    await expect(mintKey(upstream, request, origin, now)).rejects.toMatchObject({ kind: 'access_denied', message });
    expect(seen.at(-1)).toBe('destroy');
  });

  it('answers "Incorrect Password" at the identity check as bad credentials', async () => {
    const { upstream } = fakeUpstream({
      create: 7,
      make_key: identityAction,
      run_check: odooError(
        'user_error',
        'odoo.exceptions.UserError',
        'Incorrect Password, try again or click on Forgot Password to reset your password.',
      ),
    });
    const err = await mintKey(upstream, request, origin, now).catch((e: unknown) => e);
    expect(isBadCredentials(err)).toBe(true);
  });

  it('refuses a two-factor login ({"uid": null}) after ending its session', async () => {
    const { upstream, seen } = fakeUpstream({}, null);
    await expect(mintKey(upstream, request, origin, now)).rejects.toThrow(/two-factor authentication is enabled/);
    expect(seen).toEqual(['authenticate', 'destroy']);
  });

  it('removes a key inside a session, passing the identity check when remove asks for it (corpus sess-retire-1, sess-retire-2)', async () => {
    const { upstream, seen } = fakeUpstream({ remove: identityAction, run_check: struct({ type: 'ir.actions.act_window_close' }) });
    await removeKeyInSession(upstream, { db: 'gw', cookie: 'c' }, 24, 'demo', origin);
    expect(seen).toEqual(['remove [24]', 'run_check "demo"']);
  });

  it("passes Odoo's own login cooldown on, answered False by authenticate", async () => {
    const cooldown = 'Too many login failures, please wait a bit before trying again.';
    const { upstream } = fakeUpstream({ authenticate: odooError('access_denied', 'odoo.exceptions.AccessDenied', cooldown) });
    const err = await passwordLogin(upstream, request, origin).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: cooldown });
    expect(isAnsweredFalse(err)).toBe(true);
    expect(isBadCredentials(err)).toBe(false);
    // about the address, not these credentials: never cached, never drops a key
    expect(isThrottled(err)).toBe(true);
  });

  it("recognises Odoo 19.0's cooldown that fails while it is worded (ValueError from _assert_can_auth) as the cooldown", async () => {
    const debug =
      'Traceback (most recent call last):\n  File "/opt/odoo19/odoo/addons/base/models/res_users.py", line 1272, in _assert_can_auth\n' +
      '    raise AccessDenied(_("Too many login failures, please wait a bit before trying again."))\n  File "/opt/odoo19/odoo/tools/translate.py", line 504, in _get_uid\n' +
      "    return int(frame.f_locals['user'])      # user may be a record\nValueError: invalid literal for int() with base 10: 'admin'\n";
    const crash = new LegacyError('internal', {
      name: 'builtins.ValueError',
      message: "invalid literal for int() with base 10: 'admin'",
      debug,
    });
    const { upstream } = fakeUpstream({ authenticate: crash });
    const err = await passwordLogin(upstream, request, origin).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'access_denied', message: 'Too many login failures, please wait a bit before trying again.' });
    expect(isBadCredentials(err)).toBe(false);
  });
});

describe('sweepKeys()', () => {
  const session = { db: 'gw', cookie: 'c' };
  const row = (id: number, name: string, uid = 5) => struct({ id, name, user_id: [uid, 'Marc Demo'] });
  const secret = 'a state secret of at least 32 characters';
  const marks = createKeyMarks(secret, '');
  const tagged = createKeyMarks(secret, 'eu-prod');
  const owns = (nonce: string) => marks.owns('gw', 'demo', nonce);
  /** A fresh name this gateway made for demo in gw. */
  const ours = (tag = '') => keyName(origin, (tag === '' ? marks : tagged).nonce('gw', 'demo'), tag);

  it("lists the user's keys named by this gateway and removes those older than the kept one, passing the identity check", async () => {
    const { upstream, seen } = fakeUpstream({
      // what a system user's search might answer: the gateway filters again, by owner, name and id
      search_read: [row(3, ours()), row(4, 'legacy-rpc-gateway for my notes'), row(5, ours(), 2), row(8, ours()), row(12, ours())],
      remove: identityAction,
      run_check: struct({ type: 'ir.actions.act_window_close' }),
    });
    expect(await sweepKeys(upstream, session, { uid: 5, keepKeyId: 10, password: 'demo', tag: '', owns }, origin)).toEqual([3, 8]);
    expect(seen).toEqual(['search_read ["name","=like","legacy-rpc-gateway for %"]', 'remove [3,8]', 'run_check "demo"']);
  });

  it('asks for nothing more when there is nothing to remove, and escapes the tag in the pattern', async () => {
    const { upstream, seen } = fakeUpstream({ search_read: [row(3, ours())] });
    expect(await sweepKeys(upstream, session, { uid: 5, keepKeyId: 10, password: 'demo', tag: 'eu_prod', owns }, origin)).toEqual([]);
    expect(seen).toEqual(['search_read ["name","=like","legacy-rpc-gateway (eu\\\\_prod) for %"]']);
  });

  it('recognises its own names only, per tag', () => {
    const tagOwns = (nonce: string) => tagged.owns('gw', 'demo', nonce);
    expect(isOwnKeyName(ours(), '', owns)).toBe(true);
    expect(isOwnKeyName(ours('eu-prod'), '', owns)).toBe(false);
    expect(isOwnKeyName(ours('eu-prod'), 'eu-prod', tagOwns)).toBe(true);
    expect(isOwnKeyName(ours(), 'eu-prod', tagOwns)).toBe(false);
    expect(isOwnKeyName('legacy-rpc-gateway for a script I wrote', '', owns)).toBe(false);
  });

  it("takes no name made up in its pattern, nor another secret's, another user's or another database's", () => {
    const name = ours();
    const nonce = /\[(.*)\]$/.exec(name)![1]!;
    expect(marks.owns('gw', 'demo', nonce)).toBe(true);
    // the pattern alone: older versions' 8 hex digits, or any mark
    expect(isOwnKeyName('legacy-rpc-gateway for Python-xmlrpc/3.11 at 10.0.0.7 [0a1b2c3d]', '', owns)).toBe(false);
    expect(isOwnKeyName(name.replace(/\.[0-9a-f]{16}\]$/, '.0123456789abcdef]'), '', owns)).toBe(false);
    // another gateway: another state secret, or none (a secret of its process)
    expect(createKeyMarks('another state secret of 32 characters', '').owns('gw', 'demo', nonce)).toBe(false);
    expect(createKeyMarks(undefined, '').owns('gw', 'demo', nonce)).toBe(false);
    // the same secret: a replica, or this gateway after a restart
    expect(createKeyMarks(secret, '').owns('gw', 'demo', nonce)).toBe(true);
    expect(marks.owns('gw', 'admin', nonce)).toBe(false);
    expect(marks.owns('gw2', 'demo', nonce)).toBe(false);
  });
});
