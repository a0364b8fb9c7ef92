/**
 * HTTP Upgrade passthrough (websocket: Odoo's bus at `/websocket`): @hono/node-server serves plain
 * requests, so upgrades are taken from the Node server's `upgrade` event. The request head is
 * rewritten like a passthrough request (forwarded headers, `Host` mode; `Upgrade` kept), written to
 * a fresh upstream connection, and from then on bytes are piped both ways untouched — the upstream's
 * own answer (101, or a refusal) included.
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
    const address = clientAddress(req.socket.remoteAddress ?? '127.0.0.1', header(req, 'x-forwarded-for'), header(req, 'x-forwarded-proto'), config.trustedProxies);
    const headers = requestHeadersToUpstream(req.headers, { address, clientHost: req.headers.host ?? '' }, config.upstreamHost, keepUpgrade);
    headers.connection = 'Upgrade';
    headers.host ??= base.host; // a raw connection gets no Host from an HTTP client
    const lines = [`${req.method ?? 'GET'} ${prefix}${target} HTTP/1.1`];
    for (const [name, value] of Object.entries(headers)) for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
    inFlight.trackTunnel(socket);

    open().then(
      (upstream) => {
        if (socket.destroyed) return void upstream.destroy();
        upstream.on('error', () => socket.destroy());
        upstream.once('close', () => socket.destroy());
        socket.once('close', () => upstream.destroy());
        upstream.setNoDelay(true);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        socket.pipe(upstream);
        upstream.pipe(socket);
        log.debug({ path, clientIp: address.ip }, 'upgrade passed through');
      },
      (err: unknown) => {
        log.warn({ path, clientIp: address.ip, detail: LegacyError.from(err).message }, 'upgrade passthrough failed: the upstream did not answer');
        refuse(socket, 502, 'Bad Gateway');
      },
    );
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function refuse(socket: Duplex, status: number, reason: string): void {
  if (socket.destroyed) return;
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${reason.length + 1}\r\n\r\n${reason}\n`);
}
