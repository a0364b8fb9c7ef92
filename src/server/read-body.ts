/**
 * Reads a request body up to a byte cap, counting bytes as they arrive (a Content-Length is not
 * trusted), so an oversized body is refused without being buffered.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/** The declared body length, or undefined when there is none (chunked) or it is malformed. */
export function declaredLength(headers: IncomingHttpHeaders): number | undefined {
  const length = headers['content-length'];
  return length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
}

/** The whole body, or `undefined` when it exceeds `maxBytes` (the rest is not read). */
export async function readBody(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | undefined> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * The body straight from Node's request, or `undefined` past `maxBytes`: at once when the declared
 * Content-Length is over (werkzeug's check, nothing read), else as soon as the count passes it. Past
 * the cap the request is left paused, its rest unread, for `discardRest` (linger.ts). Rejects when
 * the client closes before the end, as reading a stream does.
 */
export function readIncomingBody(incoming: Readable & { headers: IncomingHttpHeaders }, maxBytes: number): Promise<Uint8Array | undefined> {
  if ((declaredLength(incoming.headers) ?? 0) > maxBytes) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (finish: () => void) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      finish();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= maxBytes) chunks.push(chunk);
      else {
        incoming.pause();
        settle(() => resolve(undefined));
      }
    };
    const onEnd = () => settle(() => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    const onError = (err: Error) => settle(() => reject(err));
    const onClose = () => settle(() => reject(new Error('aborted: the client closed the connection before the end of its body')));
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
