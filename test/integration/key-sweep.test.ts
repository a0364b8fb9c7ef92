/**
 * Keys a previous run left behind are removed (docs/security.md "Minted keys"): on Odoo 19.0 a user
 * removes their own keys only in a web session behind the identity check, so the gateway does it
 * while it holds the password (at each mint, renewal and fresh login), keeping the key in use and
 * touching no key it did not name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createKeyMarks } from '../../src/credentials/key-marks.ts';
import { startGateway } from '../../src/server/gateway.ts';
import { captureLog } from '../support/captured-log.ts';
import { startReplicas } from '../support/replicas.ts';
import { jsonrpcAt } from '../support/stack.ts';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const gatewayKeys = (s: Simulator, uid: number) =>
  s.keys
    .list()
    .filter((k) => k.uid === uid && k.name.startsWith('legacy-rpc-gateway for ') && / \[[0-9a-f]{8}\.[0-9a-f]{16}\]$/.test(k.name));

/** The state secret a gateway recognises its earlier runs' keys by (without one, only its own process's). */
const stateSecret = 'the state secret of the key-sweep tests';

/** Starts the gateway, makes one password call as admin, and stops it (a clean shutdown). */
async function oneRun(s: Simulator, flags: string[] = [], log = captureLog('silent').log): Promise<void> {
  const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', s.url, ...flags], {});
  const gateway = await startGateway(config, log);
  try {
    expect((await jsonrpcAt(gateway.url, 'common', 'login', ['gw', 'admin', 'admin'])).result).toBe(2);
    const { result, error } = await jsonrpcAt(gateway.url, 'object', 'execute_kw', [
      'gw',
      2,
      'admin',
      'res.users',
      'read',
      [[2], ['login']],
    ]);
    expect(error).toBeUndefined();
    expect(result).toEqual([
      new Map<string, unknown>([
        ['id', 2],
        ['login', 'admin'],
      ]),
    ]);
    await gateway.credentials.settled();
  } finally {
    await gateway.close();
  }
}

describe('keys minted by earlier runs', () => {
  it('stay bounded after 10 restarts each followed by one password call (Odoo 19.0: no revoke)', async () => {
    sim = await startSimulator({ databases: ['gw'] });
    // the uid is known from a login file or a service key; here the first call of each run logs in
    for (let run = 0; run < 10; run++) {
      const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, '--state-secret', stateSecret], {});
      const gateway = await startGateway(config, captureLog('silent').log);
      try {
        expect((await jsonrpcAt(gateway.url, 'common', 'login', ['gw', 'admin', 'admin'])).result).toBe(2);
        await gateway.credentials.settled();
      } finally {
        await gateway.close();
      }
    }
    expect(gatewayKeys(sim, 2)).toHaveLength(1);
    // a run without the secret cannot tell the earlier runs' keys from another gateway's: it keeps them
    await oneRun(sim);
    expect(gatewayKeys(sim, 2)).toHaveLength(2);
  });

  it('stay bounded with Redis too: a key the store holds removes the older ones (the test leaves no key in Redis)', async () => {
    const r = await startReplicas(1, { name: 'key-sweep' });
    try {
      await r.stop(0);
      for (let run = 0; run < 5; run++) {
        const gateway = await startGateway(r.configs[0]!, captureLog('silent').log);
        try {
          expect((await jsonrpcAt(gateway.url, 'common', 'login', ['gw', 'admin', 'admin'])).result).toBe(2);
          await gateway.credentials.settled();
        } finally {
          await gateway.close();
        }
      }
      expect(gatewayKeys(r.sim, 2)).toHaveLength(1);
    } finally {
      await r.close(); // deletes every key under the test's prefix
    }
  });

  it('removes only keys this gateway named, of the user who logs in, and never those of another --key-tag', async () => {
    sim = await startSimulator({ databases: ['gw'] });
    const expiration = '2099-01-01 00:00:00';
    const marks = createKeyMarks(stateSecret, '');
    const mine = sim.keys.add({
      uid: 2,
      name: `legacy-rpc-gateway for Python-xmlrpc/3.11 at 10.0.0.7 [${marks.nonce('gw', 'admin')}]`,
      expiration,
    });
    const tagged = `legacy-rpc-gateway (eu-prod) for Python-xmlrpc/3.11 at 10.0.0.8 [${createKeyMarks(stateSecret, 'eu-prod').nonce('gw', 'admin')}]`;
    const others = [
      sim.keys.add({ uid: 2, name: 'my nightly script', expiration }),
      sim.keys.add({ uid: 2, name: 'legacy-rpc-gateway for my notes', expiration }), // no nonce: not one of ours
      sim.keys.add({ uid: 2, name: tagged, expiration }),
      // admin is a system user and could remove it: another user's key, named as ours
      sim.keys.add({ uid: 5, name: `legacy-rpc-gateway for Python-xmlrpc/3.11 at 10.0.0.7 [${marks.nonce('gw', 'demo')}]`, expiration }),
      // named by the user in the gateway's pattern: older versions' 8 hex digits, or a made-up mark
      sim.keys.add({ uid: 2, name: 'legacy-rpc-gateway for Python-xmlrpc/3.11 at 10.0.0.7 [0a1b2c3d]', expiration }),
      sim.keys.add({ uid: 2, name: 'legacy-rpc-gateway for Python-xmlrpc/3.11 at 10.0.0.7 [0a1b2c3d.0123456789abcdef]', expiration }),
    ];
    await oneRun(sim, ['--state-secret', stateSecret]);
    expect(sim.keys.find(mine.key)).toBeUndefined();
    for (const k of others) expect(sim.keys.find(k.key)).toBeDefined();
    // and one of the tagged gateway's runs removes the tagged key, never the untagged ones
    const minted = () => gatewayKeys(sim!, 2).filter((k) => !others.some((o) => o.key === k.key));
    const untagged = minted();
    expect(untagged).toHaveLength(1);
    await oneRun(sim, ['--key-tag', 'eu-prod', '--state-secret', stateSecret]);
    expect(sim.keys.find(others[2]!.key)).toBeUndefined();
    expect(minted().map((k) => k.key)).toEqual(untagged.map((k) => k.key));
    expect(sim.keys.list().filter((k) => k.name.startsWith('legacy-rpc-gateway (eu-prod) for ') && k.uid === 2)).toHaveLength(1);
  });

  it('never writes a key or the password to the log while it removes them', async () => {
    sim = await startSimulator({ databases: ['gw'] });
    sim.control.setPassword('gw', 'admin', 'Adm1n-Secret-Passphrase');
    const capture = captureLog('trace');
    const seen = new Set<string>();
    for (let run = 0; run < 3; run++) {
      const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, '--state-secret', stateSecret], {});
      const gateway = await startGateway(config, capture.log);
      try {
        expect((await jsonrpcAt(gateway.url, 'common', 'login', ['gw', 'admin', 'Adm1n-Secret-Passphrase'])).result).toBe(2);
        await gateway.credentials.settled();
        for (const k of gatewayKeys(sim, 2)) seen.add(k.key);
      } finally {
        await gateway.close();
      }
    }
    const removals = capture.matching("removed this gateway's earlier API keys");
    expect(removals).toHaveLength(2);
    expect(seen.size).toBe(3);
    const text = capture.lines.map((l) => JSON.stringify(l)).join('\n');
    for (const secret of [...seen, 'Adm1n-Secret-Passphrase']) expect(text).not.toContain(secret);
  });

  it("removes none of the user's keys in another database: each Odoo database has its own keys", async () => {
    sim = await startSimulator({ databases: ['gw', 'gw2'] });
    const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url], {});
    const gateway = await startGateway(config, captureLog('silent').log);
    try {
      const password = (db: string) => sim!.users(db).find((u) => u.login === 'admin')!.password;
      expect((await jsonrpcAt(gateway.url, 'common', 'login', ['gw', 'admin', password('gw')])).result).toBe(2);
      await gateway.credentials.settled();
      const [gwKey] = gatewayKeys(sim, 2);
      // admin's login in gw2 mints a key there and removes admin's earlier keys, of gw2 only
      expect((await jsonrpcAt(gateway.url, 'common', 'login', ['gw2', 'admin', password('gw2')])).result).toBe(2);
      await gateway.credentials.settled();
      expect(sim.keys.find(gwKey!.key, 'gw')).toBeDefined();
      sim.clearLog();
      const { error } = await jsonrpcAt(gateway.url, 'object', 'execute_kw', [
        'gw',
        2,
        password('gw'),
        'res.users',
        'read',
        [[2], ['login']],
      ]);
      expect(error).toBeUndefined();
      // served with gw's key as minted: no 401, no second mint
      expect(sim.log.filter((r) => r.path === '/web/session/authenticate')).toEqual([]);
    } finally {
      await gateway.close();
    }
  });

  it("never removes another gateway's keys, with the same --key-tag and no Redis: each process marks its own", async () => {
    sim = await startSimulator({ databases: ['gw'] });
    const start = () =>
      startGateway(loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim!.url], {}), captureLog('silent').log);
    const a = await start();
    const b = await start();
    try {
      const read = (url: string) => jsonrpcAt(url, 'object', 'execute_kw', ['gw', 2, 'admin', 'res.users', 'read', [[2], ['login']]]);
      expect((await jsonrpcAt(a.url, 'common', 'login', ['gw', 'admin', 'admin'])).result).toBe(2);
      await a.credentials.settled();
      // b's first login removes nothing: a's key is not one b can tell for its own
      expect((await jsonrpcAt(b.url, 'common', 'login', ['gw', 'admin', 'admin'])).result).toBe(2);
      await b.credentials.settled();
      expect(gatewayKeys(sim, 2)).toHaveLength(2);
      sim.clearLog();
      // both served with the key each minted: no 401, no second mint
      expect((await read(a.url)).error).toBeUndefined();
      expect((await read(b.url)).error).toBeUndefined();
      expect(sim.log.filter((r) => r.path === '/web/session/authenticate')).toEqual([]);
      expect(gatewayKeys(sim, 2)).toHaveLength(2);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
