/**
 * Request ids: an inbound `X-Request-Id` of at most 128 word characters, `-`, `=`, `.` or `:` (as
 * many tracing ids are: `host:pid.seq`) is kept, else a fresh UUID is drawn. The RPC answers echo
 * the id (`respond` in app.ts sets the header). Read once per call where the call begins, not by a
 * middleware: hono's request-id middleware also set a response header no hand-built `Response`
 * carries, through a Headers object built per call (issue #41).
 */
import { randomUUID } from 'node:crypto';

export const headerRequestId = 'x-request-id';
const maxLength = 128;
const tracingId = /^[\w\-=.:]+$/;

/** The id of a request whose `X-Request-Id` header is `inbound` (undefined when it has none). */
export function requestIdFor(inbound: string | undefined): string {
  return inbound !== undefined && inbound.length <= maxLength && tracingId.test(inbound) ? inbound : randomUUID();
}
