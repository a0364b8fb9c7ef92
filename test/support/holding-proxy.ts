/**
 * A proxy in front of the simulator that holds the requests `shouldHold` picks until `release()`,
 * so a test can have calls in flight at a known moment (graceful-shutdown tests).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HoldingProxy {
  url: string;
  /** Resolves once at least `n` requests are held. */
  holding(n: number): Promise<void>;
  /** Lets the held requests go, and every later one through. */
  release(): void;
  close(): Promise<void>;
}

export async function holdingProxy(target: string, shouldHold: (url: string) => boolean): Promise<HoldingProxy> {
  const held: Array<() => void> = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let released = false;
  const server: Server = createServer((req, res) => {
    const forward = () => {
      const upstream = request(target + (req.url ?? '/'), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (!released && shouldHold(req.url ?? '')) {
      held.push(forward);
      for (const w of waiters.filter((x) => held.length >= x.n)) w.resolve();
    } else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    holding: (n) => new Promise<void>((resolve) => (held.length >= n ? resolve() : waiters.push({ n, resolve }))),
    release: () => {
      released = true;
      held.splice(0).forEach((go) => go());
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
