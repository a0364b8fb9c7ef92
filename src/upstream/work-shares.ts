/**
 * Shares of the upstream connections by kind of work, so one kind cannot make another wait behind
 * it: ordinary legacy calls, key work (minting, renewal, password checks, retirement) and `db`
 * transfers each have their own number of connections. An ordinary call that has run longer than
 * `slowAfterMs` moves to the slow lane (while the lane has room) and gives its share back, so calls
 * that take long cannot hold every connection light ones need. A call waits for a share at most
 * `maxWaitMs`, then fails naming `--queue-timeout`. Sizing against Odoo's workers: docs/sizing.md.
 */
import type { LegacyError } from '../errors.ts';

/** The kinds of work with a share of their own. */
export type WorkKind = 'call' | 'keys' | 'db';

/** Where a running exchange counts: its kind's share, or (ordinary calls running long) the slow lane. */
export type Lane = WorkKind | 'slow';

/** What the shares report, for metrics. */
export interface WorkShareEvents {
  /** A call began (+1) or stopped (-1) waiting for a share. */
  waiting(kind: WorkKind, delta: 1 | -1): void;
  /** A call got its share after `seconds` of waiting (0 when one was free). */
  waited(kind: WorkKind, seconds: number): void;
  /** A call waited `--queue-timeout` and gave up. */
  timedOut(kind: WorkKind): void;
}

export interface WorkShareOptions {
  /** Connections each kind of work uses at most. */
  shares: Record<WorkKind, number>;
  /** Ordinary calls that ran longer than this move to the slow lane (0: never). */
  slowAfterMs: number;
  /** Ordinary calls the slow lane holds at most. */
  slowLane: number;
  /** Longest wait for a share. */
  maxWaitMs: number;
  /** The error a call that waited too long fails with. */
  waitedTooLong(kind: WorkKind, waitedMs: number): LegacyError;
  events?: WorkShareEvents;
}

/** A share held; `release()` (idempotent) gives it back. */
export interface Ticket {
  release(): void;
}

export interface WorkShares {
  /** Waits for a share of `kind`; rejects with `waitedTooLong` past the bound, with the signal's reason when it aborts. */
  acquire(kind: WorkKind, signal: AbortSignal): Promise<Ticket>;
  /** Exchanges running per lane. */
  busy(): Record<Lane, number>;
  /** Calls waiting per kind. */
  waiting(): Record<WorkKind, number>;
}

interface Waiter {
  grant(): void;
}

export function createWorkShares(options: WorkShareOptions): WorkShares {
  const { shares, slowAfterMs, slowLane, maxWaitMs, events } = options;
  const busy: Record<Lane, number> = { call: 0, keys: 0, db: 0, slow: 0 };
  const queues: Record<WorkKind, Waiter[]> = { call: [], keys: [], db: [] };

  const pump = (kind: WorkKind) => {
    while (busy[kind] < shares[kind]) {
      const next = queues[kind].shift();
      if (next === undefined) return;
      next.grant();
    }
  };

  function ticket(kind: WorkKind): Ticket {
    let lane: Lane = kind;
    busy[kind]++;
    let released = false;
    // a long call gives its share to the next one and counts in the slow lane instead
    const slow =
      kind === 'call' && slowAfterMs > 0 && slowLane > 0
        ? setTimeout(() => {
            if (released || busy.slow >= slowLane) return;
            busy.call--;
            busy.slow++;
            lane = 'slow';
            pump('call');
          }, slowAfterMs).unref()
        : undefined;
    return {
      release() {
        if (released) return;
        released = true;
        clearTimeout(slow);
        busy[lane]--;
        pump(kind);
      },
    };
  }

  return {
    acquire(kind, signal) {
      if (signal.aborted) return Promise.reject(signal.reason as Error);
      if (busy[kind] < shares[kind] && queues[kind].length === 0) {
        events?.waited(kind, 0);
        return Promise.resolve(ticket(kind));
      }
      const started = performance.now();
      events?.waiting(kind, 1);
      return new Promise<Ticket>((resolve, reject) => {
        const leave = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          const queue = queues[kind];
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          events?.waiting(kind, -1);
        };
        const waiter: Waiter = {
          grant() {
            leave();
            events?.waited(kind, (performance.now() - started) / 1000);
            resolve(ticket(kind));
          },
        };
        const onAbort = () => {
          leave();
          reject(signal.reason as Error);
        };
        const timer = setTimeout(() => {
          leave();
          events?.timedOut(kind);
          reject(options.waitedTooLong(kind, performance.now() - started));
        }, maxWaitMs);
        signal.addEventListener('abort', onAbort, { once: true });
        queues[kind].push(waiter);
      });
    },
    busy: () => ({ ...busy }),
    waiting: () => ({ call: queues.call.length, keys: queues.keys.length, db: queues.db.length }),
  };
}
