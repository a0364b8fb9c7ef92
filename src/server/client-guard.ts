/**
 * Two limits on the client port, nginx's `send_timeout` and `worker_connections`:
 *
 * - **Send timeout.** Once an answer's headers are written, a client that takes nothing for
 *   `--send-timeout` while bytes wait for it is cut off: its connection is destroyed (the answer is
 *   truncated; a streamed dump then stops reading the upstream). Waiting for the upstream does not
 *   count — only bytes queued for a client that does not read them.
 * - **Connection cap.** Connections beyond `--max-connections` get `503` with `Connection: close`
 *   on their first request (or upgrade), and are closed if they send none within a few seconds.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface ClientGuardOptions {
  sendTimeoutMs: number;
  maxConnections: number;
  /** Hears each client cut off by the send timeout. */
  onSendTimeout?: () => void;
  /** Hears each connection refused by the cap. */
  onRefused?: () => void;
}

/** Milliseconds an over-cap connection may take to send its request before it is closed unanswered. */
const overCapGraceMs = 5000;

const refusalText = '503 Service Unavailable: the gateway has too many open connections (--max-connections); retry shortly.\n';

/** A raw HTTP/1.1 503 for a socket with no response object (an upgrade request). */
const rawRefusal =
  `HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(refusalText)}\r\n` +
  `Retry-After: 1\r\nConnection: close\r\n\r\n${refusalText}`;

interface Watched {
  /** Bytes the kernel had accepted at the last check. */
  accepted: number;
  /** When they last grew (or the watch started). */
  since: number;
}

export interface ClientGuard {
  /** Counts the server's connections and watches its answers from now on. */
  attach(server: Server): void;
  /** True when this connection is over the cap: its request gets {@link refusal}. */
  refuses(socket: Duplex | undefined | null): boolean;
  /** The answer a refused request gets (counted). */
  refusal(): Response;
  /** Refuses an upgrade request on its raw socket (counted). */
  refuseUpgrade(socket: Duplex): void;
  /** Client connections open now. */
  readonly open: number;
  /** Stops the sweep timer. */
  close(): void;
}

export function createClientGuard({
  sendTimeoutMs,
  maxConnections,
  onSendTimeout = () => {},
  onRefused = () => {},
}: ClientGuardOptions): ClientGuard {
  let open = 0;
  const overCap = new WeakSet<Duplex>();
  const watched = new Map<ServerResponse, Watched>();
  let sweep: NodeJS.Timeout | undefined;
  let attached = false;
  const sweepMs = Math.max(25, Math.min(1000, Math.floor(sendTimeoutMs / 4)));

  /**
   * The sweep runs only while answers are watched: an idle gateway's timer woke it every second
   * for nothing (issue #41).
   */
  function watch(res: ServerResponse, w: Watched) {
    watched.set(res, w);
    if (sweep === undefined && attached) {
      sweep = setInterval(() => check(performance.now()), sweepMs);
      sweep.unref();
    }
  }
  function unwatch(res: ServerResponse) {
    watched.delete(res);
    if (watched.size === 0 && sweep !== undefined) {
      clearInterval(sweep);
      sweep = undefined;
    }
  }

  /** Bytes of this socket the kernel accepted: dispatched minus what still waits in libuv's queue. */
  function acceptedBytes(socket: Socket): number {
    const queued = (socket as Socket & { _handle?: { writeQueueSize?: number } | null })._handle?.writeQueueSize ?? 0;
    return (socket.bytesWritten ?? 0) - socket.writableLength - queued;
  }

  function check(now: number) {
    for (const [res, w] of watched) {
      const socket = res.socket;
      if (socket === null || !res.headersSent || res.writableFinished || socket.destroyed) {
        w.since = now;
        continue;
      }
      const accepted = acceptedBytes(socket);
      const waiting = res.writableLength > 0 || socket.writableLength > 0 || accepted < (socket.bytesWritten ?? 0);
      if (accepted !== w.accepted || !waiting) {
        w.accepted = accepted;
        w.since = now;
      } else if (now - w.since >= sendTimeoutMs) {
        unwatch(res);
        onSendTimeout();
        socket.destroy();
      }
    }
  }

  return {
    attach(server) {
      server.on('connection', (socket: Socket) => {
        open++;
        socket.once('close', () => open--);
        if (open > maxConnections) {
          overCap.add(socket);
          const timer = setTimeout(() => socket.destroy(), overCapGraceMs);
          timer.unref();
          socket.once('close', () => clearTimeout(timer));
        }
      });
      attached = true;
      server.on('request', (_req, res: ServerResponse) => {
        watch(res, { accepted: res.socket === null ? 0 : acceptedBytes(res.socket), since: performance.now() });
        res.once('close', () => unwatch(res));
      });
    },
    refuses: (socket) => socket != null && overCap.has(socket),
    refusal() {
      onRefused();
      return new Response(refusalText, {
        status: 503,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1', connection: 'close' },
      });
    },
    refuseUpgrade(socket) {
      onRefused();
      socket.end(rawRefusal);
    },
    get open() {
      return open;
    },
    close() {
      attached = false;
      if (sweep !== undefined) clearInterval(sweep);
      sweep = undefined;
    },
  };
}
