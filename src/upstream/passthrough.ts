/**
 * The raw HTTP exchange behind the passthrough (docs/architecture.md §6): one request forwarded to the upstream
 * with its body (read whole by the handler, in memory or from a temporary file), the answer's status, headers and body handed back as they
 * arrive — nothing decoded, no size limit, redirects not followed. Its own undici
 * Pool, so browser traffic cannot take the connections legacy calls need.
 */
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { Config } from '../config.ts';
import type { LegacyError } from '../errors.ts';
import { createUpstreamPool } from './pool.ts';
import { errorFromTransport } from './errors/index.ts';

/** One request to forward. Headers are final: the caller removed hop-by-hop headers and added forwarded ones. */
export interface PassthroughRequest {
  method: string;
  /** Path and query below the upstream base URL, starting with `/`, as the client sent them. */
  target: string;
  headers: Record<string, string | string[]>;
  /** The body read whole, or a stream of it (from disk); `null` for none. */
  body: Uint8Array | AsyncIterable<Uint8Array> | null;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** The upstream's answer, its body still arriving. */
export interface PassthroughResponse {
  status: number;
  /** Names lower-cased; repeated headers (`set-cookie`) as arrays. */
  headers: IncomingHttpHeaders;
  /** Pull-based, so a slow client slows the upstream read; cancelling it drops the upstream body. */
  body: ReadableStream<Uint8Array>;
}

/** The passthrough's upstream side. */
export interface PassthroughClient {
  /** Forwards one request; rejects with a LegacyError of kind `upstream_timeout` or `upstream_unavailable`. */
  forward(request: PassthroughRequest): Promise<PassthroughResponse>;
  close(): Promise<void>;
}

/**
 * Creates the passthrough pool, at most `--passthrough-connections` exchanges at once; answers must start within `--call-timeout` once the
 * request is sent, and a body may pause at most that long between two chunks.
 */
export function createPassthroughClient(config: Config): PassthroughClient {
  // --passthrough-connections: exchanges beyond wait here for a free connection, not in Odoo
  const { pool, prefix, url } = createUpstreamPool(config, config.passthroughConnections);

  return {
    async forward(request) {
      const started = performance.now();
      const fail = (err: unknown): LegacyError => errorFromTransport(err, url, performance.now() - started, false);
      let res: Dispatcher.ResponseData;
      try {
        res = await pool.request({
          method: request.method,
          path: prefix + request.target,
          headers: request.headers,
          body:
            request.body === null || request.body instanceof Uint8Array || request.body instanceof Readable
              ? request.body
              : Readable.from(request.body, { objectMode: false }),
          signal: request.signal,
        });
      } catch (err) {
        throw fail(err);
      }
      const upstreamBody = res.body;
      const chunks = upstreamBody[Symbol.asyncIterator]();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const next = await chunks.next();
            if (next.done) controller.close();
            else controller.enqueue(next.value as Uint8Array);
          } catch (err) {
            controller.error(fail(err));
          }
        },
        cancel() {
          upstreamBody.destroy();
        },
      });
      return { status: res.statusCode, headers: res.headers, body };
    },
    close: () => pool.close(),
  };
}
