/** What every dialect handler returns: framework-free, turned into an HTTP answer by the server. */
import type { LegacyError } from '../errors.ts';

export interface WireResponse {
  status: number;
  contentType: string;
  /**
   * The whole answer, or — for a streamed result (`db.dump`, large transcoded XML-RPC answers) — its
   * text (UTF-8 on the wire) or bytes as they are produced. A streamed body throws when the answer
   * must be cut short: the server then closes the connection without the rest, so the client sees a
   * truncated answer, never a success (docs/architecture.md §2). A streamed body with a `content-length` header
   * is sent with that length, otherwise chunked.
   */
  body: string | Uint8Array | AsyncIterable<string | Uint8Array>;
  headers?: Record<string, string>;
}

/** One call's outcome, reported to the access log, metrics and the migration report. Never carries arguments. */
export interface CallOutcome {
  service: string;
  method: string;
  model?: string | undefined;
  /** For `object` calls: the model method (`search_read`), `method` being `execute_kw`. */
  modelMethod?: string | undefined;
  /** The fault the answer carries. */
  error?: LegacyError;
  /** A login answered False, without a fault (`isRefusedLogin`, call.ts). */
  refusedLogin?: boolean;
}

/**
 * The outcome's one name, the same in metrics, the access log and the report: `ok`, or the error's
 * kind. A refused login is `access_denied` whichever method carried it (False from `common.login`
 * or `common.authenticate`, fault 3 from `object`).
 */
export function outcomeName(outcome: CallOutcome): string {
  if (outcome.error !== undefined) return outcome.error.kind;
  return outcome.refusedLogin === true ? 'access_denied' : 'ok';
}
