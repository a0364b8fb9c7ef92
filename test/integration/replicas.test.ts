/**
 * Replicas sharing credentials through Redis, four gateways in this process in front of
 * one simulator, exchanges counted at the simulator's HTTP layer: one exchange for first calls spread
 * over all replicas, warm calls on any replica make none, logins, refusals and throttle counts are
 * shared, a renewal on one replica reaches the others, keys are retired once (by the last replica to
 * stop), and what sits in Redis is unreadable without the secret.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCacheKeyer } from '../../src/credentials/cache-key.ts';
import { createSealer, slotSecret } from '../../src/state/sealed.ts';
import { createTestClock, minutes } from '../support/clock.ts';
import { keysUnder, redisClient } from '../support/redis.ts';
import { startReplicas, type Replicas } from '../support/replicas.ts';
import { errorData } from '../support/stack.ts';

const authPath = '/web/session/authenticate';
const mintSequence = [
  authPath,
  '/web/dataset/call_kw/res.users.apikeys.description/create',
  '/web/dataset/call_kw/res.users.apikeys.description/make_key',
  '/web/dataset/call_kw/res.users.identitycheck/run_check',
  '/json/2/res.users.apikeys/search_read',
  '/web/dataset/call_kw/res.users.apikeys/search_read',
];
const contextGet = (r: Replicas, i: number, uid: number, password: string) =>
  r.call(i, 'object', 'execute_kw', ['gw', uid, password, 'res.users', 'context_get', []]);
const paths = (r: Replicas) => r.sim.log.map((q) => q.path).filter((p) => !p.startsWith('/doc-bearer/'));
const exchanges = (r: Replicas) => paths(r).filter((p) => p !== '/json/2/res.users/context_get');
const mintedKeys = (r: Replicas) => r.sim.keys.list().filter((k) => k.name.startsWith('legacy-rpc-gateway for '));

/** The service key's look for RPC policy modules (src/legacy/rpc-policy.ts). */
const policyRead = '/json/2/ir.module.module/search_read';
let replicas: Replicas | undefined;
const redis = redisClient();
afterEach(async () => {
  const prefix = replicas?.prefix;
  await replicas?.close();
  replicas = undefined;
  if (prefix !== undefined) {
    const keys = await keysUnder(redis, prefix);
    if (keys.length > 0) await redis.del(...keys);
  }
});

describe('replicas sharing credentials through Redis', () => {
  it('100 concurrent first calls spread over 4 replicas make one exchange in total; warm calls on any replica make none', async () => {
    // the password's periodic confirmation (--revalidate-interval, 5 s by default) is a timer, not a
    // call: on a loaded machine the first 100 calls can outlast half of it, so it is set out of reach
    const r = (replicas = await startReplicas(4, {
      name: 'first-calls',
      flags: (sim) => ['--service-key', sim.keyFor('gw', 'admin'), '--revalidate-interval', '600000', '--login-recheck-interval', '60000'],
    }));
    const answers = await Promise.all(Array.from({ length: 100 }, (_, n) => contextGet(r, n % 4, 5, 'demo')));
    expect(answers.filter((a) => a.error !== undefined).map((a) => errorData(a.error).message)).toEqual([]);
    // the uid → login look-up may be made by each replica (at most once each), and the base URL read
    // with the service key before the login; the key exchange once in all
    expect(
      exchanges(r).filter(
        (p) => p !== '/json/2/res.users/search_read' && p !== '/json/2/ir.config_parameter/get_param' && p !== policyRead,
      ),
    ).toEqual(mintSequence);
    expect(exchanges(r).filter((p) => p === '/json/2/res.users/search_read').length).toBeLessThanOrEqual(4);
    expect(mintedKeys(r)).toHaveLength(1);
    r.sim.clearLog();
    await Promise.all(Array.from({ length: 100 }, (_, n) => contextGet(r, n % 4, 5, 'demo')));
    // each replica's look for RPC policy modules (rpc-policy.ts) is its own, with the service key, anew every 5 s
    expect(exchanges(r).filter((p) => p !== policyRead)).toEqual([]);
    const bearers = new Set(r.sim.log.filter((q) => q.path !== policyRead).map((q) => q.headers.authorization));
    expect(bearers).toEqual(new Set([`bearer ${mintedKeys(r)[0]!.key}`]));
  }, 180_000); // four gateways and 200 calls: a loaded machine takes its time

  it('a login learned on one replica serves object calls on another; a refusal on one is answered by the others without a login', async () => {
    const r = (replicas = await startReplicas(2, { name: 'logins' }));
    expect((await r.call(0, 'common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5);
    r.sim.clearLog();
    // replica 1 has no service key: it can only know uid 5's login from replica 0, and the key too
    expect((await contextGet(r, 1, 5, 'demo')).error).toBeUndefined();
    expect(exchanges(r)).toEqual([]);

    r.sim.clearLog();
    expect((await r.call(0, 'common', 'authenticate', ['gw', 'admin', 'wrong', {}])).result).toBe(false);
    expect((await r.call(1, 'common', 'authenticate', ['gw', 'admin', 'wrong', {}])).result).toBe(false);
    expect(paths(r).filter((p) => p === authPath)).toHaveLength(1);
  });

  it('failed logins spread over replicas are throttled together', async () => {
    const r = (replicas = await startReplicas(3, { name: 'throttle', flags: ['--throttle-failures', '3', '--negative-cache-ttl', '0'] }));
    for (let n = 0; n < 3; n++) expect((await r.call(n, 'common', 'authenticate', ['gw', 'admin', `wrong-${n}`, {}])).result).toBe(false);
    r.sim.clearLog();
    // the fourth attempt, on any replica, is refused without asking Odoo (even with the right password)
    expect((await r.call(0, 'common', 'authenticate', ['gw', 'admin', 'admin', {}])).result).toBe(false);
    expect((await r.call(1, 'common', 'authenticate', ['gw', 'admin', 'wrong-4', {}])).result).toBe(false);
    expect(paths(r).filter((p) => p === authPath)).toEqual([]);
  });

  it('a renewal on one replica reaches the others; the old key is removed once', async () => {
    const clock = createTestClock('2026-11-21T12:00:00Z');
    const r = (replicas = await startReplicas(3, { name: 'renewal', sim: { now: clock.date }, gateway: { now: clock.now } }));
    expect((await r.call(0, 'common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5);
    await Promise.all([1, 2].map((i) => contextGet(r, i, 5, 'demo')));
    const [old] = mintedKeys(r);
    clock.set('2026-11-21T23:55:00Z'); // inside the 10-minute renewal margin of a key expiring at midnight
    await Promise.all([0, 1, 2].map((i) => contextGet(r, i, 5, 'demo')));
    await Promise.all(r.gateways.map((g) => g.credentials.settled()));
    const keys = mintedKeys(r);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.key).not.toBe(old!.key);
    // the first mint and one renewal; the re-check of the password (12 h later: past --revalidate-interval
    // and past --login-recheck-interval) is one fresh login by each replica on its own, at most one session check each
    const logins = r.sim.log.filter((q) => q.path === authPath).length;
    expect(logins).toBeGreaterThanOrEqual(2);
    expect(logins).toBeLessThanOrEqual(5);
    expect(r.sim.log.filter((q) => q.path === '/web/dataset/call_kw/res.users/read').length).toBeLessThanOrEqual(3);
    r.sim.clearLog();
    clock.advance(minutes(1)); // past the first level's 5 s: each replica reads the store again
    await Promise.all([0, 1, 2].map((i) => contextGet(r, i, 5, 'demo')));
    // every JSON-2 call with it (the web session routes carry a cookie, not a key: the checks of the
    // renewal's session, and the fresh login of a replica that read the key from the store, which
    // does not carry when its last login was)
    expect(new Set(r.sim.log.filter((q) => q.path.startsWith('/json/2/')).map((q) => q.headers.authorization))).toEqual(
      new Set([`bearer ${keys[0]!.key}`]),
    );
  });

  it('a changed password is refused within the bound on every replica, whatever locks are planted in Redis', async () => {
    const clock = createTestClock('2026-11-21T12:00:00Z');
    const r = (replicas = await startReplicas(2, {
      name: 'planted',
      sim: { now: clock.date },
      gateway: { now: clock.now },
      flags: ['--throttle-failures', '3', '--revalidate-interval', '5000'],
    }));
    expect((await r.call(0, 'common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5);
    expect((await contextGet(r, 1, 5, 'demo')).error).toBeUndefined();
    // someone with write access to Redis plants every lock, without expiry, for every slot
    const slots = (await keysUnder(redis, `${r.prefix}k:`)).map((k) => k.slice(`${r.prefix}k:`.length));
    expect(slots.length).toBeGreaterThan(0);
    for (const slot of slots)
      for (const lock of ['check', 'renew', 'resolve']) await redis.set(`${r.prefix}lock:${lock}:${slot}`, 'planted');
    r.sim.control.setPassword('gw', 'demo', 'changed');
    clock.advance(5000);
    for (const i of [0, 1])
      expect(errorData((await contextGet(r, i, 5, 'demo')).error)).toMatchObject({
        name: 'odoo.exceptions.AccessDenied',
        message: 'Access Denied',
      });
  });

  it('a key is retired once, by the last replica to stop', async () => {
    const r = (replicas = await startReplicas(3, { name: 'retire', sim: { laterBuild: true } }));
    // admin: a system user, whose keys the later build lets revoke
    await Promise.all([0, 1, 2].map((i) => r.call(i, 'common', 'login', ['gw', 'admin', 'admin'])));
    expect(mintedKeys(r)).toHaveLength(1);
    r.sim.clearLog();
    await r.stop(0);
    await r.stop(1);
    expect(mintedKeys(r)).toHaveLength(1);
    expect(paths(r).filter((p) => p.startsWith('/json/2/res.users.apikeys/revoke'))).toEqual([]);
    await r.stop(2);
    expect(mintedKeys(r)).toHaveLength(0);
    expect(paths(r).filter((p) => p.startsWith('/json/2/res.users.apikeys/revoke'))).toHaveLength(1);
  });

  it('stores no login, password or key readable without the secret', async () => {
    const r = (replicas = await startReplicas(2, { name: 'sealed' }));
    await r.call(0, 'common', 'login', ['gw', 'demo', 'demo']);
    await r.call(1, 'common', 'authenticate', ['gw', 'demo', 'not-the-password', {}]);
    const [minted] = mintedKeys(r);
    const names = await keysUnder(redis, r.prefix);
    expect(names.length).toBeGreaterThan(0);
    const dump: string[] = [];
    for (const name of names) {
      const type = await redis.type(name);
      if (type === 'string') dump.push(name, (await redis.get(name))!);
      else if (type === 'hash') dump.push(name, JSON.stringify(await redis.hgetall(name)));
      else if (type === 'zset') dump.push(name, JSON.stringify(await redis.zrange(name, 0, -1)));
    }
    const all = dump.join('\n');
    for (const secret of ['demo', 'not-the-password', minted!.key, minted!.key.slice(0, 12)]) expect(all).not.toContain(secret);
    // the entry opens with the secret (so it is the key), and with no other secret
    const slot = createCacheKeyer(slotSecret(r.secret))('gw', 'password', 'demo', 'demo');
    const entryName = `${r.prefix}k:${slot}`;
    const sealed = (await redis.get(entryName))!;
    expect(createSealer(r.secret).open(entryName, sealed)).toContain(minted!.key);
    expect(createSealer('x'.repeat(32) + r.secret).open(entryName, sealed)).toBeUndefined();
    expect(createSealer(r.secret).open(`${r.prefix}k:another-slot`, sealed)).toBeUndefined();
  });

  it('a replica that died holding the lock blocks the others only until the lock times out', async () => {
    const r = (replicas = await startReplicas(2, { name: 'dead-lock', flags: ['--redis-lock-timeout', '1500'] }));
    const slot = createCacheKeyer(slotSecret(r.secret))('gw', 'password', 'admin', 'admin');
    await redis.set(`${r.prefix}lock:resolve:${slot}`, 'a-replica-that-died', 'PX', 1500);
    const started = Date.now();
    const answers = await Promise.all([0, 1].map((i) => r.call(i, 'common', 'authenticate', ['gw', 'admin', 'admin', {}])));
    expect(answers.map((a) => a.result)).toEqual([2, 2]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // it did wait for the dead holder's lock
    expect(paths(r).filter((p) => p === authPath)).toHaveLength(1);
  });
});
