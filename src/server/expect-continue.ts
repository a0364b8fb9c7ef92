/**
 * `Expect: 100-continue` (RFC 9110 §10.1.1): the client waits for `100 Continue` before sending its
 * body. Node answers it for every request unless told otherwise; a legacy call whose declared
 * Content-Length is over `--max-body` is not invited, so its size fault comes at once instead of
 * after the client has uploaded up to the limit.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { declaredLength } from './read-body.ts';

/** True when the request waits for `100 Continue`. */
export function expectsContinue(headers: IncomingMessage['headers']): boolean {
  return /(^|,)\s*100-continue\s*(,|$)/i.test(headers.expect ?? '');
}

/** True when a legacy call waiting for `100 Continue` declared a body over `maxBytes`: it gets its fault unread. */
export function refusedBeforeContinue(headers: IncomingMessage['headers'], maxBytes: number): boolean {
  return expectsContinue(headers) && (declaredLength(headers) ?? 0) > maxBytes;
}

/**
 * The server's `checkContinue` listener: `100 Continue` for every request except a legacy call
 * (`isLimited(path)`) refused by {@link refusedBeforeContinue}; the request is then handled as usual.
 */
export function continueUnlessTooLarge(server: Server, maxBytes: number, isLimited: (path: string) => boolean) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (!(isLimited(path) && refusedBeforeContinue(req.headers, maxBytes))) res.writeContinue();
    server.emit('request', req, res);
  };
}
