/**
 * The client port's work in progress, for graceful shutdown (docs/architecture.md §8): requests being answered
 * (legacy calls and passthrough) and upgraded connections (websocket tunnels). Draining waits for
 * the requests up to a grace period; tunnels are long-lived by nature and are closed at the end.
 */
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** The tracker. */
export interface InFlight {
  /** Counts a request until its response closes (finished or connection lost). */
  trackResponse(res: ServerResponse): void;
  /** Keeps an upgraded connection, to close at shutdown. */
  trackTunnel(socket: Duplex): void;
  /** Requests and tunnels open now. */
  readonly count: number;
  /** Whether {@link drain} was called. */
  readonly draining: boolean;
  /**
   * Starts draining: responses not yet started (and later ones) close their connection when done.
   * Resolves `true` once no request is in flight, or `false` when `graceMs` passed first.
   */
  drain(graceMs: number): Promise<boolean>;
  /** Destroys every tunnel still open. */
  closeTunnels(): void;
}

/**
 * Creates an empty tracker. `activity` hears when the first request starts and the last one ends
 * (the event-loop lag is sampled in between: metrics/event-loop-lag.ts).
 */
export function createInFlight(activity?: { busy(): void; idle(): void }): InFlight {
  const responses = new Set<ServerResponse>();
  const tunnels = new Set<Duplex>();
  const idleWaiters = new Set<() => void>();
  let draining = false;

  const closeAfter = (res: ServerResponse) => {
    // Connection: close once answered, so keep-alive clients reconnect elsewhere
    if (!res.headersSent) res.shouldKeepAlive = false;
  };

  return {
    trackResponse(res) {
      if (responses.size === 0) activity?.busy();
      responses.add(res);
      if (draining) closeAfter(res);
      res.once('close', () => {
        responses.delete(res);
        if (responses.size > 0) return;
        activity?.idle();
        for (const wake of idleWaiters) wake();
      });
    },
    trackTunnel(socket) {
      tunnels.add(socket);
      socket.once('close', () => tunnels.delete(socket));
    },
    get count() {
      return responses.size + tunnels.size;
    },
    get draining() {
      return draining;
    },
    drain(graceMs) {
      draining = true;
      for (const res of responses) closeAfter(res);
      if (responses.size === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const done = (drained: boolean) => {
          clearTimeout(timer);
          idleWaiters.delete(wake);
          resolve(drained);
        };
        const wake = () => done(true);
        const timer = setTimeout(() => done(false), graceMs);
        idleWaiters.add(wake);
      });
    },
    closeTunnels() {
      for (const socket of tunnels) socket.destroy();
    },
  };
}
