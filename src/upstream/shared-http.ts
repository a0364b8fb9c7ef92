/**
 * The legacy services' upstream exchanges, each run within its kind of work's share of the
 * connections (work-shares.ts), as a wrapper around the {@link UpstreamHttp} contract. The kind is
 * read from the path: the web session routes and the API key model are key work, `/web/database/*`
 * are `db` transfers, everything else an ordinary call.
 */
import type { CallOrigin } from '../call.ts';
import type { UpstreamHttp, UpstreamRequest, UpstreamStream } from './pool.ts';
import type { Ticket, WorkKind, WorkShares } from './work-shares.ts';

/** The kind of work an upstream path is. */
export function workKindOf(path: string): WorkKind {
  if (path.startsWith('/web/session/') || path.startsWith('/json/2/res.users.apikeys/')) return 'keys';
  if (path.startsWith('/web/database/')) return 'db';
  return 'call';
}

/** `http` with each `send` and `open` holding a share of its kind until its answer is read. */
export function shareUpstreamHttp(http: UpstreamHttp, shares: WorkShares): UpstreamHttp {
  // the path is the cost key (a JSON-2 call's model and method); client-chosen, so a long one is not learnt
  const acquire = (request: UpstreamRequest, origin: CallOrigin) =>
    shares.acquire(workKindOf(request.path), origin.signal, request.path.length <= 256 ? request.path : undefined);
  const { open } = http;
  return {
    url: http.url,
    async send(request, origin) {
      const ticket = await acquire(request, origin);
      try {
        return await http.send(request, origin);
      } finally {
        ticket.release();
      }
    },
    ...(open === undefined
      ? {}
      : {
          async open(request, origin) {
            const ticket = await acquire(request, origin);
            try {
              return heldUntilRead(await open.call(http, request, origin), ticket);
            } catch (err) {
              ticket.release();
              throw err;
            }
          },
        }),
    close: () => http.close(),
  };
}

/** The share is given back once the body is read to its end, fails, or is abandoned (`return()`). */
function heldUntilRead(res: UpstreamStream, ticket: Ticket): UpstreamStream {
  const source = res.body;
  const body: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      const it = source[Symbol.asyncIterator]();
      return {
        async next() {
          try {
            const next = await it.next();
            if (next.done === true) ticket.release();
            return next;
          } catch (err) {
            ticket.release();
            throw err;
          }
        },
        return(value?: unknown) {
          ticket.release();
          return it.return?.(value) ?? Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
  return { ...res, body, text: () => res.text().finally(() => ticket.release()) };
}
