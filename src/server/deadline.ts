/**
 * One deadline per legacy call (docs/architecture.md §3 db, §6): the call timeout for `common` and `object`, the
 * separate db timeout for the `db` service (create, restore and dumps take far longer), both cut
 * short when the client goes away. The signal travels in the call's origin down to `upstream/`.
 */
import { callKey, type CallOrigin } from '../call.ts';
import type { Dispatch } from '../legacy/dispatch.ts';
import type { ClientPresence } from './client-presence.ts';

/** The client's own signal behind a call (so a db call can drop the call timeout), and what `finish` clears. */
const callDeadline = callKey<{ client: ClientPresence; cleanup?: () => void } | undefined>('deadline', undefined);

/** The two deadlines, in milliseconds. */
export interface DeadlineOptions {
  callTimeoutMs: number;
  dbTimeoutMs: number;
  /**
   * Fires when the shutdown grace period is over: every call still running is aborted with its
   * reason (a LegacyError), so it is answered with a fault in its dialect rather than cut off.
   */
  shutdown?: AbortSignal;
}

/** A signal that fires `ms` from now with a TimeoutError, like `AbortSignal.timeout` (but on `setTimeout`). */
function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  timer.unref?.();
  return controller.signal;
}

/**
 * Creates the deadline helper: `origin()` builds a call's signal from the client's (call timeout),
 * and `dispatch()` gives `db` calls the db timeout instead.
 */
export function createDeadlines({ callTimeoutMs, dbTimeoutMs, shutdown }: DeadlineOptions) {
  // the calls running now, aborted together when the shutdown grace period is over
  const running = new Set<AbortController>();
  shutdown?.addEventListener(
    'abort',
    () => {
      for (const controller of running) controller.abort(shutdown.reason);
    },
    { once: true },
  );
  return {
    /**
     * Completes `facts` with a signal that fires when the client goes away or the call timeout passes.
     * One controller and one timer, cleared by {@link finish}: `AbortSignal.any` + `AbortSignal.timeout`
     * per call were ~5 % of a small call's CPU.
     */
    origin(facts: Omit<CallOrigin, 'signal'>, client: ClientPresence): CallOrigin {
      const controller = new AbortController();
      const origin: CallOrigin = { ...facts, signal: controller.signal };
      const deadline: { client: ClientPresence; cleanup?: () => void } = { client };
      origin.values.set(callDeadline, deadline);
      if (client.gone || shutdown?.aborted) {
        controller.abort(client.gone ? client.reason : shutdown?.reason);
        return origin;
      }
      running.add(controller);
      const stopListening = client.onGone(() => {
        clearTimeout(timer);
        controller.abort(client.reason);
      });
      const timer = setTimeout(() => {
        stopListening();
        controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      }, callTimeoutMs);
      timer.unref?.();
      deadline.cleanup = () => {
        clearTimeout(timer);
        stopListening();
        running.delete(controller);
      };
      return origin;
    },
    /** The call is answered: its timer and client listener go (a call never finished keeps them until the timeout). */
    finish(origin: CallOrigin): void {
      const deadline = origin.values.get(callDeadline);
      deadline?.cleanup?.();
      if (deadline !== undefined) delete deadline.cleanup;
    },
    /** Wraps a dispatcher so that `db` calls run under the db timeout. */
    dispatch(inner: Dispatch): Dispatch {
      return function dispatchWithDeadline(call, origin) {
        const client = origin.values.get(callDeadline)?.client;
        if (call.service !== 'db' || client === undefined) return inner(call, origin);
        return inner(call, {
          ...origin,
          signal: AbortSignal.any([timeoutSignal(dbTimeoutMs), client.signal(), ...(shutdown === undefined ? [] : [shutdown])]),
        });
      };
    },
  };
}
