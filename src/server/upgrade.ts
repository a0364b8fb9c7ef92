/**
 * HTTP Upgrade passthrough (websocket: Odoo's bus at `/websocket`): @hono/node-server serves plain
 * requests, so upgrades are taken from the Node server's `upgrade` event. The request head is
 * rewritten like a passthrough request (forwarded headers, `Host` mode; `Upgrade` kept), written to
 * a fresh upstream connection. The client's bytes follow only once the upstream answered 101
 *: after a refusal the connection carries nothing more from the client, so no raw
 * request it wrote can reach Odoo (or a keep-alive proxy before it) around the gateway's routing and
 * with headers of its own. From the 101 on, bytes are piped both ways untouched.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../config.ts';
import { LegacyError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { TunnelOpener } from '../upstream/index.ts';
import { clientAddress } from './client-address.ts';
import type { InFlight } from './in-flight.ts';
import { requestHeadersToUpstream } from './proxy-headers.ts';

/** What the handler needs. */
export interface UpgradeTunnelOptions {
  open: TunnelOpener;
  config: Pick<Config, 'upstream' | 'upstreamHost' | 'trustedProxies'>;
  log: Logger;
  inFlight: InFlight;
  /** Paths the gateway answers itself: an upgrade there is refused with 400. */
  isOwnedPath: (path: string) => boolean;
}

const keepUpgrade: ReadonlySet<string> = new Set(['upgrade']);

/**
 * Creates the `upgrade` listener. Refusals are written on the raw socket: 400 on a path the gateway
 * owns, 503 while draining, 502 when the upstream cannot be reached.
 * @example server.on('upgrade', upgradeTunnel({ open, config, log, inFlight, isOwnedPath }))
 */
export function upgradeTunnel({ open, config, log, inFlight, isOwnedPath }: UpgradeTunnelOptions) {
  const base = new URL(config.upstream);
  const prefix = base.pathname.replace(/\/+$/, '');

  return function upgradeTunnelHandler(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const target = req.url?.startsWith('/') ? req.url : '/';
    const path = target.split('?')[0] as string;
    if (inFlight.draining) return refuse(socket, 503, 'Service Unavailable');
    if (isOwnedPath(path)) return refuse(socket, 400, 'Bad Request');
    const address = clientAddress(
      req.socket.remoteAddress ?? '127.0.0.1',
      header(req, 'x-forwarded-for'),
      header(req, 'x-forwarded-proto'),
      config.trustedProxies,
    );
    const headers = requestHeadersToUpstream(
      req.headers,
      { address, clientHost: req.headers.host ?? '' },
      config.upstreamHost,
      keepUpgrade,
    );
    headers.connection = 'Upgrade';
    headers.host ??= base.host; // a raw connection gets no Host from an HTTP client
    const lines = [`${req.method ?? 'GET'} ${prefix}${target} HTTP/1.1`];
    for (const [name, value] of Object.entries(headers))
      for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
    inFlight.trackTunnel(socket);

    open().then(
      (upstream) => {
        if (socket.destroyed) return void upstream.destroy();
        upstream.on('error', () => socket.destroy());
        upstream.once('close', () => socket.destroy());
        socket.once('close', () => upstream.destroy());
        upstream.setNoDelay(true);
        socket.pause(); // nothing from the client goes upstream before the 101
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        awaitAnswerHead(upstream, (answer, status) => {
          socket.write(answer);
          if (status !== 101) {
            // refused: the answer (its body too) reaches the client, and the connection ends there
            upstream.pipe(socket);
            log.debug({ path, clientIp: address.ip, status }, 'upgrade refused upstream');
            return;
          }
          if (head.length > 0) upstream.write(head);
          socket.pipe(upstream);
          upstream.pipe(socket);
          socket.resume();
          log.debug({ path, clientIp: address.ip }, 'upgrade passed through');
        });
      },
      (err: unknown) => {
        log.warn(
          { path, clientIp: address.ip, detail: LegacyError.from(err).message },
          'upgrade passthrough failed: the upstream did not answer',
        );
        refuse(socket, 502, 'Bad Gateway');
      },
    );
  };
}

/** Most bytes an upstream answer head may take before the tunnel gives up on it. */
const maxAnswerHead = 64 * 1024;

/**
 * Reads the upstream's answer head (up to the blank line), then hands it (with any bytes after it)
 * and its status over, leaving the rest of the stream to the caller. An unreadable head closes it.
 */
function awaitAnswerHead(upstream: Duplex, then: (answer: Buffer, status: number) => void): void {
  let got = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    got = Buffer.concat([got, chunk]);
    const end = got.indexOf('\r\n\r\n');
    if (end === -1) {
      if (got.length > maxAnswerHead) upstream.destroy();
      return;
    }
    upstream.off('data', onData);
    upstream.pause();
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(got.subarray(0, Math.min(end, 64)).toString('latin1'));
    if (status === null) return void upstream.destroy();
    then(got, Number(status[1]));
  };
  upstream.on('data', onData);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function refuse(socket: Duplex, status: number, reason: string): void {
  if (socket.destroyed) return;
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${reason.length + 1}\r\n\r\n${reason}\n`,
  );
}
