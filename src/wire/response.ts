/** What every dialect handler returns: framework-free, turned into an HTTP answer by the server. */
import type { LegacyError } from '../errors.ts';

export interface WireResponse {
  status: number;
  contentType: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
}

/** One call's outcome, reported to the access log and metrics. Never carries arguments. */
export interface CallOutcome {
  service: string;
  method: string;
  model?: string | undefined;
  /** For `object` calls: the model method (`search_read`), `method` being `execute_kw`. */
  modelMethod?: string | undefined;
  error?: LegacyError;
}
