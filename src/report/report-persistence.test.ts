import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureLog } from '../../test/support/captured-log.ts';
import { createMigrationReport, type ReportedCall, type ReportSnapshot } from './migration-report.ts';
import { readReportFile, writeReportFile } from './report-file.ts';
import { createReportPersistence, reportSaveIntervalMs, type ReportStorage } from './report-persistence.ts';

const call: ReportedCall = {
  dialect: 'jsonrpc',
  userAgent: 'odoorpc',
  ip: '10.0.0.7',
  service: 'common',
  method: 'version',
  failed: false,
};

/** In-memory storage recording what was written. */
function memoryStorage(initial?: ReportSnapshot | Error) {
  const writes: ReportSnapshot[] = [];
  const moved: string[] = [];
  const storage: ReportStorage = {
    read: async () => {
      if (initial instanceof Error) throw initial;
      return initial;
    },
    write: async (_path, snapshot) => void writes.push({ ...snapshot, clients: [...snapshot.clients] }),
    moveAside: async (_path, to) => void moved.push(to),
  };
  return { storage, writes, moved };
}

describe('createReportPersistence()', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('saves every minute while the report changes, and once more at stop', async () => {
    const report = createMigrationReport({ maxClients: 10 });
    const { storage, writes } = memoryStorage();
    const persistence = createReportPersistence({ report, file: '/data/report.json', log: captureLog().log, storage });
    persistence.start();
    report.record(call);
    await vi.advanceTimersByTimeAsync(reportSaveIntervalMs - 1);
    expect(writes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toHaveLength(1);
    expect(writes[0]?.clients[0]?.calls).toBe(1);
    await vi.advanceTimersByTimeAsync(reportSaveIntervalMs * 3);
    expect(writes).toHaveLength(1); // unchanged: not written again
    report.record(call);
    await persistence.stop();
    expect(writes).toHaveLength(2);
    expect(writes[1]?.clients[0]?.calls).toBe(2);
    await vi.advanceTimersByTimeAsync(reportSaveIntervalMs * 2);
    expect(writes).toHaveLength(2); // the timer is gone
  });

  it('restores the saved report at load and does not write it back unchanged', async () => {
    const saved = createMigrationReport({ maxClients: 10, now: () => 0 });
    saved.record(call);
    const report = createMigrationReport({ maxClients: 10 });
    const { storage, writes } = memoryStorage(saved.snapshot());
    const captured = captureLog();
    const persistence = createReportPersistence({ report, file: '/data/report.json', log: captured.log, storage });
    await persistence.load();
    expect(report.snapshot().clients).toEqual(saved.snapshot().clients);
    expect(captured.matching('migration report loaded')[0]).toMatchObject({ file: '/data/report.json', clients: 1 });
    await persistence.stop();
    expect(writes).toHaveLength(0);
  });

  it('moves an unreadable file aside and starts empty', async () => {
    const report = createMigrationReport({ maxClients: 10 });
    const { storage, moved } = memoryStorage(new Error('/data/report.json: not JSON'));
    const captured = captureLog();
    await createReportPersistence({ report, file: '/data/report.json', log: captured.log, storage }).load();
    expect(report.size).toBe(0);
    expect(moved).toEqual(['/data/report.json.unreadable']);
    expect(captured.matching('could not read the migration report')[0]).toMatchObject({
      error: '/data/report.json: not JSON',
      movedTo: '/data/report.json.unreadable',
    });
  });

  it('does nothing without a file', async () => {
    const report = createMigrationReport({ maxClients: 10 });
    const { storage, writes } = memoryStorage();
    const persistence = createReportPersistence({ report, file: undefined, log: captureLog().log, storage });
    await persistence.load();
    persistence.start();
    report.record(call);
    await vi.advanceTimersByTimeAsync(reportSaveIntervalMs);
    await persistence.stop();
    expect(writes).toHaveLength(0);
  });

  it('logs a failed save and tries again at the next tick', async () => {
    const report = createMigrationReport({ maxClients: 10 });
    let fail = true;
    const writes: ReportSnapshot[] = [];
    const storage: ReportStorage = {
      read: async () => undefined,
      write: async (_p, s) => {
        if (fail) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
        writes.push({ ...s, clients: [...s.clients] });
      },
      moveAside: async () => undefined,
    };
    const captured = captureLog();
    const persistence = createReportPersistence({ report, file: '/data/report.json', log: captured.log, storage });
    persistence.start();
    report.record(call);
    await vi.advanceTimersByTimeAsync(reportSaveIntervalMs);
    expect(captured.matching('could not save the migration report')[0]).toMatchObject({ file: '/data/report.json', error: 'ENOSPC' });
    fail = false;
    await vi.advanceTimersByTimeAsync(reportSaveIntervalMs);
    expect(writes).toHaveLength(1);
    await persistence.stop();
  });
});

describe('report file', () => {
  it('round-trips a snapshot and reads a missing file as none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-'));
    const path = join(dir, 'report.json');
    expect(await readReportFile(path)).toBeUndefined();
    const report = createMigrationReport({ maxClients: 10, now: () => 0 });
    report.record({ ...call, service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'read' });
    await writeReportFile(path, report.snapshot());
    expect(await readReportFile(path)).toEqual(report.snapshot());
  });

  it('keeps shadow results and the JSON-2 body through the file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'report-')), 'report.json');
    const report = createMigrationReport({ maxClients: 10, now: () => 0 });
    const read = { service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'read' };
    report.record({ ...call, ...read, json2Body: () => '{"ids": ["<int>"]}' });
    report.recordShadow({ userAgent: call.userAgent, ip: call.ip, ...read, outcome: 'intended', deviation: 'x' });
    report.recordShadow({
      userAgent: call.userAgent,
      ip: call.ip,
      ...read,
      outcome: 'differs',
      difference: { at: '2026-01-01T00:00:00.000Z', dialect: 'jsonrpc', differences: ['a'], gateway: 'g', legacy: 'l' },
    });
    await writeReportFile(path, report.snapshot());
    const loaded = await readReportFile(path);
    expect(loaded).toEqual(report.snapshot());
    expect(loaded?.clients[0]?.methods[0]?.shadow).toEqual({
      equal: 0,
      intended: 1,
      differs: 1,
      errors: 0,
      dropped: 0,
      deviations: { x: 1 },
    });
  });

  it.each([
    ['{', 'not JSON'],
    ['{"version":2,"generatedAt":"2026-01-01T00:00:00.000Z","clients":[]}', 'not a migration report (version: Invalid input: expected 1)'],
    [
      '{"version":1,"generatedAt":"2026-01-01T00:00:00.000Z","clients":[{"ip":"x"}]}',
      'not a migration report (clients.0.userAgent: Invalid input: expected string, received undefined)',
    ],
  ])('refuses %s', async (text, problem) => {
    const path = join(mkdtempSync(join(tmpdir(), 'report-')), 'report.json');
    writeFileSync(path, text);
    await expect(readReportFile(path)).rejects.toThrow(`${path}: ${problem}`);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('a save of a large report leaves the event loop free: each client is read as it is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-'));
    const file = join(dir, 'report.json');
    const report = createMigrationReport({ maxClients: 2000 });
    const persistence = createReportPersistence({ report, file, log: captureLog().log });
    for (let c = 0; c < 1500; c++) {
      for (let m = 0; m < 5; m++)
        report.record({
          ...call,
          userAgent: `client-${c}`,
          service: 'object',
          method: 'execute_kw',
          model: 'res.partner',
          modelMethod: `method_${m}`,
        });
    }
    let saving = true;
    let turns = 0;
    const saved = persistence.stop().finally(() => (saving = false));
    // the first client recorded is the last one written; a call of it recorded during the save is in the file
    const ticks = (async () => {
      while (saving) {
        await nextTurn();
        if (saving && turns++ === 0)
          report.record({
            ...call,
            userAgent: 'client-0',
            service: 'object',
            method: 'execute_kw',
            model: 'res.partner',
            modelMethod: 'method_0',
          });
      }
    })();
    await saved;
    await ticks;
    expect(turns).toBeGreaterThan(10);
    const written = (await readReportFile(file))?.clients;
    expect(written).toHaveLength(1500);
    expect(written?.at(-1)).toMatchObject({ userAgent: 'client-0', calls: 6 });
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('an unchanged report is not written again; a failed save leaves the saved file and no partial one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-'));
    const file = join(dir, 'report.json');
    const report = createMigrationReport({ maxClients: 10 });
    const persistence = createReportPersistence({ report, file, log: captureLog().log });
    report.record(call);
    await persistence.stop();
    const first = statSync(file);
    await persistence.stop();
    // a save replaces the file by a rename: the same inode means it was not written again
    expect(statSync(file).ino).toBe(first.ino);
    const before = readFileSync(file, 'utf8');
    const failing = createReportPersistence({
      report,
      file,
      log: captureLog().log,
      storage: {
        read: async () => undefined,
        moveAside: async () => undefined,
        // the real writer, given clients that fail part way (as a full disk would)
        write: (path, snapshot) =>
          writeReportFile(path, {
            ...snapshot,
            clients: (function* clients() {
              yield* snapshot.clients;
              throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
            })(),
          }),
      },
    });
    report.record(call);
    await failing.stop();
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['report.json']);
  });
});
