/**
 * The migration report shared by replicas. Every call is counted twice in process: in
 * the local report (served while Redis is away, and what `--report-file` keeps) and in a delta of
 * what Redis has not got yet. Every couple of seconds the delta is sealed and merged into Redis; a
 * sealed delta stays until Redis confirms it, and Redis remembers each replica's last confirmed
 * batch, so counts recorded during an outage arrive when Redis returns — none lost, none twice.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../log.ts';
import {
  createMigrationReport,
  defaultReportMaxBytes,
  type ClientReport,
  type LazyReportSnapshot,
  type MigrationReport,
  type ReportedCall,
  type ReportedShadow,
  type ReportSnapshot,
} from './migration-report.ts';

/** How often the delta goes to Redis by default: the merged report lags a replica by about this. */
/**
 * Who sent a delta and its place in that sender's sequence: Redis remembers the last `seq` applied
 * per `writer`, so a delta sent again after a lost answer is not counted twice.
 */
export interface ReportBatch {
  writer: string;
  seq: number;
}

/** The shared report's store (Redis: src/state/report-store.ts). */
export interface ReportStore {
  /** Adds `delta`'s counters atomically; false when Redis is away or the script failed (nothing added). */
  merge(delta: ReportSnapshot, batch?: ReportBatch): Promise<boolean>;
  /** The merged report (same shape and order as `MigrationReport.snapshot()`); `undefined` when Redis is away. */
  read(): Promise<ReportSnapshot | undefined>;
}

export const defaultReportFlushIntervalMs = 2000;
/** Clients per merge script, so one flush after a long outage never holds Redis for long. */
export const clientsPerMerge = 100;

/** The report a gateway records into and serves. */
export interface SharedReport {
  /** Counts one call (in process; never waits for Redis). */
  record(call: ReportedCall): void;
  /** Counts one shadow result (in process; never waits for Redis). */
  recordShadow(result: ReportedShadow): void;
  /** With Redis up: this replica's pending counts merged, then the report of all replicas; otherwise the local one. */
  snapshot(): Promise<ReportSnapshot>;
  /** {@link SharedReport.snapshot}, the local report's clients made only as they are read. */
  snapshotLazily(): Promise<LazyReportSnapshot>;
  /** Sends what Redis has not got yet; false when some of it is still waiting (Redis away). */
  flush(): Promise<boolean>;
  /** Starts flushing every `flushIntervalMs` (the timer does not keep the process alive). */
  start(): void;
  /** Stops the timer and flushes once more (shutdown). Never rejects. */
  stop(): Promise<void>;
  /** This replica's own report: what `--report-file` saves and restores. */
  readonly local: MigrationReport;
}

/** A sealed delta waiting for Redis to confirm it. */
interface Batch {
  seq: number;
  clients: ClientReport[];
}

/**
 * Creates the shared report of at most `maxClients` clients (`--report-size`). Without `store` (no
 * `--redis-url`) it is the local report alone. `now` is the clock (tests pass a fixed one).
 */
export function createSharedReport(options: {
  maxClients: number;
  /** `--report-max-bytes` (default {@link defaultReportMaxBytes}). */
  maxBytes?: number;
  store: ReportStore | undefined;
  log: Logger;
  flushIntervalMs?: number;
  now?: () => number;
}): SharedReport {
  const {
    maxClients,
    maxBytes = defaultReportMaxBytes,
    store,
    log,
    flushIntervalMs = defaultReportFlushIntervalMs,
    now = Date.now,
  } = options;
  const local = createMigrationReport({ maxClients, maxBytes, now });
  const newDelta = () => createMigrationReport({ maxClients, maxBytes, now });
  let delta = newDelta();
  // One writer per process: Redis skips a batch whose seq it already applied for this writer.
  const writer = randomBytes(9).toString('base64url');
  let seq = 0;
  let pending: Batch[] = [];
  let behind = false; // the last flush left counts waiting: log once when they arrive
  let flushing: Promise<boolean> = Promise.resolve(true);
  let timer: ReturnType<typeof setInterval> | undefined;

  /** Moves the delta into sealed batches; a new delta takes the calls from here on. */
  function seal(): void {
    const { clients } = delta.snapshot();
    delta = newDelta();
    for (let i = 0; i < clients.length; i += clientsPerMerge) pending.push({ seq: ++seq, clients: clients.slice(i, i + clientsPerMerge) });
  }

  async function send(target: ReportStore): Promise<boolean> {
    for (;;) {
      // Batches go in order, and a new delta is sealed only once the old ones are in, so at most one
      // sealed delta and one open delta wait during an outage (each bounded by maxClients).
      while (pending.length > 0) {
        const batch = pending[0] as Batch;
        const merged = await target.merge(
          { version: 1, generatedAt: new Date(now()).toISOString(), clients: batch.clients },
          { writer, seq: batch.seq },
        );
        if (!merged) {
          if (!behind) log.debug({ waiting: pending.length }, 'migration report counts wait for Redis');
          behind = true;
          return false;
        }
        pending = pending.slice(1);
      }
      if (delta.size === 0) break;
      seal();
    }
    if (behind) log.info('migration report counts recorded while Redis was away are merged');
    behind = false;
    return true;
  }

  function flush(): Promise<boolean> {
    if (store === undefined) return Promise.resolve(true);
    flushing = flushing
      .then(() => send(store))
      .catch((err: unknown) => {
        log.warn({ error: (err as Error).message }, 'could not merge the migration report into Redis');
        return false;
      });
    return flushing;
  }

  return {
    record(call) {
      if (store === undefined || call.json2Body === undefined) {
        local.record(call);
        if (store !== undefined) delta.record(call);
        return;
      }
      // the placeholder body is computed once for both reports
      const compute = call.json2Body;
      let body: string | undefined;
      const shared = { ...call, json2Body: (): string => (body ??= compute()) };
      local.record(shared);
      delta.record(shared);
    },
    recordShadow(result) {
      local.recordShadow(result);
      if (store !== undefined) delta.recordShadow(result);
    },
    async snapshot() {
      if (store === undefined) return local.snapshot();
      await flush();
      return (await store.read()) ?? local.snapshot();
    },
    async snapshotLazily() {
      if (store === undefined) return local.snapshotLazily();
      await flush();
      return (await store.read()) ?? local.snapshotLazily();
    },
    flush,
    start() {
      if (store === undefined || timer !== undefined) return;
      timer = setInterval(() => void flush(), flushIntervalMs);
      timer.unref();
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await flush();
    },
    local,
  };
}
