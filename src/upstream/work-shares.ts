/**
 * Shares of the upstream connections by kind of work, so one kind cannot make another wait behind
 * it: ordinary legacy calls, key work (minting, renewal, password checks, retirement) and `db`
 * transfers each have their own number of connections, and slow calls a lane of their own.
 *
 * Which ordinary calls are slow is learnt per cost key (the upstream path: `/json/2/<model>/<method>`)
 * from what its calls usually cost, not from one of them: a key is slow while most of its last
 * `2 × slowSamples − 1` calls ran longer than `slowAfterMs` (their median did), once it has at least
 * `slowSamples` of them; a call still running at `slowAfterMs` counts as a long one at once. So one
 * slow moment of a light method (a lock, a busy Odoo) does not send its later calls to wait behind the
 * heavy ones, and a slow method is light again once most of its recent calls are; its calls already
 * waiting for the slow lane then go back to the ordinary queue. A call whose key is slow takes the slow lane, or, with the lane full,
 * an ordinary connection while more than `lightReserve` of them stay free and no ordinary call waits:
 * so slow calls, however many, cannot hold the connections light ones need, and still use the
 * connections light ones leave idle. A call of unknown cost starts on an ordinary connection; past
 * `slowAfterMs` it moves to the slow lane (while the lane has room) and gives its ordinary connection
 * to the next call. A call waits for a share at most `maxWaitMs` (a call known slow `slowMaxWaitMs`),
 * or until its deadline, then fails with `waitedTooLong`. Sizing against Odoo's workers:
 * docs/operations.md.
 */
import type { LegacyError } from '../errors.ts';

/** The kinds of work with a share of their own. */
export type WorkKind = 'call' | 'keys' | 'db';

/** Where a running exchange counts: its kind's share, or (ordinary calls running long) the slow lane. */
export type Lane = WorkKind | 'slow';

/** What the shares report, for metrics, by the queue a call waits in (`slow`: calls known slow). */
export interface WorkShareEvents {
  /** A call began (+1) or stopped (-1) waiting for a share. */
  waiting(queue: Lane, delta: 1 | -1): void;
  /** A call got its share after `seconds` of waiting (0 when one was free). */
  waited(queue: Lane, seconds: number): void;
  /** A call waited `--queue-timeout` and gave up. */
  timedOut(queue: Lane): void;
  /** A call known slow found the slow lane full and took an ordinary connection (`--light-reserve`). */
  borrowed(): void;
}

export interface WorkShareOptions {
  /** Connections each kind of work uses at most. */
  shares: Record<WorkKind, number>;
  /** Ordinary calls that ran longer than this move to the slow lane, and mark their cost key slow (0: never). */
  slowAfterMs: number;
  /** Ordinary calls the slow lane holds at most (0: no slow lane, no call known slow). */
  slowLane: number;
  /** Cost keys whose recent calls are remembered at most (the least recently used is forgotten first). Default 1024. */
  slowKeys?: number;
  /**
   * Calls of a cost key seen before it can be slow: it is slow while more than half of its last
   * `2 × slowSamples − 1` calls ran past `slowAfterMs`, with at least `slowSamples` of them. 1: the
   * last call alone decides. Default 3.
   */
  slowSamples?: number;
  /**
   * Ordinary connections calls known slow leave free, for the others: with the slow lane full, a call
   * known slow borrows an ordinary connection only while more than this many are free (and no ordinary
   * call waits). At least `shares.call` (or no slow lane): they never do. Default `shares.call`.
   */
  lightReserve?: number;
  /** Longest wait for a share. */
  maxWaitMs: number;
  /** Longest wait of a call known slow (for the slow lane or a borrowed connection). Default `maxWaitMs`. */
  slowMaxWaitMs?: number;
  /**
   * The error a call that waited too long in `queue` fails with: `bound` is the queue's own bound
   * (`maxWaitMs`, `slowMaxWaitMs`), `deadline` the call's deadline (its signal aborted with a TimeoutError).
   */
  waitedTooLong(queue: Lane, waitedMs: number, bound: 'queue' | 'deadline'): LegacyError;
  events?: WorkShareEvents;
}

/** A share held; `release()` (idempotent) gives it back. */
export interface Ticket {
  release(): void;
}

export interface WorkShares {
  /**
   * Waits for a share of `kind`; rejects with `waitedTooLong` past the bound, with the signal's
   * reason when it aborts. `costKey` (ordinary calls) names what the call does, to learn which are slow.
   */
  acquire(kind: WorkKind, signal: AbortSignal, costKey?: string): Promise<Ticket>;
  /** Exchanges running per lane. */
  busy(): Record<Lane, number>;
  /** Calls waiting per queue (`slow`: ordinary calls known slow, waiting for the slow lane). */
  waiting(): Record<Lane, number>;
}

interface Waiter {
  readonly key: string | undefined;
  /** Gives the waiter its place in `lane`. */
  grant(lane: Lane): void;
  /** Moves the waiter's accounting to another queue (an ordinary call found to be known slow). */
  requeue(to: Lane): void;
}

export function createWorkShares(options: WorkShareOptions): WorkShares {
  const { shares, slowAfterMs, slowLane, maxWaitMs, events } = options;
  const slowMaxWaitMs = options.slowMaxWaitMs ?? maxWaitMs;
  const lightReserve = options.lightReserve ?? shares.call;
  const capacity: Record<Lane, number> = { ...shares, slow: slowLane };
  const busy: Record<Lane, number> = { call: 0, keys: 0, db: 0, slow: 0 };
  const queues: Record<Lane, Waiter[]> = { call: [], keys: [], db: [], slow: [] };
  const learning = slowAfterMs > 0 && slowLane > 0;
  // per cost key, whether each of its last calls ran past slowAfterMs (newest last) and whether that
  // makes it slow; insertion order is recency (client-chosen names: bounded)
  const costs = new Map<string, { long: boolean[]; slow: boolean }>();
  const maxKeys = options.slowKeys ?? 1024;
  const minSamples = Math.max(1, options.slowSamples ?? 3);
  const window = 2 * minSamples - 1;
  const knownSlow = (key: string | undefined) => learning && key !== undefined && costs.get(key)?.slow === true;
  // ordinary calls past slowAfterMs that found the slow lane full: the first to move when it has room
  const overtime = new Set<() => void>();
  // one call of `key` ran (or still runs) past slowAfterMs (`long`), or ended within it
  const record = (key: string, long: boolean) => {
    const cost = costs.get(key) ?? { long: [], slow: false };
    costs.delete(key);
    costs.set(key, cost);
    if (costs.size > maxKeys) costs.delete(costs.keys().next().value as string);
    cost.long.push(long);
    if (cost.long.length > window) cost.long.shift();
    const wasSlow = cost.slow;
    cost.slow = cost.long.length >= minSamples && cost.long.filter(Boolean).length * 2 > cost.long.length;
    // light again: its calls waiting for the slow lane wait as ordinary calls (they may run on the reserve)
    if (wasSlow && !cost.slow) {
      const back = queues.slow.filter((w) => w.key === key);
      if (back.length === 0) return;
      queues.slow = queues.slow.filter((w) => w.key !== key);
      for (const waiter of back) {
        waiter.requeue('call');
        queues.call.push(waiter);
      }
      pump('call');
    }
  };

  // a call known slow may take an ordinary connection while more than the reserve stay free for the others
  const mayBorrow = () => busy.call < capacity.call - lightReserve && queues.call.length === 0;
  // where a call known slow can run now: the slow lane first, else a borrowed ordinary connection
  const slowRoom = (): Lane | undefined => (busy.slow < capacity.slow ? 'slow' : mayBorrow() ? 'call' : undefined);

  const pump = (lane: Lane) => {
    if (lane === 'slow') return pumpSlow();
    while (busy[lane] < capacity[lane]) {
      const next = queues[lane].shift();
      if (next === undefined) break;
      // a call queued before its key was found slow waits for the slow lane instead
      if (lane === 'call' && knownSlow(next.key)) {
        next.requeue('slow');
        queues.slow.push(next);
        continue;
      }
      next.grant(lane);
    }
    // ordinary connections left free beyond the reserve go to calls known slow
    if (lane === 'call') pumpSlow();
  };
  const pumpSlow = () => {
    for (let room = slowRoom(); room !== undefined && queues.slow.length > 0; room = slowRoom()) {
      if (room === 'call') events?.borrowed();
      queues.slow.shift()?.grant(room);
    }
  };

  function ticket(lane: Lane, key: string | undefined): Ticket {
    busy[lane]++;
    const started = performance.now();
    let released = false;
    const moveToSlowLane = () => {
      overtime.delete(moveToSlowLane);
      busy.call--;
      busy.slow++;
      lane = 'slow';
      pump('call');
    };
    // a long ordinary call marks its key slow, and gives its share to the next call once the slow lane has room
    let counted = false;
    const timer =
      lane === 'call' && learning
        ? setTimeout(() => {
            if (released) return;
            // a long call counts as one at once, so a burst of a heavy method is known slow before it ends
            counted = true;
            if (key !== undefined) record(key, true);
            if (busy.slow < slowLane) moveToSlowLane();
            else overtime.add(moveToSlowLane);
          }, slowAfterMs).unref()
        : undefined;
    return {
      release() {
        if (released) return;
        released = true;
        clearTimeout(timer);
        overtime.delete(moveToSlowLane);
        if (key !== undefined && learning && !counted) record(key, performance.now() - started > slowAfterMs);
        busy[lane]--;
        // a room in the slow lane goes first to a call running over time on an ordinary connection:
        // that frees the ordinary connection for the next call, with no new connection upstream
        const first = lane === 'slow' ? overtime.values().next().value : undefined;
        if (first !== undefined) first();
        else pump(lane);
      },
    };
  }

  return {
    acquire(kind, signal, costKey) {
      if (signal.aborted) return Promise.reject(signal.reason as Error);
      const key = kind === 'call' ? costKey : undefined;
      let queue: Lane = kind === 'call' && knownSlow(key) ? 'slow' : kind;
      const room = queues[queue].length > 0 ? undefined : queue === 'slow' ? slowRoom() : busy[queue] < capacity[queue] ? queue : undefined;
      if (room !== undefined) {
        if (queue === 'slow' && room === 'call') events?.borrowed();
        events?.waited(queue, 0);
        return Promise.resolve(ticket(room, key));
      }
      const started = performance.now();
      events?.waiting(queue, 1);
      return new Promise<Ticket>((resolve, reject) => {
        // the queue's bound, counted from the start of the wait (a call requeued as slow gets the slow bound)
        let timer: NodeJS.Timeout | undefined;
        // a call moved back from the slow queue keeps the slow bound it was given
        let boundMs = queue === 'slow' ? slowMaxWaitMs : maxWaitMs;
        const arm = () => {
          clearTimeout(timer);
          timer = setTimeout(
            () => {
              leave();
              events?.timedOut(queue);
              reject(options.waitedTooLong(queue, performance.now() - started, 'queue'));
            },
            Math.max(0, boundMs - (performance.now() - started)),
          );
        };
        const leave = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          const waiters = queues[queue];
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          events?.waiting(queue, -1);
        };
        const waiter: Waiter = {
          key,
          grant(lane) {
            leave();
            events?.waited(queue, (performance.now() - started) / 1000);
            resolve(ticket(lane, key));
          },
          requeue(to) {
            events?.waiting(queue, -1);
            queue = to;
            if (to === 'slow') boundMs = slowMaxWaitMs;
            events?.waiting(queue, 1);
            arm();
          },
        };
        const onAbort = () => {
          leave();
          // the call's deadline passed while it waited: the fault says which bound it met
          if (signal.reason instanceof Error && signal.reason.name === 'TimeoutError') {
            events?.timedOut(queue);
            reject(options.waitedTooLong(queue, performance.now() - started, 'deadline'));
          } else reject(signal.reason as Error);
        };
        arm();
        signal.addEventListener('abort', onAbort, { once: true });
        queues[queue].push(waiter);
      });
    },
    busy: () => ({ ...busy }),
    waiting: () => ({ call: queues.call.length, keys: queues.keys.length, db: queues.db.length, slow: queues.slow.length }),
  };
}
