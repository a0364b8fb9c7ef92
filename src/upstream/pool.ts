/**
 * The one HTTP client to the upstream: an undici Pool with keep-alive, bounded connections and
 * timeouts, plus `send()` which times the exchange and turns transport failures into LegacyErrors.
 * Only this folder imports undici.
 */
import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { errorFromTransport } from './transport-error.ts';

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Path below the upstream base URL, starting with `/`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface UpstreamResponse {
  status: number;
  contentType: string;
  headers: IncomingHttpHeaders;
  text: string;
  elapsedMs: number;
}

export interface UpstreamHttp {
  /** The upstream base URL, for messages. */
  readonly url: string;
  /** Sends one request and reads the whole answer; throws LegacyError when no answer arrives. */
  send(request: UpstreamRequest, origin: CallOrigin): Promise<UpstreamResponse>;
  close(): Promise<void>;
}

/** Creates the pool from validated config. */
export function createUpstreamHttp(config: Config): UpstreamHttp {
  const base = new URL(config.upstream);
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = `${base.origin}${prefix}`;
  const pool = new Pool(base.origin, {
    connections: config.upstreamConnections,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    connectTimeout: config.connectTimeoutMs,
    headersTimeout: config.callTimeoutMs,
    bodyTimeout: config.callTimeoutMs,
  });

  return {
    url,
    async send(request, origin) {
      const started = performance.now();
      try {
        const res = await pool.request({
          method: request.method,
          path: prefix + request.path,
          headers: request.headers,
          body: request.body ?? null,
          signal: origin.signal,
        });
        const text = await res.body.text();
        const ct = res.headers['content-type'];
        return {
          status: res.statusCode,
          contentType: (Array.isArray(ct) ? ct[0] : ct) ?? '',
          headers: res.headers,
          text,
          elapsedMs: performance.now() - started,
        };
      } catch (err) {
        const timedOut = origin.signal.aborted && isTimeout(origin.signal.reason);
        throw errorFromTransport(err, url, performance.now() - started, timedOut);
      }
    },
    close: () => pool.close(),
  };
}

function isTimeout(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'TimeoutError';
}
