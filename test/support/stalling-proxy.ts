/**
 * A proxy in front of the simulator that lets the answers `shouldStall` picks through up to `bytes`
 * of their body, then stalls them until `release()`: a streamed answer (a database backup) is then
 * in flight mid-stream at a known moment (graceful-shutdown tests).
 */
import { createServer, request, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export interface StallingProxy {
  url: string;
  /** Resolves once at least `n` answers are stalled. */
  stalled(n: number): Promise<void>;
  /** Lets the stalled answers go on, and every later one through. */
  release(): void;
  close(): Promise<void>;
}

export async function stallingProxy(target: string, shouldStall: (url: string) => boolean, bytes: number): Promise<StallingProxy> {
  let stalledCount = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((req, res) => {
    const upstream = request(target + (req.url ?? '/'), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      if (!shouldStall(req.url ?? '')) return void answer.pipe(res);
      const write = (data: Buffer) => (res.write(data) ? Promise.resolve() : once(res, 'drain').then(() => undefined));
      void (async () => {
        let passed = 0;
        for await (const chunk of answer as AsyncIterable<Buffer>) {
          const cut = passed < bytes && passed + chunk.length >= bytes ? bytes - passed : -1;
          if (cut >= 0) {
            await write(chunk.subarray(0, cut));
            stalledCount++;
            for (const w of waiters.filter((x) => stalledCount >= x.n)) w.resolve();
            await released;
            await write(chunk.subarray(cut));
          } else await write(chunk);
          passed += chunk.length;
        }
        res.end();
      })().catch(() => res.destroy());
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stalled: (n) => new Promise<void>((resolve) => (stalledCount >= n ? resolve() : waiters.push({ n, resolve }))),
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
