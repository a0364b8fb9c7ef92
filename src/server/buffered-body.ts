/**
 * Request buffering for the passthrough, as nginx's `proxy_request_buffering`: a body is read whole
 * from the client before the upstream request is opened, so a client trickling its body holds a
 * gateway connection, not an Odoo thread or worker (issue #21). A body over the cap — declared or
 * found while reading — is streamed instead: what was read first, then the rest as it arrives.
 */

/** The body to forward: whole bytes, or a stream for a body over the cap. */
export type ForwardBody = Uint8Array | AsyncIterable<Uint8Array>;

/**
 * Reads `body` up to `maxBytes`. A `declared` length over the cap streams at once without waiting
 * for any of it. Rejects when the client fails or abandons the body while it is read.
 */
export async function bufferBody(body: ReadableStream<Uint8Array>, declared: number | undefined, maxBytes: number): Promise<ForwardBody> {
  if (declared !== undefined && declared > maxBytes) return body;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, size);
    chunks.push(value);
    size += value.byteLength;
    if (size > maxBytes) return rest(chunks, reader);
  }
}

async function* rest(first: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* first;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
