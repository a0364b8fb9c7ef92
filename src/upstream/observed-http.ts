/**
 * Times every upstream exchange of the legacy services for metrics, as a wrapper around the
 * {@link UpstreamHttp} contract (the way undici's interceptors wrap `dispatch`), so the pool itself
 * knows nothing about metrics.
 */
import type { UpstreamHttp } from './pool.ts';

/** Hears one exchange: its path, its status (`undefined`: no answer arrived) and its seconds until the headers. */
export type UpstreamObserver = (path: string, status: number | undefined, seconds: number) => void;

/** `http` reporting each `send` and `open` to `observe`. */
export function observeUpstreamHttp(http: UpstreamHttp, observe: UpstreamObserver): UpstreamHttp {
  async function timed<T extends { status: number }>(path: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const res = await run();
      observe(path, res.status, (performance.now() - started) / 1000);
      return res;
    } catch (err) {
      observe(path, undefined, (performance.now() - started) / 1000);
      throw err;
    }
  }
  const { open } = http;
  return {
    url: http.url,
    send: (request, origin) => timed(request.path, () => http.send(request, origin)),
    ...(open === undefined ? {} : { open: (request, origin) => timed(request.path, () => open.call(http, request, origin)) }),
    close: () => http.close(),
  };
}
