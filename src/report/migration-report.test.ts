import { describe, expect, it } from 'vitest';
import { createMigrationReport, maxLabelLength, maxMethodNames, maxMethodsPerClient, type ReportedCall } from './migration-report.ts';

const t0 = Date.parse('2026-05-01T10:00:00.000Z');

/** A report whose clock advances one second per call. */
function reportWithClock(maxClients = 10) {
  let now = t0;
  const report = createMigrationReport({ maxClients, now: () => now });
  return { report, tick: (ms = 1000) => (now += ms) };
}

const searchRead: ReportedCall = {
  dialect: 'xmlrpc2',
  userAgent: 'Python-xmlrpc/3.11',
  ip: '10.0.0.5',
  service: 'object',
  method: 'execute_kw',
  model: 'res.partner',
  modelMethod: 'search_read',
  failed: false,
};

describe('createMigrationReport()', () => {
  it("counts the faults that were the gateway's apart from those Odoo would have answered too, and keeps them across a restore", () => {
    const { report } = reportWithClock();
    report.record({ ...searchRead, failed: true });
    report.record({ ...searchRead, failed: true, gatewayFault: true });
    report.record({ ...searchRead, failed: true, gatewayFault: true });
    report.record({ ...searchRead, failed: false, gatewayFault: true });
    report.record({ ...searchRead, modelMethod: 'read', failed: true });
    const methods = report.snapshot().clients[0]?.methods;
    expect(methods?.find((m) => m.modelMethod === 'search_read')).toMatchObject({ calls: 4, faults: 3, gatewayFaults: 2 });
    expect(methods?.find((m) => m.modelMethod === 'read')).not.toHaveProperty('gatewayFaults');
    const restored = createMigrationReport({ maxClients: 10, now: () => t0 });
    restored.restore(report.snapshot());
    expect(restored.snapshot().clients[0]?.methods.find((m) => m.modelMethod === 'search_read')).toMatchObject({
      faults: 3,
      gatewayFaults: 2,
    });
  });

  it('groups calls per client and method with counts, faults and first/last seen', () => {
    const { report, tick } = reportWithClock();
    report.record({
      dialect: 'xmlrpc2',
      userAgent: 'Python-xmlrpc/3.11',
      ip: '10.0.0.5',
      service: 'common',
      method: 'authenticate',
      failed: false,
    });
    tick();
    report.record(searchRead);
    tick();
    report.record({ ...searchRead, failed: true });
    tick();
    report.record({ ...searchRead, dialect: 'jsonrpc', userAgent: 'odoorpc' });
    expect(report.snapshot()).toEqual({
      version: 1,
      generatedAt: '2026-05-01T10:00:03.000Z',
      dropped: { anonymousClients: 0, authenticatedClients: 0, unlistedCalls: 0, foldedCalls: 0 },
      clients: [
        {
          userAgent: 'odoorpc',
          ip: '10.0.0.5',
          firstSeen: '2026-05-01T10:00:03.000Z',
          lastSeen: '2026-05-01T10:00:03.000Z',
          calls: 1,
          faults: 0,
          dialects: { jsonrpc: 1 },
          services: { object: 1 },
          methods: [
            {
              service: 'object',
              method: 'execute_kw',
              model: 'res.partner',
              modelMethod: 'search_read',
              calls: 1,
              faults: 0,
              firstSeen: '2026-05-01T10:00:03.000Z',
              lastSeen: '2026-05-01T10:00:03.000Z',
            },
          ],
          unlistedCalls: 0,
        },
        {
          userAgent: 'Python-xmlrpc/3.11',
          ip: '10.0.0.5',
          firstSeen: '2026-05-01T10:00:00.000Z',
          lastSeen: '2026-05-01T10:00:02.000Z',
          calls: 3,
          faults: 1,
          dialects: { xmlrpc2: 3 },
          services: { common: 1, object: 2 },
          methods: [
            {
              service: 'object',
              method: 'execute_kw',
              model: 'res.partner',
              modelMethod: 'search_read',
              calls: 2,
              faults: 1,
              firstSeen: '2026-05-01T10:00:01.000Z',
              lastSeen: '2026-05-01T10:00:02.000Z',
            },
            {
              service: 'common',
              method: 'authenticate',
              calls: 1,
              faults: 0,
              firstSeen: '2026-05-01T10:00:00.000Z',
              lastSeen: '2026-05-01T10:00:00.000Z',
            },
          ],
          unlistedCalls: 0,
        },
      ],
    });
    expect(report.revision).toBe(4);
  });

  it('forgets the least recently seen client beyond maxClients', () => {
    const { report, tick } = reportWithClock(2);
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.1', '10.0.0.3']) {
      report.record({ ...searchRead, ip });
      tick();
    }
    expect(report.size).toBe(2);
    expect(report.snapshot().clients.map((c) => c.ip)).toEqual(['10.0.0.3', '10.0.0.1']);
  });

  it('lists a bounded number of methods per client and only counts the rest', () => {
    const { report } = reportWithClock();
    for (let i = 0; i < maxMethodsPerClient + 5; i++) report.record({ ...searchRead, modelMethod: `method_${i}` });
    report.record({ ...searchRead, modelMethod: 'method_0' });
    const [client] = report.snapshot().clients;
    expect(client?.methods).toHaveLength(maxMethodsPerClient);
    expect(client?.unlistedCalls).toBe(5);
    expect(client?.calls).toBe(maxMethodsPerClient + 6);
    expect(client?.methods.find((m) => m.modelMethod === 'method_0')?.calls).toBe(2);
  });

  it('cuts client-supplied strings to maxLabelLength', () => {
    const { report } = reportWithClock();
    report.record({ ...searchRead, userAgent: 'u'.repeat(5000), model: 'm'.repeat(5000), modelMethod: 'x'.repeat(5000) });
    const [client] = report.snapshot().clients;
    expect(client?.userAgent).toHaveLength(maxLabelLength);
    expect(client?.methods[0]?.model).toHaveLength(maxLabelLength);
    expect(client?.methods[0]?.modelMethod).toHaveLength(maxLabelLength);
  });

  it('restores a snapshot and goes on counting from it', () => {
    const { report: first, tick } = reportWithClock();
    first.record(searchRead);
    tick();
    first.record({ ...searchRead, ip: '10.0.0.9' });
    const saved = first.snapshot();

    const { report: second } = reportWithClock();
    second.restore(saved);
    expect(second.snapshot().clients).toEqual(saved.clients);
    second.record(searchRead);
    const client = second.snapshot().clients.find((c) => c.ip === '10.0.0.5');
    expect(client?.calls).toBe(2);
    expect(client?.methods[0]?.calls).toBe(2);
    expect(client?.firstSeen).toBe('2026-05-01T10:00:00.000Z');
  });

  it('keeps the most recently seen clients when a snapshot is larger than maxClients', () => {
    const { report: big, tick } = reportWithClock(5);
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) {
      big.record({ ...searchRead, ip });
      tick();
    }
    const small = createMigrationReport({ maxClients: 2 });
    small.restore(big.snapshot());
    expect(small.snapshot().clients.map((c) => c.ip)).toEqual(['10.0.0.3', '10.0.0.2']);
  });

  it.each([0, -1, 1.5])('refuses maxClients %s', (maxClients) => {
    expect(() => createMigrationReport({ maxClients })).toThrow(`maxClients must be a positive integer, got ${maxClients}`);
  });
});

describe('shadow results and JSON-2 bodies', () => {
  const difference = (i: number) => ({
    at: `2026-05-01T10:00:0${i}.000Z`,
    dialect: 'xmlrpc2',
    differences: [`result: ${i}`],
    gateway: 'g',
    legacy: 'l',
  });

  it("counts each outcome on the shadowed call's method, and keeps the last differences", () => {
    const { report } = reportWithClock();
    report.record(searchRead);
    const shadowed = {
      userAgent: searchRead.userAgent,
      ip: searchRead.ip,
      service: 'object',
      method: 'execute_kw',
      model: 'res.partner',
      modelMethod: 'search_read',
    };
    for (const outcome of ['equal', 'equal', 'error', 'dropped'] as const) report.recordShadow({ ...shadowed, outcome });
    report.recordShadow({ ...shadowed, outcome: 'intended', deviation: 'A changed password keeps working for up to 5 s' });
    for (let i = 0; i < 5; i++) report.recordShadow({ ...shadowed, outcome: 'differs', difference: difference(i) });
    const [method] = report.snapshot().clients[0]?.methods ?? [];
    expect(method?.calls).toBe(1);
    expect(method?.shadow).toEqual({
      equal: 2,
      intended: 1,
      differs: 5,
      errors: 1,
      dropped: 1,
      deviations: { 'A changed password keeps working for up to 5 s': 1 },
    });
    expect(method?.differences?.map((d) => d.differences[0])).toEqual(['result: 2', 'result: 3', 'result: 4']);
  });

  it('computes the placeholder body once per method, from the first call that has one', () => {
    const { report } = reportWithClock();
    let computed = 0;
    const json2Body = () => {
      computed++;
      return `{"n": ${computed}}`;
    };
    report.record({ ...searchRead, json2Body });
    report.record({ ...searchRead, json2Body });
    expect(computed).toBe(1);
    expect(report.snapshot().clients[0]?.methods[0]?.json2Body).toBe('{"n": 1}');
  });

  it('keeps shadow counts, differences and bodies through a snapshot and a restore', () => {
    const { report } = reportWithClock();
    report.record({ ...searchRead, json2Body: () => '{"domain": []}' });
    report.recordShadow({
      userAgent: searchRead.userAgent,
      ip: searchRead.ip,
      service: 'object',
      method: 'execute_kw',
      model: 'res.partner',
      modelMethod: 'search_read',
      outcome: 'differs',
      difference: difference(1),
    });
    const snapshot = report.snapshot();
    const again = createMigrationReport({ maxClients: 10, now: () => t0 });
    again.restore(JSON.parse(JSON.stringify(snapshot)));
    expect(again.snapshot().clients).toEqual(snapshot.clients);
  });
});

describe('the report bounds', () => {
  const version: ReportedCall = { dialect: 'xmlrpc2', userAgent: '', ip: '10.0.0.9', service: 'common', method: 'version', failed: false };
  const loggedIn: ReportedCall = { ...searchRead, database: 'demo', user: 'login:0123456789ab' };

  it('keeps an authenticated client while 1,000 anonymous ones come and go, and counts the ones that left', () => {
    const { report, tick } = reportWithClock(100);
    report.record(loggedIn);
    for (let i = 0; i < 1000; i++) {
      tick();
      report.record({ ...version, userAgent: `agent-${i}` });
    }
    const { clients, dropped } = report.snapshot();
    expect(clients).toHaveLength(100);
    expect(clients.find((c) => c.database === 'demo')).toMatchObject({ user: 'login:0123456789ab', authenticated: true, calls: 1 });
    expect(dropped).toEqual({ anonymousClients: 901, authenticatedClients: 0, unlistedCalls: 0, foldedCalls: 0 });
  });

  it('does not protect a client whose credentials were refused', () => {
    const { report, tick } = reportWithClock(2);
    report.record({ ...loggedIn, failed: true });
    for (const userAgent of ['a', 'b']) {
      tick();
      report.record({ ...version, userAgent });
    }
    expect(report.snapshot().clients.map((c) => c.userAgent)).toEqual(['b', 'a']);
    expect(report.snapshot().dropped?.anonymousClients).toBe(1);
  });

  it('lets an authenticated client leave only when no anonymous one is left', () => {
    const { report, tick } = reportWithClock(2);
    report.record({ ...loggedIn, ip: '10.0.0.1', user: 'login:000000000001' });
    tick();
    report.record({ ...loggedIn, ip: '10.0.0.2', user: 'login:000000000002' });
    tick();
    report.record({ ...loggedIn, ip: '10.0.0.3', user: 'login:000000000003' });
    expect(report.snapshot().clients.map((c) => c.ip)).toEqual(['10.0.0.3', '10.0.0.2']);
    expect(report.snapshot().dropped?.authenticatedClients).toBe(1);
  });

  it("cannot push other credentials' clients out with one valid password under many User-Agents", () => {
    const { report, tick } = reportWithClock(100);
    for (let i = 0; i < 50; i++) {
      report.record({ ...loggedIn, user: `login:${i.toString(16).padStart(12, '0')}` });
      tick();
    }
    for (let i = 0; i < 1000; i++) {
      report.record({ ...loggedIn, user: 'login:ffffffffffff', userAgent: `agent-${i}` });
      tick();
    }
    const { clients, dropped } = report.snapshot();
    expect(clients).toHaveLength(100);
    // every other credential's client stays; the flood holds a tenth of the report authenticated at most
    expect(clients.filter((c) => c.user !== 'login:ffffffffffff')).toHaveLength(50);
    expect(clients.filter((c) => c.user === 'login:ffffffffffff' && c.authenticated === true)).toHaveLength(10);
    expect(dropped?.authenticatedClients).toBe(0);
    // and after a restore from a snapshot too
    const again = reportWithClock(100).report;
    again.restore(report.snapshot());
    expect(again.snapshot().clients.filter((c) => c.authenticated === true)).toHaveLength(60);
  });

  it('stays under maxBytes with 300 clients × 100 method names, and says how many calls it could not list', () => {
    const maxBytes = 256 * 1024;
    const report = createMigrationReport({ maxClients: 300, maxBytes, now: () => t0 });
    for (let m = 0; m < 100; m++) {
      for (let c = 0; c < 300; c++)
        report.record({
          ...loggedIn,
          userAgent: `client-${c}`,
          user: `login:${c.toString(16).padStart(12, '0')}`,
          model: `x_model_${m % 20}`,
          modelMethod: `x_method_${m}`,
        });
    }
    const snapshot = report.snapshot();
    expect(JSON.stringify(snapshot).length).toBeLessThan(maxBytes);
    expect(snapshot.clients).toHaveLength(300);
    const listed = snapshot.clients.reduce((n, c) => n + c.methods.reduce((k, m) => k + m.calls, 0), 0);
    expect(snapshot.dropped?.unlistedCalls).toBe(30_000 - listed);
    expect(snapshot.dropped?.unlistedCalls).toBeGreaterThan(0);
    // anonymous clients never push a logged-in one out, even with the bytes spent
    report.record({ ...version, userAgent: 'newcomer' });
    expect(report.size).toBe(300);
    expect(report.snapshot().dropped?.anonymousClients).toBe(1);
  });

  it(`lists method names past ${maxMethodNames} distinct ones fleet-wide as other`, () => {
    const { report } = reportWithClock(1000);
    for (let i = 0; i < maxMethodNames + 10; i++) report.record({ ...searchRead, userAgent: `c${i % 50}`, modelMethod: `m${i}` });
    const { clients, dropped } = report.snapshot();
    const names = new Set(clients.flatMap((c) => c.methods.map((m) => `${m.model}.${m.modelMethod}`)));
    expect(names.size).toBe(maxMethodNames + 1);
    expect(names.has('other.other')).toBe(true);
    expect(dropped?.foldedCalls).toBe(10);
  });

  it('keeps the JSON-2 body of a method only from a call that succeeded', () => {
    const { report } = reportWithClock();
    report.record({ ...searchRead, failed: true, json2Body: () => '{"bad": 1}' });
    expect(report.snapshot().clients[0]?.methods[0]?.json2Body).toBeUndefined();
    report.record({ ...searchRead, json2Body: () => '{"domain": "<list>"}' });
    expect(report.snapshot().clients[0]?.methods[0]?.json2Body).toBe('{"domain": "<list>"}');
  });
});
