/**
 * Four gateway processes sharing Redis behind a round-robin balancer on loopback, in front of the
 * simulator (§5): 100 concurrent first calls spread over the replicas make one key
 * exchange in total, and a replica killed (SIGKILL) in the middle of a load loses no call at the
 * client beyond those in flight on it.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { spawnGateway, type ChildGateway } from '../support/child-gateway.ts';
import { keysUnder, redisClient, sharedRedisUrl, testPrefix } from '../support/redis.ts';
import { startRoundRobin, type RoundRobin } from '../support/round-robin.ts';

const authPath = '/web/session/authenticate';
const prefix = testPrefix('processes');
let sim: Simulator;
let replicas: ChildGateway[] = [];
let ports: number[] = [];
let balancer: RoundRobin;

/** One JSON-RPC call over a connection of its own (so the balancer spreads calls over replicas). */
function call(url: string, service: string, method: string, args: unknown[]): Promise<{ result?: unknown; error?: unknown }> {
  const body = JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id: 1 });
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/jsonrpc`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text) as { result?: unknown; error?: unknown });
          } catch (err) {
            reject(err);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  sim = await startSimulator({ databases: ['gw'] });
  const secret = randomBytes(32).toString('base64');
  replicas = Array.from({ length: 4 }, () =>
    spawnGateway([
      '--upstream',
      sim.url,
      '--port',
      '0',
      '--admin-port',
      '0',
      '--log-format',
      'json',
      '--log-level',
      'info',
      '--redis-url',
      sharedRedisUrl(),
      '--redis-prefix',
      prefix,
      '--state-secret',
      secret,
      // The load and the kill can outlast half the default 5 s on a busy machine, after which each
      // survivor confirms the password by a fresh login of its own (it does not hold the web session
      // the minting replica opened: docs/security.md): that is revalidation, not the key exchange
      // these tests count, and it failed the "no new exchange" check beside a CPU-bound load.
      '--revalidate-interval',
      '120000',
    ]),
  );
  const listening = await Promise.all(replicas.map((r) => r.logged('legacy-rpc-gateway listening')));
  ports = listening.map((l) => Number(new URL(l.url as string).port));
  balancer = await startRoundRobin(ports);
}, 60_000);

afterAll(async () => {
  await balancer?.close();
  for (const r of replicas) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
  await Promise.all(replicas.map((r) => r.exited));
  await sim?.close();
  const redis = redisClient();
  const keys = await keysUnder(redis, prefix);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}, 60_000);

describe('4 replica processes behind a round-robin balancer', () => {
  it('100 concurrent first calls spread over the replicas make one key exchange', async () => {
    sim.clearLog();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => call(balancer.url, 'common', 'authenticate', ['gw', 'demo', 'demo', {}])),
    );
    expect(answers.map((a) => a.result)).toEqual(Array.from({ length: 100 }, () => 5));
    expect(sim.log.filter((r) => r.path === authPath)).toHaveLength(1);
    expect(sim.keys.list().filter((k) => k.name.startsWith('legacy-rpc-gateway for '))).toHaveLength(1);
    // every replica answered some of them (each logs its calls just after answering them)
    await vi.waitFor(() => {
      const served = replicas.map((r) => r.lines.filter((l) => l.method === 'authenticate').length);
      expect(served.every((n) => n > 0)).toBe(true);
    });
  });

  it('a replica killed in the middle of a load loses only the calls in flight on it', async () => {
    const total = 400;
    const concurrency = 16;
    let started = 0;
    let done = 0;
    const failures: unknown[] = [];
    let inFlightOnKilled = -1;
    let routedAtKill = 0;
    let routedAtExit = 0;
    const victim = replicas[2]!;
    const victimPort = ports[2]!;
    // connections the kernel still accepted for the dying process count as in flight on it too
    void victim.exited.then(() => (routedAtExit = balancer.routed(victimPort)));
    const worker = async () => {
      while (started < total) {
        started++;
        try {
          const out = await call(balancer.url, 'object', 'execute_kw', ['gw', 5, 'demo', 'res.partner', 'search_count', [[]]]);
          if (out.error !== undefined || typeof out.result !== 'number') failures.push(out.error);
        } catch (err) {
          failures.push(err);
        }
        done++;
        if (done === 100) {
          inFlightOnKilled = balancer.open(victimPort);
          routedAtKill = balancer.routed(victimPort);
          victim.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    expect(await victim.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // the only calls lost are cut connections (in flight on the killed replica), never a fault
    expect(
      failures.filter(
        (f) => !(f instanceof Error && /ECONNRESET|socket hang up/.test(`${(f as NodeJS.ErrnoException).code} ${f.message}`)),
      ),
    ).toEqual([]);
    expect(done).toBe(total);
    expect(inFlightOnKilled).toBeGreaterThanOrEqual(0);
    const lostAllowed = inFlightOnKilled + (routedAtExit - routedAtKill);
    expect(failures.length).toBeLessThanOrEqual(lostAllowed);
    expect(lostAllowed).toBeLessThan(concurrency * 2); // the balancer stopped routing to the dead replica
    // the survivors still answer, with the key minted before (no new exchange for known credentials)
    sim.clearLog();
    const after = await Promise.all(
      Array.from({ length: 12 }, () => call(balancer.url, 'common', 'authenticate', ['gw', 'demo', 'demo', {}])),
    );
    expect(after.map((a) => a.result)).toEqual(Array.from({ length: 12 }, () => 5));
    expect(sim.log.filter((r) => r.path === authPath)).toHaveLength(0);
  });
});
