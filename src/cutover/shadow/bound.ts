/**
 * The bound on side work in flight (shadow calls, verify comparisons): work that finds it full is
 * dropped by its caller and counted, never queued, so the clients' answers never wait for it.
 */
export interface Bound {
  /** Takes a place; false when all `max` are taken. */
  take(): boolean;
  release(): void;
  readonly inFlight: number;
  /** Resolves once nothing is in flight. */
  idle(): Promise<void>;
}

export function createBound(max: number): Bound {
  let inFlight = 0;
  let idleWaiters: Array<() => void> = [];
  return {
    take() {
      if (inFlight >= max) return false;
      inFlight++;
      return true;
    },
    release() {
      inFlight--;
      if (inFlight === 0) {
        for (const wake of idleWaiters) wake();
        idleWaiters = [];
      }
    },
    get inFlight() {
      return inFlight;
    },
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
  };
}
