/**
 * When an answer ends with `Connection: close` (Odoo 19 closes after every answer), undici closes
 * the socket right after handing the answer over, with `new InformationalError('reset')`, and Node's
 * stream `destroy()` reads that error's `.stack` (to keep V8 from leaking it). Capturing and
 * formatting a stack nobody will see cost 0.28 ms per call on the critical path at concurrency 1
 * against Odoo (in-process trace, answer handed over → socket destroyed), before the
 * gateway's code could go on with the answer.
 *
 * So, from the moment such an answer is complete until the current tick ends, errors capture no
 * stack frames. Only undici's own synchronous code runs in that window (the rest of its
 * message-complete handler and the socket's destroy); the limit is put back on the next tick, before
 * the close events that destroy() schedules and before any promise continuation.
 */
let restoreAt: number | undefined;

/** Captures no stack frames until the current tick ends. */
export function stacklessUntilNextTick(): void {
  if (restoreAt !== undefined) return;
  restoreAt = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  process.nextTick(() => {
    if (restoreAt !== undefined) Error.stackTraceLimit = restoreAt;
    restoreAt = undefined;
  });
}

/** True when an answer with these headers makes its connection close once it has been read. */
export function closesAfterAnswer(headers: Record<string, string | string[] | undefined>): boolean {
  const connection = headers.connection;
  const values = Array.isArray(connection) ? connection : connection === undefined ? [] : [connection];
  return values.some((v) => v.split(',').some((token) => token.trim().toLowerCase() === 'close'));
}
