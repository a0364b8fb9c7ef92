import { describe, expect, it } from 'vitest';
import type { Upstream } from '../upstream/index.ts';
import { createCredentialMap } from './credential-map.ts';
import { createUidLogins, maxCandidates, type LoginStore } from './uid-logins.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const origin = testCallOrigin({ database: 'gw' });

function table(store?: LoginStore) {
  return createUidLogins({
    max: 100,
    upstream: {} as Upstream,
    serviceKeys: undefined,
    map: createCredentialMap([]),
    ...(store === undefined ? {} : { store }),
  });
}

describe('createUidLogins().elsewhere()', () => {
  it("answers the logins a uid has in the other databases, from this process and the shared store, never this database's", async () => {
    const store: LoginStore = {
      get: async () => undefined,
      set: () => undefined,
      elsewhere: async (db, uid) => (db === 'gw2' && uid === 5 ? ['marc', 'demo'] : []),
    };
    const logins = table(store);
    logins.remember('gw', 5, 'demo');
    logins.remember('gw2', 5, 'not-a-candidate-here');
    logins.remember('gw3', 7, 'someone-else');
    expect((await logins.elsewhere('gw2', 5)).sort()).toEqual(['demo', 'marc']);
    expect(await logins.elsewhere('gw', 5)).toEqual(['not-a-candidate-here']);
  });

  it(`tries at most ${maxCandidates} candidates`, async () => {
    const logins = table();
    for (const db of ['a', 'b', 'c', 'd', 'e']) logins.remember(db, 5, `login-${db}`);
    expect(await logins.elsewhere('z', 5)).toHaveLength(maxCandidates);
  });

  it('still refuses a uid it cannot tell (no service key) with the unknown-login refusal', async () => {
    await expect(table().resolve(5, origin)).rejects.toThrow(/does not know the login of uid 5/);
  });
});
