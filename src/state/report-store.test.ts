import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../log.ts';
import { createMigrationReport, maxMethodsPerClient, type ReportedCall, type ReportSnapshot } from '../report/migration-report.ts';
import { keysUnder, redisClient, sharedRedisUrl, testPrefix } from '../../test/support/redis.ts';
import { createRedisLink, type RedisLink } from './redis-link.ts';
import { clientIdOf, createReportStore } from './report-store.ts';
import { createSealer, reportClientSecret } from './sealed.ts';

const t0 = Date.parse('2026-05-01T10:00:00.000Z');
const at = (s: number) => new Date(t0 + s * 1000).toISOString();

const call = (over: Partial<ReportedCall> = {}): ReportedCall => ({
  dialect: 'xmlrpc2',
  userAgent: 'Python-xmlrpc/3.11',
  ip: '10.0.0.5',
  service: 'object',
  method: 'execute_kw',
  model: 'res.partner',
  modelMethod: 'search_read',
  failed: false,
  ...over,
});

/** An in-process report with a clock that reads `clock.now` (seconds after t0). */
function reportAt(clock: { now: number }, maxClients = 50) {
  return createMigrationReport({ maxClients, now: () => t0 + clock.now * 1000 });
}

/** The snapshot of `calls` recorded at the given seconds. */
function deltaOf(...calls: Array<[number, ReportedCall]>): ReportSnapshot {
  const clock = { now: 0 };
  const report = reportAt(clock);
  for (const [s, c] of calls) {
    clock.now = s;
    report.record(c);
  }
  return report.snapshot();
}

const secret = 'a-state-secret-of-at-least-32-characters';
const idKey = reportClientSecret(secret);
const idOf = (userAgent: string, ip: string) => clientIdOf(idKey, userAgent, ip);

const redis = redisClient();
const links: RedisLink[] = [];
const prefixes: string[] = [];

/** A store on `prefix` (a replica's) with the state secret `stateSecret`. */
async function storeOn(prefix: string, stateSecret = secret, maxClients = 50) {
  const link = createRedisLink({ url: sharedRedisUrl(), prefix, timeoutMs: 500, log: createLogger('silent') });
  links.push(link);
  expect(await link.ready(5000)).toBe(true);
  const sealing = { sealer: createSealer(stateSecret), idKey: reportClientSecret(stateSecret) };
  return createReportStore(link, { maxClients, now: () => t0 + 3_600_000, ...sealing });
}

/** A store under a prefix of its own. */
async function storeFor(name: string, maxClients = 50) {
  const prefix = testPrefix(`report-store-${name}`);
  prefixes.push(prefix);
  return { store: await storeOn(prefix, secret, maxClients), prefix };
}

beforeAll(async () => {
  expect(await redis.ping()).toBe('PONG');
});

afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await keysUnder(redis, prefix);
    if (keys.length > 0) await redis.del(...keys);
  }
  await Promise.all(links.map((l) => l.close()));
  await redis.quit();
});

describe('createReportStore()', () => {
  it('adds two deltas of the same client into one: summed counts, earliest first seen, latest last seen', async () => {
    const { store } = await storeFor('sum');
    const authenticate = call({ service: 'common', method: 'authenticate', model: undefined, modelMethod: undefined });
    expect(await store.merge(deltaOf([5, authenticate], [6, call()], [7, call({ failed: true })]))).toBe(true);
    expect(await store.merge(deltaOf([2, call({ dialect: 'jsonrpc' })], [9, call({ modelMethod: 'write' })]))).toBe(true);
    expect(await store.read()).toEqual({
      version: 1,
      generatedAt: '2026-05-01T11:00:00.000Z',
      dropped: { anonymousClients: 0, authenticatedClients: 0, unlistedCalls: 0, foldedCalls: 0 },
      clients: [
        {
          userAgent: 'Python-xmlrpc/3.11',
          ip: '10.0.0.5',
          firstSeen: at(2),
          lastSeen: at(9),
          calls: 5,
          faults: 1,
          dialects: { xmlrpc2: 4, jsonrpc: 1 },
          services: { common: 1, object: 4 },
          methods: [
            {
              service: 'object',
              method: 'execute_kw',
              model: 'res.partner',
              modelMethod: 'write',
              calls: 1,
              faults: 0,
              firstSeen: at(9),
              lastSeen: at(9),
            },
            {
              service: 'object',
              method: 'execute_kw',
              model: 'res.partner',
              modelMethod: 'search_read',
              calls: 3,
              faults: 1,
              firstSeen: at(2),
              lastSeen: at(7),
            },
            { service: 'common', method: 'authenticate', calls: 1, faults: 0, firstSeen: at(5), lastSeen: at(5) },
          ],
          unlistedCalls: 0,
        },
      ],
    });
  });

  it('merges shadow results across replicas: counts summed, the last differences kept, the first JSON-2 body kept', async () => {
    const { store } = await storeFor('shadow');
    const shadowed = {
      userAgent: 'Python-xmlrpc/3.11',
      ip: '10.0.0.5',
      service: 'object',
      method: 'execute_kw',
      model: 'res.partner',
      modelMethod: 'search_read',
    };
    const difference = (s: number) => ({ at: at(s), dialect: 'xmlrpc2', differences: [`result: ${s}`], gateway: 'g', legacy: 'l' });
    const replica = (first: number, json2Body: string) => {
      const clock = { now: first };
      const report = reportAt(clock);
      report.record({ ...call(), json2Body: () => json2Body });
      report.recordShadow({ ...shadowed, outcome: 'equal' });
      report.recordShadow({ ...shadowed, outcome: 'intended', deviation: 'Unknown-database faults do not name the PostgreSQL server' });
      for (const s of [first + 1, first + 2]) {
        clock.now = s;
        report.recordShadow({ ...shadowed, outcome: 'differs', difference: difference(s) });
      }
      return report.snapshot();
    };
    expect(await store.merge(replica(10, '{"domain": []}'))).toBe(true);
    expect(await store.merge(replica(20, '{"other": []}'))).toBe(true);
    // a delta with shadow counts only (the call itself went in an earlier batch)
    const late = reportAt({ now: 30 });
    late.recordShadow({ ...shadowed, outcome: 'dropped' });
    expect(await store.merge(late.snapshot())).toBe(true);
    const [method] = (await store.read())?.clients[0]?.methods ?? [];
    expect(method).toMatchObject({
      calls: 2,
      json2Body: '{"domain": []}',
      shadow: {
        equal: 2,
        intended: 2,
        differs: 4,
        errors: 0,
        dropped: 1,
        deviations: { 'Unknown-database faults do not name the PostgreSQL server': 2 },
      },
    });
    expect(method?.differences?.map((d) => d.at)).toEqual([at(12), at(21), at(22)]);
  });

  it("sums the gateway's own faults of a method across deltas", async () => {
    const { store } = await storeFor('gateway-faults');
    const own = call({ failed: true, gatewayFault: true });
    expect(await store.merge(deltaOf([1, own], [2, call({ failed: true })]))).toBe(true);
    expect(await store.merge(deltaOf([3, own]))).toBe(true);
    expect(await store.merge(deltaOf([4, call({ failed: true })]))).toBe(true);
    expect((await store.read())?.clients[0]?.methods[0]).toMatchObject({ calls: 4, faults: 4, gatewayFaults: 2 });
  });

  it('reads a method without shadow results as before', async () => {
    const { store } = await storeFor('no-shadow');
    expect(await store.merge(deltaOf([1, call()]))).toBe(true);
    const [method] = (await store.read())?.clients[0]?.methods ?? [];
    expect(Object.keys(method ?? {})).toEqual(['service', 'method', 'model', 'modelMethod', 'calls', 'faults', 'firstSeen', 'lastSeen']);
  });

  it('merges calls split over deltas into what one in-process report of all of them shows', async () => {
    const { store } = await storeFor('equivalence');
    const clock = { now: 0 };
    const whole = reportAt(clock);
    const parts = [reportAt(clock), reportAt(clock), reportAt(clock)];
    const agents = ['odoorpc/0.10', 'Python-xmlrpc/3.11', 'RPC::XML/1.61'];
    const ips = ['10.0.0.5', '10.0.0.6'];
    const methods = ['search_read', 'read', 'write', 'create', 'unlink', 'fields_get'];
    for (let i = 0; i < 120; i++) {
      clock.now = i;
      const c = call({
        userAgent: agents[i % 3] as string,
        ip: ips[(i >> 2) % 2] as string,
        modelMethod: methods[Math.floor(i / 3) % 6] as string,
        dialect: i % 5 === 0 ? 'jsonrpc' : 'xmlrpc2',
        failed: i % 11 === 0,
        successor: i % 7 === 0,
      });
      whole.record(c);
      (parts[Math.floor(i / 8) % 3] as typeof whole).record(c);
    }
    for (const part of parts) expect(await store.merge(part.snapshot())).toBe(true);
    const merged = await store.read();
    expect(merged?.clients).toEqual(whole.snapshot().clients);
    expect(merged?.clients).toHaveLength(6);
  });

  it('keeps at most 200 methods per client and counts the calls to later ones as unlisted', async () => {
    const { store } = await storeFor('method-cap');
    const first = deltaOf(
      ...Array.from({ length: maxMethodsPerClient - 1 }, (_, i): [number, ReportedCall] => [i, call({ modelMethod: `m${i}` })]),
    );
    expect(await store.merge(first)).toBe(true);
    // one free place left: m500 takes it (first seen earliest), m501 and m502 are only counted
    const second = deltaOf(
      [300, call({ modelMethod: 'm500' })],
      [301, call({ modelMethod: 'm501' })],
      [302, call({ modelMethod: 'm501' })],
      [303, call({ modelMethod: 'm502' })],
      [304, call({ modelMethod: 'm0' })],
    );
    expect(await store.merge(second)).toBe(true);
    const [client] = (await store.read())?.clients ?? [];
    expect(client?.methods).toHaveLength(maxMethodsPerClient);
    expect(client?.calls).toBe(maxMethodsPerClient - 1 + 5);
    expect(client?.unlistedCalls).toBe(3);
    expect(client?.methods.map((m) => m.modelMethod).slice(0, 2)).toEqual(['m0', 'm500']);
    expect(client?.methods.find((m) => m.modelMethod === 'm0')?.calls).toBe(2);
    expect(client?.methods.some((m) => m.modelMethod === 'm501' || m.modelMethod === 'm502')).toBe(false);
  });

  it("adds a delta's own unlisted calls", async () => {
    const { store } = await storeFor('unlisted');
    const calls = Array.from({ length: maxMethodsPerClient + 4 }, (_, i): [number, ReportedCall] => [i, call({ modelMethod: `m${i}` })]);
    expect(await store.merge(deltaOf(...calls))).toBe(true);
    expect(await store.merge(deltaOf(...calls))).toBe(true);
    const [client] = (await store.read())?.clients ?? [];
    expect(client?.methods).toHaveLength(maxMethodsPerClient);
    expect(client?.unlistedCalls).toBe(8);
    expect(client?.calls).toBe(2 * (maxMethodsPerClient + 4));
    expect(client?.methods.every((m) => m.calls === 2)).toBe(true);
  });

  it('keeps the maxClients most recently seen clients and deletes the others from Redis', async () => {
    const { store, prefix } = await storeFor('client-bound', 2);
    expect(await store.merge(deltaOf([1, call({ userAgent: 'a' })], [2, call({ userAgent: 'b' })]))).toBe(true);
    expect(await store.merge(deltaOf([3, call({ userAgent: 'c' })], [4, call({ userAgent: 'a' })]))).toBe(true);
    expect((await store.read())?.clients.map((c) => [c.userAgent, c.calls])).toEqual([
      ['a', 2],
      ['c', 1],
    ]);
    expect((await keysUnder(redis, prefix)).sort()).toEqual(
      [
        `${prefix}report:clients`,
        `${prefix}report:dropped`,
        `${prefix}report:client:${idOf('a', '10.0.0.5')}`,
        `${prefix}report:client:${idOf('c', '10.0.0.5')}`,
      ].sort(),
    );
    // b left: it comes back as a new client
    expect(await store.merge(deltaOf([5, call({ userAgent: 'b' })]))).toBe(true);
    expect((await store.read())?.clients.map((c) => [c.userAgent, c.calls, c.firstSeen])).toEqual([
      ['b', 1, at(5)],
      ['a', 2, at(1)],
    ]);
    expect((await store.read())?.dropped).toMatchObject({ anonymousClients: 2, authenticatedClients: 0 });
  });

  it('keeps an authenticated client while anonymous ones come and go, and counts the ones that left', async () => {
    const { store } = await storeFor('authenticated-first', 3);
    expect(await store.merge(deltaOf([1, call({ userAgent: 'script', database: 'demo', user: 'login:0123456789ab' })]))).toBe(true);
    for (let i = 0; i < 10; i++)
      expect(
        await store.merge(
          deltaOf([
            2 + i,
            call({ userAgent: `anonymous-${i}`, service: 'common', method: 'version', model: undefined, modelMethod: undefined }),
          ]),
        ),
      ).toBe(true);
    const read = await store.read();
    expect(read?.clients.map((c) => c.userAgent)).toEqual(['anonymous-9', 'anonymous-8', 'script']);
    expect(read?.clients.find((c) => c.userAgent === 'script')).toMatchObject({
      database: 'demo',
      user: 'login:0123456789ab',
      authenticated: true,
    });
    expect(read?.dropped).toMatchObject({ anonymousClients: 8, authenticatedClients: 0 });
  });

  it('names clients in Redis by a hash, never by their User-Agent or address', async () => {
    const { store, prefix } = await storeFor('key-names');
    const userAgent = 'Mozilla/5.0 (X11; Linux) some:colons{and}*globs*';
    expect(await store.merge(deltaOf([1, call({ userAgent, ip: '2001:db8::1' })]))).toBe(true);
    const keys = await keysUnder(redis, prefix);
    expect(keys.some((k) => k.includes('Mozilla') || k.includes('2001:db8'))).toBe(false);
    expect(keys).toContain(`${prefix}report:client:${idOf(userAgent, '2001:db8::1')}`);
    expect(idOf(userAgent, '2001:db8::1')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(idOf('a b', 'c')).not.toBe(idOf('a', 'b c'));
    // keyed: another secret names the same client otherwise
    expect(clientIdOf(reportClientSecret(`${secret}!`), userAgent, '2001:db8::1')).not.toBe(idOf(userAgent, '2001:db8::1'));
  });

  it('applies a batch of one writer once, however often it is sent', async () => {
    const { store, prefix } = await storeFor('idempotent');
    const delta = deltaOf([1, call()], [2, call()]);
    expect(await store.merge(delta, { writer: 'w1', seq: 1 })).toBe(true);
    expect(await store.merge(delta, { writer: 'w1', seq: 1 })).toBe(true);
    expect((await store.read())?.clients[0]?.calls).toBe(2);
    expect(await store.merge(delta, { writer: 'w2', seq: 1 })).toBe(true);
    expect(await store.merge(delta, { writer: 'w1', seq: 2 })).toBe(true);
    expect((await store.read())?.clients[0]?.calls).toBe(6);
    const ttl = await redis.pttl(`${prefix}report:writer:w1`);
    expect(ttl).toBeGreaterThan(23 * 3_600_000);
  });

  it('starts a damaged client value over instead of failing every later merge', async () => {
    const { store, prefix } = await storeFor('damaged');
    await redis.set(`${prefix}report:client:${idOf('Python-xmlrpc/3.11', '10.0.0.5')}`, '{"calls":"many"');
    expect(await store.merge(deltaOf([1, call()]))).toBe(true);
    expect((await store.read())?.clients.map((c) => c.calls)).toEqual([1]);
  });

  it('seals who a client is: Redis shows neither its pseudonym, address, database nor User-Agent', async () => {
    const { store, prefix } = await storeFor('sealed');
    const who = { userAgent: 'odoorpc/0.10', ip: '192.0.2.77', database: 'acme-prod', user: 'login:0123456789ab' };
    expect(await store.merge(deltaOf([1, call(who)]))).toBe(true);
    const keys = await keysUnder(redis, prefix);
    const raws = await Promise.all(keys.map(async (k) => ((await redis.type(k)) === 'string' ? await redis.get(k) : '')));
    const everything = keys.join('\n') + raws.join('\n');
    for (const shown of ['0123456789ab', '192.0.2.77', 'acme-prod', 'odoorpc']) expect(everything).not.toContain(shown);
    expect((await store.read())?.clients).toMatchObject([{ ...who, authenticated: true, calls: 1 }]);
  });

  it('merges one client from two replicas sharing the secret into one entry', async () => {
    const prefix = testPrefix('report-store-replicas');
    prefixes.push(prefix);
    const [a, b] = [await storeOn(prefix), await storeOn(prefix)];
    const who = { ip: '192.0.2.8', database: 'acme', user: 'login:0123456789ab' };
    expect(await a.merge(deltaOf([1, call(who)]))).toBe(true);
    expect(await b.merge(deltaOf([2, call(who)], [3, call(who)]))).toBe(true);
    expect((await keysUnder(redis, `${prefix}report:client:`)).length).toBe(1);
    for (const store of [a, b]) expect((await store.read())?.clients).toMatchObject([{ ...who, calls: 3, firstSeen: at(1) }]);
  });

  it('leaves out, without failing, the clients another secret, an older version or a moved value wrote', async () => {
    const prefix = testPrefix('report-store-other-secret');
    prefixes.push(prefix);
    const mine = await storeOn(prefix);
    const theirs = await storeOn(prefix, `${secret}-other`);
    expect(await theirs.merge(deltaOf([1, call({ userAgent: 'theirs', user: 'login:aaaaaaaaaaaa', database: 'x' })]))).toBe(true);
    expect(await mine.merge(deltaOf([2, call({ userAgent: 'mine' })]))).toBe(true);
    expect((await mine.read())?.clients.map((c) => c.userAgent)).toEqual(['mine']);
    expect((await theirs.read())?.clients.map((c) => c.userAgent)).toEqual(['theirs']);
    // a value of an older version (in clear), and one moved under another client's name
    const [mineKey] = await keysUnder(redis, `${prefix}report:client:${idOf('mine', '10.0.0.5')}`);
    const moved = (await redis.get(mineKey as string)) as string;
    const older = JSON.stringify({ ...JSON.parse(moved), who: undefined, userAgent: 'older', ip: '10.0.0.9' });
    await redis.set(`${prefix}report:client:${idOf('older', '10.0.0.9')}`, older);
    await redis.set(`${prefix}report:client:${idOf('elsewhere', '10.0.0.5')}`, moved);
    for (const id of [idOf('older', '10.0.0.9'), idOf('elsewhere', '10.0.0.5')]) await redis.zadd(`${prefix}report:clients`, t0 + 9000, id);
    expect((await mine.read())?.clients.map((c) => c.userAgent)).toEqual(['mine']);
    // and merging goes on: a client whose value does not open is counted again
    expect(await mine.merge(deltaOf([5, call({ userAgent: 'mine' })]))).toBe(true);
    expect((await mine.read())?.clients.map((c) => [c.userAgent, c.calls])).toEqual([['mine', 2]]);
  });

  it('answers false and undefined when Redis is away', async () => {
    const link = createRedisLink({
      url: 'redis://127.0.0.1:1',
      prefix: testPrefix('report-store-away'),
      timeoutMs: 100,
      log: createLogger('silent'),
    });
    links.push(link);
    const store = createReportStore(link, { maxClients: 10, sealer: createSealer(secret), idKey });
    expect(await store.merge(deltaOf([1, call()]))).toBe(false);
    expect(await store.read()).toBeUndefined();
  });

  it.each([0, -1, 1.5])('rejects maxClients %s', (maxClients) => {
    const link = { define: () => undefined, key: (...p: string[]) => p.join(':') } as unknown as RedisLink;
    expect(() => createReportStore(link, { maxClients, sealer: createSealer(secret), idKey })).toThrow(
      `maxClients must be a positive integer, got ${maxClients}`,
    );
  });
});
