/**
 * Redis away (§4): the gateway keeps serving with its in-process state — no call fails —,
 * logs it, shows it on /readyz (still ready: it serves) and /metrics, and catches up when Redis
 * returns: the key it minted meanwhile is written to the shared store, where the other replicas find
 * it. A private redis-server is stopped and started again on the same port.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../support/captured-log.ts';
import { keysUnder, redisClient, startPrivateRedis, type PrivateRedis } from '../support/redis.ts';
import { startReplicas, type Replicas } from '../support/replicas.ts';

let redis: PrivateRedis;
let r: Replicas;
const capture = captureLog('warn');

// generous: on a loaded machine a replica's reconnect timer and catch-up run late, never wrongly
async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

const readyz = async (i: number) => (await fetch(`${r.gateways[i]!.adminUrl}/readyz`)).json() as Promise<Record<string, unknown>>;
const redisUp = async (i: number) =>
  /legacy_rpc_gateway_redis_up (\d)/.exec(await (await fetch(`${r.gateways[i]!.adminUrl}/metrics`)).text())?.[1];
const minted = () => r.sim.keys.list().filter((k) => k.name.startsWith('legacy-rpc-gateway for '));
const contextGet = (i: number, uid: number, password: string) =>
  r.call(i, 'object', 'execute_kw', ['gw', uid, password, 'res.users', 'context_get', []]);

beforeAll(async () => {
  redis = await startPrivateRedis();
  // Redis is stopped here, not hung: its connections close and it is away at once, whatever the
  // timeout; a short --redis-timeout would only make a loaded machine's slow answers count as outages
  // during the catch-up (and one replica keep its own key).
  r = await startReplicas(2, { name: 'outage', redisUrl: redis.url, log: capture.log });
});
afterAll(async () => {
  await r?.close();
  await redis?.stop();
});

describe('Redis away', () => {
  it('serves every call with in-process state, says so on /readyz and /metrics, and catches up when Redis returns', async () => {
    expect(await readyz(0)).toEqual({ status: 'ready', redis: 'up' });
    expect(await redisUp(0)).toBe('1');
    expect((await r.call(0, 'common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5);

    await redis.stop();
    await until('both replicas to see Redis away', async () => (await readyz(0)).redis === 'away' && (await readyz(1)).redis === 'away');
    expect(await readyz(1)).toEqual({ status: 'ready', redis: 'away' });
    expect(await redisUp(1)).toBe('0');
    expect(capture.matching('Redis is away: serving with in-process state until it returns').length).toBeGreaterThanOrEqual(2);

    // known and new credentials keep working on both replicas; each mints for itself meanwhile
    const calls = await Promise.all([
      contextGet(0, 5, 'demo'),
      r.call(0, 'common', 'authenticate', ['gw', 'admin', 'admin', {}]),
      r.call(1, 'common', 'authenticate', ['gw', 'admin', 'admin', {}]),
    ]);
    expect(calls.map((c) => c.error)).toEqual([undefined, undefined, undefined]);
    expect(calls.slice(1).map((c) => c.result)).toEqual([2, 2]);
    expect(minted().filter((k) => k.uid === 2)).toHaveLength(2);

    await redis.start(); // empty: the store lost everything
    await until('both replicas to reconnect', async () => (await readyz(0)).redis === 'up' && (await readyz(1)).redis === 'up');
    expect(await redisUp(0)).toBe('1');
    const client = redisClient(redis.url);
    // catch-up: each replica wrote what it minted meanwhile; for admin one replica's key won and the other's was retired
    await until('the minted keys to be shared again', async () => (await keysUnder(client, `${r.prefix}k:`)).length === 2);
    // both replicas: each one's catch-up (write its key, or retire it for the stored one) must be over
    await Promise.all(r.gateways.map((g) => g.credentials.settled()));
    await client.quit();
    r.sim.clearLog();
    const again = await Promise.all([0, 1].map((i) => contextGet(i, 2, 'admin')));
    expect(again.map((c) => c.error)).toEqual([undefined, undefined]);
    expect(r.sim.log.filter((q) => q.path === '/web/session/authenticate')).toHaveLength(0);
    // both replicas now use the one key the store holds
    expect(new Set(r.sim.log.map((q) => q.headers.authorization)).size).toBe(1);
  }, 120_000);
});
