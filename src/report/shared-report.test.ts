import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureLog } from '../../test/support/captured-log.ts';
import { createLogger } from '../log.ts';
import type { ReportBatch, ReportStore } from './shared-report.ts';
import type { ReportedCall, ReportSnapshot } from './migration-report.ts';
import { clientsPerMerge, createSharedReport, defaultReportFlushIntervalMs } from './shared-report.ts';

const t0 = Date.parse('2026-05-01T10:00:00.000Z');
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

/** A store that keeps what it is sent; `up` false makes it answer like Redis away. */
function fakeStore(merged: ReportSnapshot | undefined = undefined) {
  const sent: Array<{ delta: ReportSnapshot; batch: ReportBatch | undefined; ok: boolean }> = [];
  const state = { up: true, fail: undefined as Error | undefined };
  const store: ReportStore = {
    async merge(delta, batch) {
      if (state.fail !== undefined) throw state.fail;
      sent.push({ delta, batch, ok: state.up });
      return state.up;
    },
    async read() {
      return state.up ? merged : undefined;
    },
  };
  /** Calls per batch that Redis confirmed. */
  const confirmed = () => sent.filter((s) => s.ok).map((s) => [s.batch?.seq, s.delta.clients.reduce((n, c) => n + c.calls, 0)]);
  return { store, sent, state, confirmed };
}

const log = createLogger('silent');
const shared = (store: ReportStore | undefined, clock = { now: t0 }) =>
  createSharedReport({ maxClients: 1000, store, log, now: () => clock.now });

afterEach(() => {
  vi.useRealTimers();
});

describe('createSharedReport()', () => {
  it('is the local report alone without a store', async () => {
    vi.useFakeTimers();
    const report = shared(undefined);
    report.record(call());
    report.start();
    expect(vi.getTimerCount()).toBe(0);
    expect(await report.flush()).toBe(true);
    expect(await report.snapshot()).toEqual(report.local.snapshot());
    expect(report.local.snapshot().clients.map((c) => c.calls)).toEqual([1]);
    await report.stop();
  });

  it('sends each call once, in numbered batches of one writer', async () => {
    const { store, sent, confirmed } = fakeStore();
    const report = shared(store);
    report.record(call());
    report.record(call({ failed: true }));
    expect(await report.flush()).toBe(true);
    expect(await report.flush()).toBe(true); // nothing new: nothing sent
    report.record(call({ userAgent: 'odoorpc' }));
    expect(await report.flush()).toBe(true);
    expect(confirmed()).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(sent[0]?.delta.clients[0]).toMatchObject({ userAgent: 'Python-xmlrpc/3.11', calls: 2, faults: 1 });
    expect(sent[0]?.batch?.writer).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(sent[1]?.batch?.writer).toBe(sent[0]?.batch?.writer);
    expect(report.local.snapshot().clients.map((c) => c.calls)).toEqual([1, 2]);
  });

  it('keeps a batch Redis did not confirm and sends it again, unchanged, before what came later', async () => {
    const { store, sent, state, confirmed } = fakeStore();
    const report = shared(store);
    report.record(call());
    state.up = false;
    expect(await report.flush()).toBe(false);
    report.record(call());
    report.record(call());
    expect(await report.flush()).toBe(false);
    state.up = true;
    expect(await report.flush()).toBe(true);
    expect(sent.map((s) => [s.batch?.seq, s.ok])).toEqual([
      [1, false],
      [1, false],
      [1, true],
      [2, true],
    ]);
    expect(sent[2]?.delta.clients).toEqual(sent[0]?.delta.clients);
    expect(confirmed()).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it(`sends at most ${clientsPerMerge} clients per batch and resumes at the first unconfirmed one`, async () => {
    const { store, sent, state, confirmed } = fakeStore();
    const report = shared(store);
    for (let i = 0; i < 2 * clientsPerMerge + 50; i++) report.record(call({ ip: `10.0.${i >> 8}.${i & 255}` }));
    let merges = 0;
    const merge = store.merge.bind(store);
    store.merge = async (delta, batch) => {
      state.up = ++merges !== 2; // the second batch fails once
      return merge(delta, batch);
    };
    expect(await report.flush()).toBe(false);
    expect(await report.flush()).toBe(true);
    expect(sent.map((s) => [s.batch?.seq, s.delta.clients.length, s.ok])).toEqual([
      [1, clientsPerMerge, true],
      [2, clientsPerMerge, false],
      [2, clientsPerMerge, true],
      [3, 50, true],
    ]);
    expect(confirmed().reduce((n, [, calls]) => n + (calls as number), 0)).toBe(2 * clientsPerMerge + 50);
  });

  it('serves the merged report with Redis up, after sending what it has not got', async () => {
    const merged: ReportSnapshot = { version: 1, generatedAt: '2026-05-01T10:00:00.000Z', clients: [] };
    const { store, confirmed } = fakeStore(merged);
    const report = shared(store);
    report.record(call());
    expect(await report.snapshot()).toBe(merged);
    expect(confirmed()).toEqual([[1, 1]]);
  });

  it('serves the local report with Redis away', async () => {
    const { store, state } = fakeStore({ version: 1, generatedAt: '2026-05-01T10:00:00.000Z', clients: [] });
    const report = shared(store);
    report.record(call());
    state.up = false;
    const snapshot = await report.snapshot();
    expect(snapshot).toEqual(report.local.snapshot());
    expect(snapshot.clients.map((c) => c.calls)).toEqual([1]);
  });

  it('logs a store that throws and goes on flushing', async () => {
    const { store, state, confirmed } = fakeStore();
    const captured = captureLog('warn');
    const report = createSharedReport({ maxClients: 10, store, log: captured.log, now: () => t0 });
    report.record(call());
    state.fail = new Error('boom');
    expect(await report.flush()).toBe(false);
    state.fail = undefined;
    expect(await report.flush()).toBe(true);
    expect(confirmed()).toEqual([[1, 1]]);
    expect(captured.lines.map((l) => [l.msg, l.error])).toEqual([['could not merge the migration report into Redis', 'boom']]);
  });

  it(`flushes every ${defaultReportFlushIntervalMs} ms once started, and once more at stop`, async () => {
    vi.useFakeTimers();
    const { store, confirmed } = fakeStore();
    const report = shared(store);
    report.start();
    report.start(); // a second start adds no timer
    expect(vi.getTimerCount()).toBe(1);
    report.record(call());
    await vi.advanceTimersByTimeAsync(defaultReportFlushIntervalMs - 1);
    expect(confirmed()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(confirmed()).toEqual([[1, 1]]);
    report.record(call());
    await report.stop();
    expect(confirmed()).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
