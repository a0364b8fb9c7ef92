/**
 * The migration report shared by replicas through Redis: two shared reports stand for
 * two replicas; Redis is cut off (a proxy closed), stopped and restarted, or paused.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/log.ts';
import { maxMethodsPerClient, type ReportedCall } from '../../src/report/migration-report.ts';
import { createSharedReport, type SharedReport } from '../../src/report/shared-report.ts';
import { createRedisLink, type RedisLink } from '../../src/state/redis-link.ts';
import { createReportStore } from '../../src/state/report-store.ts';
import { createSealer, reportClientSecret } from '../../src/state/sealed.ts';
import { createTestClock, type TestClock } from '../support/clock.ts';
import { keysUnder, redisClient, sharedRedisUrl, startPrivateRedis, testPrefix, type PrivateRedis } from '../support/redis.ts';

const call = (over: Partial<ReportedCall> = {}): ReportedCall => ({
  dialect: 'xmlrpc2',
  userAgent: 'Python-xmlrpc/3.11',
  ip: '10.0.0.5',
  service: 'object',
  method: 'execute_kw',
  model: 'res.partner',
  modelMethod: 'read',
  failed: false,
  ...over,
});

/** A TCP proxy to Redis that can be cut (every connection dropped, the port closed) and restored. */
async function cuttableProxy(port: number) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const redis = connect(port, '127.0.0.1');
    for (const s of [client, redis]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(redis).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const own = (server.address() as AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${own}`,
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: () => new Promise<void>((resolve) => server.listen(own, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

const stateSecret = 'a-state-secret-of-at-least-32-characters';
const sealer = createSealer(stateSecret);
const idKey = reportClientSecret(stateSecret);

const redis = redisClient();
const prefixes: string[] = [];
const links: RedisLink[] = [];
const reports: SharedReport[] = [];
const cleanups: Array<() => Promise<void>> = [];

/** A replica's shared report on `url` under `prefix`, with its own clock. */
async function replica(url: string, prefix: string, { start, maxClients = 100 }: { start: string; maxClients?: number }) {
  const link = createRedisLink({ url, prefix, timeoutMs: 500, log: createLogger('silent') });
  links.push(link);
  expect(await link.ready(5000)).toBe(true);
  const clock: TestClock = createTestClock(start);
  const store = createReportStore(link, { maxClients, now: clock.now, sealer, idKey });
  const report = createSharedReport({ maxClients, store, log: createLogger('silent'), now: clock.now });
  reports.push(report);
  return { link, clock, report };
}

function sharedPrefix(name: string): string {
  const prefix = testPrefix(`shared-report-${name}`);
  prefixes.push(prefix);
  return prefix;
}

const waitUntil = (what: () => boolean) => vi.waitFor(() => expect(what()).toBe(true), { timeout: 10_000, interval: 20 });
const callsOf = async (report: SharedReport) => (await report.snapshot()).clients.map((c) => [c.userAgent, c.calls]);

afterAll(async () => {
  await Promise.all(reports.map((r) => r.stop()));
  await Promise.all(links.map((l) => l.close()));
  for (const cleanup of cleanups) await cleanup();
  for (const prefix of prefixes) {
    const keys = await keysUnder(redis, prefix);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

describe('shared migration report', () => {
  it('merges one client seen by two replicas: summed counts, earliest first seen, latest last seen', async () => {
    const prefix = sharedPrefix('two-replicas');
    const a = await replica(sharedRedisUrl(), prefix, { start: '2026-05-01T10:00:00.000Z' });
    const b = await replica(sharedRedisUrl(), prefix, { start: '2026-05-01T09:00:00.000Z' });
    a.report.record(call());
    a.clock.advance(1000);
    a.report.record(call({ failed: true }));
    b.report.record(call({ dialect: 'jsonrpc', modelMethod: 'write' }));
    b.clock.set('2026-05-01T11:00:00.000Z');
    b.report.record(call());
    b.report.record(call({ userAgent: 'odoorpc/0.10' }));

    expect(await b.report.flush()).toBe(true); // b's timer would do it within two seconds
    const merged = await a.report.snapshot();
    expect(merged.clients).toEqual([
      {
        userAgent: 'odoorpc/0.10',
        ip: '10.0.0.5',
        firstSeen: '2026-05-01T11:00:00.000Z',
        lastSeen: '2026-05-01T11:00:00.000Z',
        calls: 1,
        faults: 0,
        dialects: { xmlrpc2: 1 },
        services: { object: 1 },
        methods: [
          {
            service: 'object',
            method: 'execute_kw',
            model: 'res.partner',
            modelMethod: 'read',
            calls: 1,
            faults: 0,
            firstSeen: '2026-05-01T11:00:00.000Z',
            lastSeen: '2026-05-01T11:00:00.000Z',
          },
        ],
        unlistedCalls: 0,
      },
      {
        userAgent: 'Python-xmlrpc/3.11',
        ip: '10.0.0.5',
        firstSeen: '2026-05-01T09:00:00.000Z',
        lastSeen: '2026-05-01T11:00:00.000Z',
        calls: 4,
        faults: 1,
        dialects: { xmlrpc2: 3, jsonrpc: 1 },
        services: { object: 4 },
        methods: [
          {
            service: 'object',
            method: 'execute_kw',
            model: 'res.partner',
            modelMethod: 'read',
            calls: 3,
            faults: 1,
            firstSeen: '2026-05-01T10:00:00.000Z',
            lastSeen: '2026-05-01T11:00:00.000Z',
          },
          {
            service: 'object',
            method: 'execute_kw',
            model: 'res.partner',
            modelMethod: 'write',
            calls: 1,
            faults: 0,
            firstSeen: '2026-05-01T09:00:00.000Z',
            lastSeen: '2026-05-01T09:00:00.000Z',
          },
        ],
        unlistedCalls: 0,
      },
    ]);
    expect(merged.generatedAt).toBe('2026-05-01T10:00:01.000Z'); // replica a's clock
    expect((await b.report.snapshot()).clients).toEqual(merged.clients);
    // each replica's own report holds only its calls
    expect(a.report.local.snapshot().clients.map((c) => [c.userAgent, c.calls])).toEqual([['Python-xmlrpc/3.11', 2]]);
    // sent once: more snapshots add nothing
    await a.report.flush();
    await b.report.flush();
    expect(await callsOf(b.report)).toEqual([
      ['odoorpc/0.10', 1],
      ['Python-xmlrpc/3.11', 4],
    ]);
  });

  it('caps the methods of a client and the number of clients across replicas', async () => {
    const prefix = sharedPrefix('bounds');
    const a = await replica(sharedRedisUrl(), prefix, { start: '2026-05-01T10:00:00.000Z', maxClients: 2 });
    const b = await replica(sharedRedisUrl(), prefix, { start: '2026-05-01T10:00:00.000Z', maxClients: 2 });
    for (let i = 0; i < 150; i++) {
      a.clock.advance(1000);
      a.report.record(call({ modelMethod: `a${i}` }));
    }
    expect(await a.report.flush()).toBe(true);
    b.clock.set('2026-05-01T12:00:00.000Z');
    for (let i = 0; i < 100; i++) {
      b.clock.advance(1000);
      b.report.record(call({ modelMethod: `b${i}` }));
    }
    const [client] = (await b.report.snapshot()).clients;
    expect(client?.calls).toBe(250);
    expect(client?.methods).toHaveLength(maxMethodsPerClient);
    expect(client?.unlistedCalls).toBe(50);
    expect(client?.methods.filter((m) => m.modelMethod?.startsWith('b'))).toHaveLength(50);

    a.clock.set('2026-05-01T13:00:00.000Z');
    a.report.record(call({ userAgent: 'odoorpc/0.10' }));
    b.clock.set('2026-05-01T13:00:01.000Z');
    b.report.record(call({ userAgent: 'RPC::XML/1.61' }));
    await a.report.flush();
    expect(await callsOf(b.report)).toEqual([
      ['RPC::XML/1.61', 1],
      ['odoorpc/0.10', 1],
    ]);
    expect((await keysUnder(redis, `${prefix}report:client:`)).length).toBe(2);
  });

  it('keeps recording while Redis is cut off, serves the local report, and catches up exactly once', async () => {
    const prefix = sharedPrefix('cut-off');
    const proxy = await cuttableProxy(Number(new URL(sharedRedisUrl()).port || 6379));
    cleanups.push(proxy.close);
    const a = await replica(proxy.url, prefix, { start: '2026-05-01T10:00:00.000Z' });
    const b = await replica(sharedRedisUrl(), prefix, { start: '2026-05-01T10:00:00.000Z' });
    a.report.record(call());
    b.report.record(call());
    expect(await a.report.flush()).toBe(true);
    expect(await callsOf(b.report)).toEqual([['Python-xmlrpc/3.11', 2]]);

    await proxy.cut();
    await waitUntil(() => !a.link.up);
    for (let i = 0; i < 3; i++) a.report.record(call({ failed: true }));
    expect(await a.report.flush()).toBe(false);
    const local = await a.report.snapshot();
    expect(local.clients.map((c) => [c.calls, c.faults])).toEqual([[4, 3]]);
    expect(local).toEqual(a.report.local.snapshot());
    expect(await callsOf(b.report)).toEqual([['Python-xmlrpc/3.11', 2]]);

    a.report.record(call()); // one more after the flush failed
    await proxy.restore();
    expect(await a.link.ready(10_000)).toBe(true);
    expect(await a.report.flush()).toBe(true);
    const merged = (await b.report.snapshot()).clients;
    expect(merged.map((c) => [c.calls, c.faults])).toEqual([[6, 3]]);
    expect(await a.report.flush()).toBe(true);
    expect((await a.report.snapshot()).clients.map((c) => [c.calls, c.faults])).toEqual([[6, 3]]);
  });

  describe('with a Redis of its own', () => {
    let server: PrivateRedis;

    beforeAll(async () => {
      server = await startPrivateRedis();
      cleanups.push(() => server.stop());
    });

    it('catches up after Redis restarts (empty) with what was recorded during the outage, once', async () => {
      const prefix = testPrefix('shared-report-restart');
      const a = await replica(server.url, prefix, { start: '2026-05-01T10:00:00.000Z' });
      const b = await replica(server.url, prefix, { start: '2026-05-01T10:00:00.000Z' });
      a.report.record(call());
      expect(await a.report.flush()).toBe(true);

      await server.stop();
      await waitUntil(() => !a.link.up && !b.link.up);
      for (let i = 0; i < 3; i++) a.report.record(call());
      b.report.record(call({ failed: true }));
      b.report.record(call({ failed: true }));
      expect((await a.report.snapshot()).clients.map((c) => c.calls)).toEqual([4]);
      expect((await b.report.snapshot()).clients.map((c) => [c.calls, c.faults])).toEqual([[2, 2]]);

      await server.start();
      expect(await a.link.ready(10_000)).toBe(true);
      expect(await b.link.ready(10_000)).toBe(true);
      expect(await a.report.flush()).toBe(true);
      expect(await b.report.flush()).toBe(true);
      // the restarted Redis lost the call counted before the outage; the five counted during it arrived once
      const merged = await a.report.snapshot();
      expect(merged.clients.map((c) => [c.calls, c.faults])).toEqual([[5, 2]]);
      expect((await b.report.snapshot()).clients).toEqual(merged.clients);
    });

    it('counts a batch whose answer was lost once, when it is sent again', async () => {
      const prefix = testPrefix('shared-report-lost-answer');
      const a = await replica(server.url, prefix, { start: '2026-05-01T10:00:00.000Z' });
      const admin = redisClient(server.url);
      cleanups.push(async () => void (await admin.quit()));
      a.report.record(call());
      a.report.record(call());
      // Redis holds the merge past the link's timeout, then runs it: the replica never hears it went in
      await admin.call('CLIENT', 'PAUSE', '10000', 'WRITE');
      expect(await a.report.flush()).toBe(false);
      await admin.call('CLIENT', 'UNPAUSE');
      expect(await a.report.flush()).toBe(true);
      expect((await a.report.snapshot()).clients.map((c) => c.calls)).toEqual([2]);
    });
  });
});
