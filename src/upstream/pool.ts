/**
 * The one HTTP client to the upstream: an undici Pool with keep-alive, bounded connections and
 * timeouts, plus `send()` which times the exchange and turns transport failures into LegacyErrors.
 * Only this folder imports undici.
 */
import { Pool, buildConnector, type Dispatcher, type FormData } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { connectAhead } from './connect-ahead.ts';
import { closesAfterAnswer, closingAfterTheAnswer, closingAnswerComplete } from './closing-answer.ts';
import { tlsOptionsFrom } from './tls.ts';
import { errorFromTransport, upstreamError } from './errors/index.ts';
import { LegacyError, sentThenCut } from '../errors.ts';

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Path below the upstream base URL, starting with `/`. */
  path: string;
  headers: Record<string, string>;
  /** The database the request names in its database headers, if any (for traces). */
  database?: string;
  /** A text body, its UTF-8 bytes (JSON-2 calls), or a multipart form (undici's FormData sets the content type and boundary). */
  body?: string | Uint8Array | FormData;
  /** Replaces the call timeout as the headers and body timeout (db operations use --db-timeout). */
  timeoutMs?: number;
}

export interface UpstreamResponse {
  status: number;
  contentType: string;
  headers: IncomingHttpHeaders;
  text: string;
  elapsedMs: number;
}

/** An answer whose body is read as it arrives (database backups). */
export interface UpstreamStream {
  status: number;
  contentType: string;
  headers: IncomingHttpHeaders;
  /** The body, once; a transport failure while reading it throws the LegacyError `send` would. */
  body: AsyncIterable<Uint8Array>;
  /** Reads the whole body as text instead (an error page). */
  text(): Promise<string>;
  /** Milliseconds until the headers arrived. */
  elapsedMs: number;
}

export interface UpstreamHttp {
  /** The upstream base URL, for messages. */
  readonly url: string;
  /** Sends one request and reads the whole answer; throws LegacyError when no answer arrives. */
  send(request: UpstreamRequest, origin: CallOrigin): Promise<UpstreamResponse>;
  /**
   * Sends one request and resolves as soon as the headers arrive, the body still to be read. Test
   * doubles that only answer whole bodies leave it out: {@link openStream} falls back to `send`.
   */
  open?(request: UpstreamRequest, origin: CallOrigin): Promise<UpstreamStream>;
  close(): Promise<void>;
}

/** `http.open()`, or for a double without it, `send()` with its whole body as the one chunk. */
export async function openStream(http: UpstreamHttp, request: UpstreamRequest, origin: CallOrigin): Promise<UpstreamStream> {
  if (http.open !== undefined) return http.open(request, origin);
  const res = await http.send(request, origin);
  return {
    status: res.status,
    contentType: res.contentType,
    headers: res.headers,
    body: (async function* whole() {
      yield new TextEncoder().encode(res.text);
    })(),
    text: async () => res.text,
    elapsedMs: res.elapsedMs,
  };
}

/**
 * An undici Pool to the upstream origin with the configured timeouts and TLS, plus the base path
 * prefix and the base URL for messages. `connections: null` means unbounded. `ahead`: the legacy
 * calls' pool, which connects ahead (`--connect-ahead`) and closes a connection Odoo closes only
 * once its answer has gone on (closing-answer.ts).
 */
export function createUpstreamPool(
  config: Config,
  connections: number | null,
  { ahead = false } = {},
): { pool: Pool; prefix: string; url: string; closeSpare(): void } {
  const base = new URL(config.upstream);
  const prefix = base.pathname.replace(/\/+$/, '');
  const build = { ...tlsOptionsFrom(config), timeout: config.connectTimeoutMs };
  const spares = ahead && config.connectAheadMs > 0 ? connectAhead({ build, spareMs: config.connectAheadMs }) : undefined;
  // the legacy calls' connections close after their answer has gone on (closing-answer.ts)
  const connector = ahead ? closingAfterTheAnswer(spares ?? buildConnector(build)) : tlsOptionsFrom(config);
  const pool = new Pool(base.origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    connectTimeout: config.connectTimeoutMs,
    headersTimeout: config.callTimeoutMs,
    bodyTimeout: config.callTimeoutMs,
    connect: connector,
  });
  return { pool, prefix, url: `${base.origin}${prefix}`, closeSpare: () => spares?.close() };
}

/** Connections the legacy services use at most: every kind of work's share, and the slow lane. */
export function upstreamConnectionsTotal(
  config: Pick<Config, 'upstreamConnections' | 'keyConnections' | 'dbConnections' | 'slowConnections' | 'slowCallMs'>,
): number {
  return config.upstreamConnections + config.keyConnections + config.dbConnections + (config.slowCallMs > 0 ? config.slowConnections : 0);
}

export function createUpstreamHttp(config: Config): UpstreamHttp {
  // legacy calls only: they come one after another, each on a connection Odoo closes after it;
  // the shares of each kind of work (upstream-shares.ts) bound them, the pool holds them all
  const { pool, prefix, url, closeSpare } = createUpstreamPool(config, upstreamConnectionsTotal(config), { ahead: true });

  // the request was sent (its share held, the exchange begun): cut by the call's deadline or the
  // shutdown, Odoo may have run it all the same — the error says so (a write's outcome is unknown)
  const failure = (err: unknown, origin: CallOrigin, started: number) => {
    const timedOut = origin.signal.aborted && isTimeout(origin.signal.reason);
    const error = errorFromTransport(err, url, performance.now() - started, timedOut);
    if (timedOut) return sentThenCut(error, 'call_timeout');
    return origin.signal.aborted && origin.signal.reason instanceof LegacyError ? sentThenCut(error, 'shutdown') : error;
  };
  const dispatch = (request: UpstreamRequest, origin: CallOrigin) =>
    pool.request({
      method: request.method,
      path: prefix + request.path,
      headers: request.headers,
      body: request.body ?? null,
      signal: origin.signal,
      ...(request.timeoutMs === undefined ? {} : { headersTimeout: request.timeoutMs, bodyTimeout: request.timeoutMs }),
    });

  return {
    url,
    async open(request, origin) {
      const started = performance.now();
      let res: Awaited<ReturnType<typeof dispatch>>;
      try {
        res = await dispatch(request, origin);
      } catch (err) {
        throw failure(err, origin, started);
      }
      const raw = res.body;
      async function* body(): AsyncGenerator<Uint8Array> {
        try {
          for await (const chunk of raw) yield chunk as Uint8Array;
        } catch (err) {
          throw failure(err, origin, started);
        }
      }
      return {
        status: res.statusCode,
        contentType: contentTypeOf(res.headers),
        headers: res.headers,
        body: body(),
        text: () => raw.text().catch((err: unknown) => Promise.reject(failure(err, origin, started))),
        elapsedMs: performance.now() - started,
      };
    },
    async send(request, origin) {
      const started = performance.now();
      try {
        const res = await exchange(pool, { ...request, path: prefix + request.path }, origin, config.maxAnswerBytes, url, started);
        return { ...res, contentType: contentTypeOf(res.headers), elapsedMs: performance.now() - started };
      } catch (err) {
        throw failure(err, origin, started);
      }
    },
    close: () => {
      closeSpare();
      return pool.close();
    },
  };
}

/**
 * One request whose whole answer is read as text, through undici's dispatch handler rather than
 * `request()`: the answer's chunks are collected as they arrive, with no Readable stream and async
 * iterator between the socket and the text (the part of a small call's cost that comes
 * after the upstream's last byte). The body is counted as it arrives (a declared Content-Length is
 * checked first): past `maxBytes` the exchange is aborted and the call fails naming `--max-answer`,
 * before the gateway holds several times the answer in memory (300 MB of JSON took RSS
 * to 1.5 GB). The caller's signal aborts it as `request()` would, with the signal's reason.
 */
function exchange(
  pool: Pool,
  request: UpstreamRequest,
  origin: CallOrigin,
  maxBytes: number,
  url: string,
  started: number,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const { signal } = origin;
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    let closing = false;
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => controller?.abort(abortReason(signal));
    const tooLarge = () =>
      upstreamError('upstream_invalid', `upstream answer exceeds ${maxBytes} bytes (--max-answer)`, url, performance.now() - started);
    const settle = () => signal.removeEventListener('abort', onAbort);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (signal.aborted) c.abort(abortReason(signal));
        else signal.addEventListener('abort', onAbort, { once: true });
      },
      onResponseStart(c, statusCode, responseHeaders) {
        status = statusCode;
        headers = responseHeaders;
        closing = closesAfterAnswer(responseHeaders);
        const declared = Number(responseHeaders['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) c.abort(tooLarge());
      },
      onResponseData(c, chunk) {
        size += chunk.length;
        if (size > maxBytes) c.abort(tooLarge());
        else chunks.push(chunk);
      },
      onResponseEnd() {
        // undici closes the connection next, with an error whose stack nobody reads: both wait (closing-answer.ts)
        if (closing) closingAnswerComplete();
        settle();
        // TextDecoder drops a BOM, as undici's body.text() does
        resolve({ status, headers, text: utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)) });
      },
      onResponseError(_c, err) {
        settle();
        reject(err);
      },
    };
    try {
      pool.dispatch(
        {
          method: request.method,
          path: request.path,
          headers: request.headers,
          body: request.body ?? null,
          ...(request.timeoutMs === undefined ? {} : { headersTimeout: request.timeoutMs, bodyTimeout: request.timeoutMs }),
        },
        handler,
      );
    } catch (err) {
      settle();
      reject(err);
    }
  });
}

/** An answer's Content-Type (the first, should it come twice), or '' without one. */
export function contentTypeOf(headers: IncomingHttpHeaders): string {
  const ct = headers['content-type'];
  return (Array.isArray(ct) ? ct[0] : ct) ?? '';
}

/** What an aborted signal rejects with: its reason, as `request()` gives it. */
function abortReason(signal: AbortSignal): Error {
  return (signal.reason as Error | undefined) ?? new DOMException('This operation was aborted', 'AbortError');
}

const utf8 = new TextDecoder();

function isTimeout(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'TimeoutError';
}
