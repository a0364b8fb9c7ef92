/**
 * When an answer ends with `Connection: close` (Odoo 19 closes after every answer), undici closes
 * the socket right after handing the answer over, with `new InformationalError('reset')`, in the
 * same synchronous stack: before any promise continuation, so before the gateway's code can go on
 * with the answer. Two costs sat there, on the critical path of every call:
 * - Node's stream `destroy()` reads that error's `.stack` (to keep V8 from leaking it): capturing and
 *   formatting a stack nobody will see cost 0.28 ms per call at concurrency 1 against Odoo;
 * - the close itself (Node's destroy and the `close(2)` of a TCP socket, whose FIN the kernel sends
 *   then and there): 0.08 ms per call, p50, in front of a closing upstream (issue #41, round 4).
 *
 * So, from the moment such an answer is complete until the current tick ends, errors capture no
 * stack frames, and a socket handed to undici through {@link closingAfterTheAnswer} puts that
 * `reset` destroy off until the event loop's next check phase (`setImmediate`): after the promise
 * continuations, which carry the answer on to the client. Meanwhile undici has marked the socket
 * reset (it writes no request on it again) and counts it destroyed; any other destroy (a timeout,
 * a shutdown, an error) happens at once, as before.
 */
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';

let closingTick = false;
let restoreAt: number | undefined;

/**
 * A complete answer that closes its connection was handed over: until the current tick ends, errors
 * capture no stack frames, and a watched socket's `reset` destroy waits for the next check phase.
 */
export function closingAnswerComplete(): void {
  if (closingTick) return;
  closingTick = true;
  restoreAt = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  process.nextTick(() => {
    if (restoreAt !== undefined) Error.stackTraceLimit = restoreAt;
    restoreAt = undefined;
    closingTick = false;
  });
}

/** Lets undici's `reset` destroy of `socket`, asked for as a closing answer completes, wait (see above). */
export function closeAfterTheAnswer<S extends Socket>(socket: S): S {
  const destroy = socket.destroy;
  socket.destroy = function destroyAfterTheAnswer(this: S, error?: Error) {
    if (!closingTick || !isReset(error)) return destroy.call(this, error);
    setImmediate(() => destroy.call(this, error));
    return this;
  };
  return socket;
}

/** `connector` with each socket it hands to undici watched by {@link closeAfterTheAnswer}. */
export function closingAfterTheAnswer(connector: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connector(options, (...args) => {
      if (args[0] === null) callback(null, closeAfterTheAnswer(args[1]));
      else callback(args[0], null);
    });
}

/** The error undici closes a connection with once its answer is complete (`InformationalError`). */
function isReset(error: Error | undefined): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'UND_ERR_INFO';
}

/** True when an answer with these headers makes its connection close once it has been read. */
export function closesAfterAnswer(headers: Record<string, string | string[] | undefined>): boolean {
  const connection = headers.connection;
  const values = Array.isArray(connection) ? connection : connection === undefined ? [] : [connection];
  return values.some((v) => v.split(',').some((token) => token.trim().toLowerCase() === 'close'));
}
