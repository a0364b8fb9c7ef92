/**
 * Starting and stopping the gateway's two HTTP servers (client port, admin port) with
 * @hono/node-server, and the client port's graceful drain (docs/architecture.md §8).
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { InFlight } from './in-flight.ts';

type FetchHandler = Parameters<typeof serve>[0]['fetch'];

/**
 * Listens on `host:port` (0: a free port); rejects when the address cannot be bound. A client that
 * has not sent its whole request within `requestTimeoutMs` (headers within at most 60 s) gets Node's
 * 408 and its connection is closed (slow-loris); the check runs often enough for short timeouts.
 */
export function listen(fetch: FetchHandler, host: string, port: number, requestTimeoutMs = 300_000): Promise<ServerType> {
  const serverOptions = {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(60_000, requestTimeoutMs),
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(requestTimeoutMs / 4))),
  };
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: host, serverOptions }, () => {
      server.off('error', reject);
      resolve(server);
    });
    server.once('error', reject);
  });
}

/** The bound port of a listening server. */
export function portOf(server: ServerType): number {
  return (server.address() as AddressInfo).port;
}

/** `http://host:port`, with brackets around an IPv6 host. */
export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Stops the server at once: no new connections, open ones closed. */
export function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}

/**
 * Graceful stop of the client port: stops accepting connections (idle keep-alive ones close), lets
 * in-flight requests finish for up to `graceMs`, then calls `onGraceOver` (running calls are aborted
 * with a fault) and gives their answers up to `answerMs` to be written, then closes whatever is left,
 * websocket tunnels included. Resolves `true` when every request finished in time.
 */
export async function drainServer(
  server: ServerType,
  inFlight: InFlight,
  graceMs: number,
  onGraceOver?: () => void,
  answerMs = 1000,
): Promise<boolean> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const drained = await inFlight.drain(graceMs);
  if (!drained && onGraceOver !== undefined) {
    onGraceOver();
    await inFlight.drain(answerMs);
  }
  if ('closeAllConnections' in server) server.closeAllConnections();
  inFlight.closeTunnels();
  await closed;
  return drained;
}
