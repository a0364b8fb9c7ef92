/**
 * Connecting ahead: Odoo closes the connection after every answer, so each call through
 * a keep-alive pool still pays a TCP (or TLS) connect before its request can leave. This connector
 * for undici readies the next connection while the current call is in flight: every connect the pool
 * asks for hands out the spare when one is ready and starts the next one.
 *
 * An upstream that keeps connections alive (nginx in front of Odoo) makes the pool connect rarely, so
 * spares are rare too; a spare nobody takes within `spareMs` is closed, so an idle gateway holds no
 * idle connection (a prefork Odoo gives each accepted connection a worker, with a 2 s read timeout),
 * and a spare the server closed meanwhile is never handed out.
 */
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';

/** What undici's `connect` option accepts as a function. */
export type Connector = buildConnector.connector;

interface Spare {
  socket: Socket;
  /** Identifies the origin the spare was made for. */
  origin: string;
  timer: NodeJS.Timeout;
  /** Drops the spare when the server closes it first; removed when the spare is handed out. */
  lost: () => void;
}

export interface ConnectAheadOptions {
  /** Options for undici's own connector (TLS CA, connect timeout). */
  build: buildConnector.BuildOptions;
  /** How long an untaken spare is kept before it is closed. */
  spareMs: number;
  /** Hears each connect: whether the spare served it (metrics, tests). */
  onConnect?: (fromSpare: boolean) => void;
}

const originOf = (o: buildConnector.Options) => `${o.protocol}//${o.hostname}:${o.port}`;

/** A connector that keeps one connection ready ahead of the pool's next need. */
export function connectAhead({ build, spareMs, onConnect }: ConnectAheadOptions): Connector & { close(): void } {
  const base = buildConnector(build);
  let ready: Spare | undefined;
  let pending = false;

  const discard = (spare: Spare) => {
    clearTimeout(spare.timer);
    if (ready === spare) ready = undefined;
    spare.socket.destroy();
  };

  function prepare(options: buildConnector.Options): void {
    if (ready !== undefined || pending) return;
    pending = true;
    base(options, (err, socket) => {
      pending = false;
      if (err !== null || socket === null) return; // the next call connects by itself and reports the failure
      const spare: Spare = {
        socket,
        origin: originOf(options),
        timer: setTimeout(() => discard(spare), spareMs),
        lost: () => discard(spare),
      };
      spare.timer.unref();
      // closed or ended by the server before anyone took it: never hand it out
      socket.on('end', spare.lost).on('close', spare.lost).on('error', spare.lost);
      if (closed) discard(spare);
      else ready = spare;
    });
  }

  let closed = false;
  const connector = ((options, callback) => {
    const spare = ready;
    if (spare !== undefined && spare.origin === originOf(options) && !spare.socket.destroyed && spare.socket.readyState === 'open') {
      ready = undefined;
      clearTimeout(spare.timer);
      spare.socket.off('end', spare.lost).off('close', spare.lost).off('error', spare.lost);
      onConnect?.(true);
      // never synchronously: undici asks for a connection from inside its dispatch loop, and a
      // connection handed back before that call returns is never written to
      process.nextTick(callback, null, spare.socket);
    } else {
      onConnect?.(false);
      base(options, callback);
    }
    // the next spare is started once this call's request is on its way (the handed-out socket is
    // written on the next tick): connecting costs the event loop ~0.1-0.2 ms of socket set-up,
    // which would otherwise come before the request leaves
    if (!closed) setImmediate(() => !closed && prepare(options));
  }) as Connector & { close(): void };
  connector.close = () => {
    closed = true;
    if (ready !== undefined) discard(ready);
  };
  return connector;
}
