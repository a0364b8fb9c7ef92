/**
 * A uid-only password call on a database where the gateway has not seen the uid log in (docs/security.md,
 * "Object calls carry a uid"): the logins the uid has in other databases of the same upstream are
 * candidates, used only once a login in this database answers the same uid — after a restart too,
 * from `--logins-file` or from Redis.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway } from '../../src/server/gateway.ts';
import { startReplicas } from '../support/replicas.ts';
import { errorData, jsonrpcAt } from '../support/stack.ts';

const dir = mkdtempSync(join(tmpdir(), 'uid-elsewhere-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readLogin = (url: string, db: string, uid: number, password: string) =>
  jsonrpcAt(url, 'object', 'execute_kw', [db, uid, password, 'res.users', 'read', [[uid], ['login']]]);
const logins = (s: Simulator, db: string) =>
  s.log.filter((r) => r.path === '/web/session/authenticate' && r.body.includes(`"db":"${db}"`)).length;

/** Runs `first` on one gateway, restarts it, and runs `then` on the new one. */
async function acrossRestart(config: Config, first: (url: string) => Promise<void>, then: (url: string) => Promise<void>): Promise<void> {
  const before = await startGateway(config, createLogger('silent'));
  try {
    await first(before.url);
  } finally {
    await before.close();
  }
  const after = await startGateway(config, createLogger('silent'));
  try {
    await then(after.url);
  } finally {
    await after.close();
  }
}

/** In gw2, uid 5 is no longer "demo": "demo" is the portal user (uid 6), whose password is "portal". */
async function moveDemoLogin(s: Simulator): Promise<void> {
  const write = (uid: number, login: string) =>
    fetch(`${s.url}/json/2/res.users/write`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `bearer ${s.keyFor('gw2', 'admin')}`, 'x-odoo-database': 'gw2' },
      body: JSON.stringify({ ids: [uid], vals: { login } }),
    }).then((r) => expect(r.status).toBe(200));
  await write(5, 'marc');
  await write(6, 'demo');
}

describe('a uid-only call on a database where the uid has not logged in', () => {
  it('uses the login the uid has in another database once this one confirms it, after a restart (--logins-file)', async () => {
    const sim = await startSimulator({ databases: ['gw', 'gw2'] });
    const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, '--logins-file', join(dir, 'a.json')], {});
    try {
      await acrossRestart(
        config,
        async (url) => expect((await jsonrpcAt(url, 'common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5),
        async (url) => {
          sim.clearLog();
          const { result, error } = await readLogin(url, 'gw2', 5, 'demo');
          expect(error).toBeUndefined();
          expect(result).toEqual([
            new Map<string, unknown>([
              ['id', 5],
              ['login', 'demo'],
            ]),
          ]);
          // remembered for gw2: the next call makes no confirming login
          const confirmations = logins(sim, 'gw2');
          expect((await readLogin(url, 'gw2', 5, 'demo')).error).toBeUndefined();
          expect(logins(sim, 'gw2')).toBe(confirmations);
        },
      );
    } finally {
      await sim.close();
    }
  });

  it('never uses a login that belongs to another user in this database', async () => {
    const sim = await startSimulator({ databases: ['gw', 'gw2'] });
    await moveDemoLogin(sim);
    const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, '--logins-file', join(dir, 'b.json')], {});
    try {
      await acrossRestart(
        config,
        async (url) => expect((await jsonrpcAt(url, 'common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5),
        async (url) => {
          // "demo" with the portal user's password opens uid 6 in gw2, not uid 5
          const { error } = await readLogin(url, 'gw2', 5, 'portal');
          expect(errorData(error)).toMatchObject({
            name: 'odoo.exceptions.AccessDenied',
            message: expect.stringContaining('does not know the login of uid 5'),
          });
          expect(logins(sim, 'gw2')).toBe(1); // the one login that told whose "demo" is in gw2
          // known now: the next call makes no login to learn it again
          expect(errorData((await readLogin(url, 'gw2', 5, 'portal')).error)).toMatchObject({ name: 'odoo.exceptions.AccessDenied' });
          expect(logins(sim, 'gw2')).toBe(1);
          expect(sim.keys.list().filter((k) => k.uid === 6 && k.name.startsWith('legacy-rpc-gateway'))).toEqual([]);
        },
      );
    } finally {
      await sim.close();
    }
  });

  /** uid 5 logged in as "demo" in gw, "demo3" in gw3 and "demo4" in gw4 (password "demo" everywhere); none in gw2. */
  async function seenInThreeDatabases(extra: string[] = []): Promise<{ sim: Simulator; url: string; close: () => Promise<void> }> {
    const sim = await startSimulator({ databases: ['gw', 'gw2', 'gw3', 'gw4'] });
    for (const db of ['gw3', 'gw4'])
      await fetch(`${sim.url}/json/2/res.users/write`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `bearer ${sim.keyFor(db, 'admin')}`, 'x-odoo-database': db },
        body: JSON.stringify({ ids: [5], vals: { login: `demo${db.slice(2)}` } }),
      }).then((r) => expect(r.status).toBe(200));
    const gateway = await startGateway(
      loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, ...extra], {}),
      createLogger('silent'),
    );
    for (const [db, login] of [
      ['gw', 'demo'],
      ['gw3', 'demo3'],
      ['gw4', 'demo4'],
    ] as const)
      expect((await jsonrpcAt(gateway.url, 'common', 'login', [db, login, 'demo'])).result).toBe(5);
    sim.clearLog();
    return { sim, url: gateway.url, close: async () => (await gateway.close(), await sim.close()) };
  }

  /** The fault for a uid the gateway never saw anywhere, with `uid` in place of 7. */
  const neverSeen = async (url: string, uid: number) =>
    errorData((await readLogin(url, 'gw2', 7, 'whatever')).error).message.replace('uid 7', `uid ${uid}`);

  it('makes one upstream login per wrong guess, and its fault tells nothing about the other databases', async () => {
    const { sim, url, close } = await seenInThreeDatabases(['--throttle-failures', '1']);
    try {
      const expected = await neverSeen(url, 5);
      for (let guess = 1; guess <= 6; guess++) {
        const { error } = await readLogin(url, 'gw2', 5, `wrong-${guess}`);
        // the same fault as for a uid never seen, even once the throttle refuses the candidates
        expect(errorData(error)).toMatchObject({ name: 'odoo.exceptions.AccessDenied', message: expected });
        expect(logins(sim, 'gw2')).toBeLessThanOrEqual(guess);
      }
    } finally {
      await close();
    }
  });

  it('still finds the right login among several candidates, one login per call', async () => {
    const { sim, url, close } = await seenInThreeDatabases();
    try {
      let served = 0;
      for (let call = 1; call <= 3 && served === 0; call++) {
        const { error } = await readLogin(url, 'gw2', 5, 'demo');
        if (error === undefined) served = call;
        // one confirming login per call, and the mint's own login once served
        expect(logins(sim, 'gw2')).toBeLessThanOrEqual(call + (served > 0 ? 1 : 0));
      }
      expect(served).toBeGreaterThan(0);
      // remembered: no more confirming logins
      const before = logins(sim, 'gw2');
      expect((await readLogin(url, 'gw2', 5, 'demo')).error).toBeUndefined();
      expect(logins(sim, 'gw2')).toBe(before);
    } finally {
      await close();
    }
  });

  it('finds the candidates in Redis after a restart, and the test leaves no key there', async () => {
    const r = await startReplicas(1, { name: 'uid-elsewhere', sim: { databases: ['gw', 'gw2'] } });
    try {
      expect((await r.call(0, 'common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5);
      await r.stop(0);
      const after = await startGateway(r.configs[0]!, createLogger('silent'));
      try {
        const { result, error } = await readLogin(after.url, 'gw2', 5, 'demo');
        expect(error).toBeUndefined();
        expect(result).toEqual([
          new Map<string, unknown>([
            ['id', 5],
            ['login', 'demo'],
          ]),
        ]);
      } finally {
        await after.close();
      }
    } finally {
      await r.close(); // deletes every key under the test's prefix
    }
  });
});
