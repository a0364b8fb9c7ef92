/**
 * A test clock shared by the simulator (`now: () => Date`) and the gateway's credentials
 * (`now: () => number`): tests move it instead of sleeping.
 */

/** A settable clock. */
export interface TestClock {
  /** Epoch ms, for the gateway. */
  now(): number;
  /** The same instant as a Date, for the simulator. */
  date(): Date;
  /** Jumps to an ISO instant. */
  set(iso: string): void;
  /** Moves forward by `ms`. */
  advance(ms: number): void;
}

/** A clock starting at `iso`. */
export function createTestClock(iso: string): TestClock {
  let t = Date.parse(iso);
  return {
    now: () => t,
    date: () => new Date(t),
    set(to) {
      t = Date.parse(to);
    },
    advance(ms) {
      t += ms;
    },
  };
}

/** Minutes in milliseconds. */
export const minutes = (n: number): number => n * 60_000;
