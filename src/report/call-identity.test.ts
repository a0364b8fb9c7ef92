import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CallCaller, CallOrigin } from '../call.ts';
import { createCallIdentities } from './call-identity.ts';
import { runLoginIdCommand } from './login-id-command.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const secret = 'a state secret of at least 32 characters';
const origin = (): CallOrigin => testCallOrigin({ ip: '10.0.0.5', userAgent: 'x', requestId: 'r' });

/** A call whose legacy service named `caller`. */
const calling = (caller: CallCaller): CallOrigin => testCallOrigin({ ip: '10.0.0.5', userAgent: 'x', requestId: 'r', caller });

/** The pseudonym identities keyed with `stateSecret` give `login`. */
async function pseudonym(stateSecret: string | undefined, login: string): Promise<string | undefined> {
  return createCallIdentities({ stateSecret }).of(calling({ database: 'gw', login }))?.user;
}

describe('the identity of a call', () => {
  it('is none until a legacy service names the caller: the database alone, named first, is no identity', () => {
    expect(createCallIdentities({ stateSecret: secret }).of(origin())).toBeUndefined();
    expect(createCallIdentities({ stateSecret: secret }).of(calling({ database: 'gw' }))).toBeUndefined();
  });

  it('names a uid by its login once a login of that uid succeeded, or a web login passed through, and by `uid:` before', async () => {
    const identities = createCallIdentities({ stateSecret: secret });
    const admin = await pseudonym(secret, 'admin');
    expect(identities.of(calling({ database: 'gw', uid: 2 }))).toEqual({ database: 'gw', user: 'uid:2' });
    // a login that failed teaches nothing
    expect(identities.of(calling({ database: 'gw', login: 'admin' }))).toEqual({ database: 'gw', user: admin });
    expect(identities.of(calling({ database: 'gw', uid: 2 }))?.user).toBe('uid:2');
    identities.of(calling({ database: 'gw', login: 'admin', uid: 2 }));
    expect(identities.of(calling({ database: 'gw', uid: 2 }))).toEqual({ database: 'gw', user: admin });
    // per database
    expect(identities.of(calling({ database: 'gw2', uid: 2 }))?.user).toBe('uid:2');
    identities.learn('gw2', 5, 'demo');
    expect(identities.of(calling({ database: 'gw2', uid: 5 }))?.user).toBe(await pseudonym(secret, 'demo'));
  });
});

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
