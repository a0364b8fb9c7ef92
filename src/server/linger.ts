/**
 * The answer to a body refused past `--max-body` while the client is still sending it. Closing the
 * connection at once makes the kernel reset it (unread data answers a close with RST), and a client
 * that writes its whole body before reading — Python's xmlrpc.client, urllib — then sees a broken
 * pipe instead of the fault. As nginx's lingering close: the answer goes out at once, then the rest
 * of the body is read and thrown away until it ends (or a bound passes), and only then does the
 * response end and its `Connection: close` close the socket.
 */
import type { Readable } from 'node:stream';

/** nginx's `lingering_time` and `lingering_timeout` defaults. */
export const lingerBounds = { totalMs: 30_000, idleMs: 5_000 };

/**
 * Reads and drops what is left of `incoming`; resolves once it ended or closed, after `idleMs`
 * without data, or after `totalMs` in all (then the close may still reset a client that keeps
 * sending: it had that long). `--request-timeout` bounds it too: Node closes a request not received
 * in time.
 */
export function discardRest(incoming: Readable, bounds = lingerBounds): Promise<void> {
  if (incoming.readableEnded || incoming.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let idle: NodeJS.Timeout;
    const done = () => {
      clearTimeout(total);
      clearTimeout(idle);
      incoming.off('data', onData).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const onData = () => {
      clearTimeout(idle);
      idle = setTimeout(done, bounds.idleMs);
    };
    const total = setTimeout(done, bounds.totalMs);
    idle = setTimeout(done, bounds.idleMs);
    incoming.on('data', onData).on('end', done).on('close', done).on('error', done);
    incoming.resume();
  });
}

/** A response body: `answer` at once, then the end only once the rest of the request is discarded. */
export async function* lingeringAnswer(answer: Uint8Array, incoming: Readable, bounds = lingerBounds): AsyncGenerator<Uint8Array> {
  yield answer;
  await discardRest(incoming, bounds);
}
