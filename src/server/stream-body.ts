/**
 * Turns a streamed answer (`db.dump`) into a `Response` body that is pulled as the client reads,
 * so at most a chunk or two is in memory whatever the size. When the source fails midway the
 * server's `cut` hook closes the connection: the client sees a truncated answer (docs/architecture.md §2).
 */

/** How the body is consumed. */
export interface StreamTarget {
  /**
   * Called once when the source fails midway; returns true when it closed the connection (the
   * stream then just ends), false when it could not (the stream errors, so the reader still sees a
   * failure).
   */
  cut(err: unknown): boolean;
  /**
   * True when a Node HTTP response writes the chunks: they stay strings, which Node copies into the
   * socket itself (no JavaScript buffer per chunk). False for Web consumers, which need bytes.
   */
  text: boolean;
}

const encoder = new TextEncoder();

/** A pull-based stream over `body` (text or byte chunks). */
export function streamResponseBody(body: AsyncIterable<string | Uint8Array>, target: StreamTarget): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array | string>(
    {
      async pull(controller) {
        let next: IteratorResult<string | Uint8Array>;
        try {
          next = await iterator.next();
        } catch (err) {
          try {
            if (target.cut(err)) controller.close();
            else controller.error(err);
          } catch {
            // already cancelled by the closed connection
          }
          return;
        }
        if (next.done) controller.close();
        else controller.enqueue(target.text || typeof next.value !== 'string' ? next.value : encoder.encode(next.value));
      },
      async cancel() {
        // The client went away: stop reading the upstream.
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return stream as ReadableStream<Uint8Array>;
}
