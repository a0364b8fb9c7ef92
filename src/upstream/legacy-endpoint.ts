/**
 * The upstream's own legacy endpoints (`/xmlrpc*`, `/jsonrpc`), for shadow mode and the `native` and
 * `verify` routes (`src/cutover/routes/`), each on a pool of its own: a client's
 * body sent again, unchanged, to the same path, and the whole answer read back (up to a limit). Its
 * own small undici Pool, one connection per shadow call in flight, so shadow traffic can never take
 * the connections the clients' calls need. Never logs a body.
 */
import type { CallClient } from '../call.ts';
import type { Config } from '../config.ts';
import { forwardedHeaders } from './forwarded-headers.ts';
import { contentTypeOf, createUpstreamPool } from './pool.ts';
import { errorFromTransport } from './errors/index.ts';

/** One legacy answer. */
export interface LegacyEndpointAnswer {
  status: number;
  contentType: string;
  /** The body as UTF-8 text; undefined when it was longer than the limit (not read further). */
  text: string | undefined;
  /** The body's bytes as Odoo sent them (what a `native` route answers); undefined beyond the limit. */
  bytes?: Buffer | undefined;
}

/** The client to the upstream's legacy endpoints. */
export interface LegacyEndpointClient {
  /**
   * POSTs `body` to `path` with the client's content type. Rejects with a LegacyError
   * (`upstream_timeout` / `upstream_unavailable`) when no answer arrives within `--call-timeout`.
   */
  post(path: string, body: Uint8Array, contentType: string | undefined, origin: CallClient): Promise<LegacyEndpointAnswer>;
  close(): Promise<void>;
}

/** Creates the pool: `connections` is the bound on shadow calls in flight. */
export function createLegacyEndpointClient(
  config: Config,
  { connections, maxAnswerBytes }: { connections: number; maxAnswerBytes: number },
): LegacyEndpointClient {
  const { pool, prefix, url } = createUpstreamPool(config, connections);
  return {
    async post(path, body, contentType, origin) {
      const started = performance.now();
      const signal = AbortSignal.timeout(config.callTimeoutMs);
      const headers: Record<string, string> = {
        ...forwardedHeaders(config, origin, undefined),
        'content-length': String(body.length),
      };
      if (contentType !== undefined) headers['content-type'] = contentType;
      try {
        const res = await pool.request({ method: 'POST', path: prefix + path, headers, body, signal });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > maxAnswerBytes) {
            res.body.destroy();
            return { status: res.statusCode, contentType: contentTypeOf(res.headers), text: undefined, bytes: undefined };
          }
          chunks.push(chunk as Buffer);
        }
        const bytes = Buffer.concat(chunks);
        return { status: res.statusCode, contentType: contentTypeOf(res.headers), text: bytes.toString('utf8'), bytes };
      } catch (err) {
        throw errorFromTransport(err, url, performance.now() - started, signal.aborted);
      }
    },
    close: () => pool.close(),
  };
}
