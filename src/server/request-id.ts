/**
 * Request ids: an inbound `X-Request-Id` is kept only when short and made of safe characters
 * (hono's request-id rule), else a new one is drawn.
 */
import { randomUUID } from 'node:crypto';

export const headerRequestId = 'x-request-id';
const safeId = /^[\w\-.:]{1,128}$/;

/** The id for a request: the client's if acceptable, else a fresh UUID. */
export function requestIdFrom(inbound: string | undefined): string {
  return inbound !== undefined && safeId.test(inbound) ? inbound : randomUUID();
}
