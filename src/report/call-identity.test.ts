import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCallValues, type CallOrigin } from '../call.ts';
import type { Credentials } from '../credentials/index.ts';
import { createIdentityTap } from './call-identity.ts';
import { runLoginIdCommand } from './login-id-command.ts';

const secret = 'a state secret of at least 32 characters';
const credentials: Credentials = {
  callAs: (_db, _uid, _password, _origin, call) => call('k'),
  authenticate: async () => 2,
  probeDatabase: async () => undefined,
  rememberLogin: () => undefined,
  settled: async () => undefined,
  close: async () => undefined,
};
const origin = (): CallOrigin => ({
  host: '',
  ip: '10.0.0.5',
  proto: 'http',
  userAgent: 'x',
  requestId: 'r',
  values: createCallValues(),
  signal: new AbortController().signal,
});

/** The pseudonym a tap with `stateSecret` gives `login`. */
async function pseudonym(stateSecret: string | undefined, login: string): Promise<string | undefined> {
  const tap = createIdentityTap({ stateSecret });
  const o = origin();
  await tap.wrap(credentials).authenticate('gw', login, 'pw', o);
  return tap.of(o)?.user;
}

describe('login pseudonyms of the migration report', () => {
  it('are keyed with the state secret: stable across replicas and restarts, not the unkeyed hash a dictionary reverses', async () => {
    const first = await pseudonym(secret, 'admin');
    expect(first).toMatch(/^login:[0-9a-f]{12}$/);
    expect(await pseudonym(secret, 'admin')).toBe(first);
    expect(first).not.toBe(`login:${createHash('sha256').update('admin').digest('hex').slice(0, 12)}`);
    expect(await pseudonym('another state secret of 32 characters', 'admin')).not.toBe(first);
    expect(await pseudonym(secret, 'demo')).not.toBe(first);
    // without a state secret, each process keys them its own way
    expect(await pseudonym(undefined, 'admin')).not.toBe(await pseudonym(undefined, 'admin'));
  });

  it('are told to an operator for a known login by `login-id`, with the state secret from the environment', async () => {
    const out = new PassThrough();
    await runLoginIdCommand(Readable.from(['admin\n']), out, { STATE_SECRET: secret });
    expect(out.read()?.toString()).toBe(`${await pseudonym(secret, 'admin')}\n`);
    await expect(runLoginIdCommand(Readable.from(['admin\n']), new PassThrough(), {})).rejects.toThrow(/STATE_SECRET/);
  });
});
