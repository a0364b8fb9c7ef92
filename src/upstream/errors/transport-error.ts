/**
 * Maps a failure to reach the upstream (undici or Node socket errors) to a LegacyError, by error
 * code, never by message (docs/architecture.md §2).
 */
import { LegacyError, upstreamErrorName, type LegacyErrorKind } from '../../errors.ts';

/** Codes that mean "no answer in time". */
const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/**
 * An upstream failure as the client sees it: fault 1 whose last line is
 * `legacy_rpc_gateway.UpstreamError: <what happened> (<upstream URL>, <elapsed> ms)`.
 */
export function upstreamError(kind: LegacyErrorKind, what: string, url: string, elapsedMs: number, cause?: unknown): LegacyError {
  return new LegacyError(kind, {
    name: upstreamErrorName,
    message: `${what} (${url}, ${Math.round(elapsedMs)} ms)`,
    cause,
  });
}

/** Classifies a thrown transport error; `timedOut` says whether our own call deadline fired. */
export function errorFromTransport(err: unknown, url: string, elapsedMs: number, timedOut: boolean): LegacyError {
  if (err instanceof LegacyError) return err;
  const code = codeOf(err);
  if (timedOut || timeoutCodes.has(code)) {
    return upstreamError('upstream_timeout', 'upstream did not answer in time', url, elapsedMs, err);
  }
  if (code === 'ABORT_ERR' || (err instanceof Error && err.name === 'AbortError')) {
    return upstreamError('upstream_unavailable', 'call aborted: the client went away', url, elapsedMs, err);
  }
  const what =
    code === 'ECONNREFUSED'
      ? 'upstream refused the connection'
      : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE'
        ? 'upstream closed the connection'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'upstream host name does not resolve'
          : `upstream request failed${code ? ` (${code})` : ''}`;
  return upstreamError('upstream_unavailable', what, url, elapsedMs, err);
}

function codeOf(err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; cause?: { code?: unknown } };
    if (typeof e.code === 'string') return e.code;
    if (e.cause && typeof e.cause.code === 'string') return e.cause.code;
  }
  return '';
}
