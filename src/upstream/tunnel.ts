/**
 * A raw connection to the upstream for HTTP Upgrade (websocket) passthrough: TCP, or TLS with the
 * same trust as the pool (`--upstream-ca`). The caller writes the request head and pipes bytes.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { Config } from '../config.ts';
import type { LegacyError } from '../errors.ts';
import { tlsOptionsFrom } from './tls.ts';
import { errorFromTransport } from './errors/index.ts';

/** Opens one connection to the upstream. */
export type TunnelOpener = () => Promise<Socket>;

/**
 * Creates the opener for `config.upstream`; a connection not established within
 * `--connect-timeout` rejects with a LegacyError (`upstream_timeout` / `upstream_unavailable`).
 */
export function createTunnelOpener(config: Config): TunnelOpener {
  const base = new URL(config.upstream);
  const https = base.protocol === 'https:';
  const host = base.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(base.port || (https ? 443 : 80));
  const tls = tlsOptionsFrom(config);
  const url = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;

  return () =>
    new Promise<Socket>((resolve, reject) => {
      const started = performance.now();
      const socket = https
        ? connectTls({ host, port, servername: isIp(host) ? undefined : host, ALPNProtocols: ['http/1.1'], ...tls })
        : connectTcp({ host, port });
      const fail = (err: unknown, timedOut: boolean) => {
        socket.destroy();
        reject(errorFromTransport(err, url, performance.now() - started, timedOut) satisfies LegacyError);
      };
      const timer = setTimeout(
        () => fail(Object.assign(new Error('connect timeout'), { code: 'UND_ERR_CONNECT_TIMEOUT' }), true),
        config.connectTimeoutMs,
      );
      socket.once('error', (err) => {
        clearTimeout(timer);
        fail(err, false);
      });
      socket.once(https ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(socket);
      });
    });
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
