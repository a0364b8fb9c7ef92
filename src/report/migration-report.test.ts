import { describe, expect, it } from 'vitest';
import { createMigrationReport, maxLabelLength, maxMethodsPerClient, type ReportedCall } from './migration-report.ts';

const t0 = Date.parse('2026-05-01T10:00:00.000Z');

/** A report whose clock advances one second per call. */
function reportWithClock(maxClients = 10) {
  let now = t0;
  const report = createMigrationReport({ maxClients, now: () => now });
  return { report, tick: (ms = 1000) => (now += ms) };
}

const searchRead: ReportedCall = { dialect: 'xmlrpc2', userAgent: 'Python-xmlrpc/3.11', ip: '10.0.0.5', service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'search_read', failed: false };

describe('createMigrationReport()', () => {
  it('groups calls per client and method with counts, faults and first/last seen', () => {
    const { report, tick } = reportWithClock();
    report.record({ dialect: 'xmlrpc2', userAgent: 'Python-xmlrpc/3.11', ip: '10.0.0.5', service: 'common', method: 'authenticate', failed: false });
    tick();
    report.record(searchRead);
    tick();
    report.record({ ...searchRead, failed: true });
    tick();
    report.record({ ...searchRead, dialect: 'jsonrpc', userAgent: 'odoorpc' });
    expect(report.snapshot()).toEqual({
      version: 1,
      generatedAt: '2026-05-01T10:00:03.000Z',
      clients: [
        {
          userAgent: 'odoorpc', ip: '10.0.0.5', firstSeen: '2026-05-01T10:00:03.000Z', lastSeen: '2026-05-01T10:00:03.000Z', calls: 1, faults: 0,
          dialects: { jsonrpc: 1 }, services: { object: 1 },
          methods: [{ service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'search_read', calls: 1, faults: 0, firstSeen: '2026-05-01T10:00:03.000Z', lastSeen: '2026-05-01T10:00:03.000Z' }],
          unlistedCalls: 0,
        },
        {
          userAgent: 'Python-xmlrpc/3.11', ip: '10.0.0.5', firstSeen: '2026-05-01T10:00:00.000Z', lastSeen: '2026-05-01T10:00:02.000Z', calls: 3, faults: 1,
          dialects: { xmlrpc2: 3 }, services: { common: 1, object: 2 },
          methods: [
            { service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'search_read', calls: 2, faults: 1, firstSeen: '2026-05-01T10:00:01.000Z', lastSeen: '2026-05-01T10:00:02.000Z' },
            { service: 'common', method: 'authenticate', calls: 1, faults: 0, firstSeen: '2026-05-01T10:00:00.000Z', lastSeen: '2026-05-01T10:00:00.000Z' },
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

describe('shadow results and JSON-2 bodies (issue #23)', () => {
  const difference = (i: number) => ({ at: `2026-05-01T10:00:0${i}.000Z`, dialect: 'xmlrpc2', differences: [`result: ${i}`], gateway: 'g', legacy: 'l' });

  it("counts each outcome on the shadowed call's method, and keeps the last differences", () => {
    const { report } = reportWithClock();
    report.record(searchRead);
    const shadowed = { userAgent: searchRead.userAgent, ip: searchRead.ip, service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'search_read' };
    for (const outcome of ['equal', 'equal', 'error', 'dropped'] as const) report.recordShadow({ ...shadowed, outcome });
    report.recordShadow({ ...shadowed, outcome: 'intended', deviation: 'A changed password keeps working for up to 5 s' });
    for (let i = 0; i < 5; i++) report.recordShadow({ ...shadowed, outcome: 'differs', difference: difference(i) });
    const [method] = report.snapshot().clients[0]?.methods ?? [];
    expect(method?.calls).toBe(1);
    expect(method?.shadow).toEqual({ equal: 2, intended: 1, differs: 5, errors: 1, dropped: 1, deviations: { 'A changed password keeps working for up to 5 s': 1 } });
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
    report.recordShadow({ userAgent: searchRead.userAgent, ip: searchRead.ip, service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'search_read', outcome: 'differs', difference: difference(1) });
    const snapshot = report.snapshot();
    const again = createMigrationReport({ maxClients: 10, now: () => t0 });
    again.restore(JSON.parse(JSON.stringify(snapshot)));
    expect(again.snapshot().clients).toEqual(snapshot.clients);
  });
});
