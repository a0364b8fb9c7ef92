/**
 * A child span for every upstream exchange a legacy call makes, as a wrapper around the
 * {@link UpstreamHttp} contract (like `observed-http.ts` for metrics): the request carries the
 * child's `traceparent`, so Odoo's side of the call joins the client's trace.
 */
import type { UpstreamHttp, UpstreamRequest } from '../upstream/pool.ts';
import { callSpan, type CallSpan, type UpstreamSpan } from './call-tracer.ts';

/** `http` opening a child of the call's span around each `send` and `open` (calls without a span pass as they are). */
export function traceUpstreamHttp(http: UpstreamHttp): UpstreamHttp {
  function start(span: CallSpan, request: UpstreamRequest): { span: UpstreamSpan; request: UpstreamRequest } {
    const child = span.upstream(request.method, request.path, request.database);
    return { span: child, request: { ...request, headers: { ...request.headers, ...child.headers } } };
  }
  async function traced<T extends { status: number }>(span: UpstreamSpan, run: () => Promise<T>): Promise<T> {
    try {
      const res = await run();
      span.end(res.status);
      return res;
    } catch (err) {
      span.end(undefined);
      throw err;
    }
  }
  const { open } = http;
  return {
    url: http.url,
    send(request, origin) {
      const span = origin.values.get(callSpan);
      if (span === undefined) return http.send(request, origin);
      const child = start(span, request);
      return traced(child.span, () => http.send(child.request, origin));
    },
    ...(open === undefined
      ? {}
      : {
          open(request, origin) {
            const span = origin.values.get(callSpan);
            if (span === undefined) return open.call(http, request, origin);
            const child = start(span, request);
            return traced(child.span, () => open.call(http, child.request, origin));
          },
        }),
    close: () => http.close(),
  };
}
