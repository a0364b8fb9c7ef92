import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { captureLog } from '../../test/support/captured-log.ts';
import { LegacyError, upstreamErrorName } from '../errors.ts';
import { isGatewayPath } from './app.ts';
import { createInFlight } from './in-flight.ts';
import { upgradeTunnel } from './upgrade.ts';

/** A duplex that keeps what is written to it. */
function recordingSocket() {
  const written: string[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString('latin1'));
      done();
    },
  });
  return Object.assign(socket, { written, setNoDelay: () => socket, remoteAddress: '198.51.100.4' });
}

function upgradeRequest(url: string, headers: Record<string, string>): IncomingMessage {
  const socket = recordingSocket();
  return { method: 'GET', url, headers, socket } as unknown as IncomingMessage;
}

const wsHeaders = {
  host: 'gw.example.com',
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'sec-websocket-version': '13',
  'x-forwarded-for': '6.6.6.6',
};
const flush = () => new Promise((resolve) => setImmediate(resolve));

function tunnel(upstreamHost: string, open: () => Promise<Socket>) {
  const inFlight = createInFlight();
  const handler = upgradeTunnel({
    open,
    config: { upstream: 'http://odoo.internal:8069/erp', upstreamHost, trustedProxies: [] },
    log: captureLog().log,
    inFlight,
    isOwnedPath: isGatewayPath,
  });
  return { handler, inFlight };
}

describe('upgradeTunnel()', () => {
  it('writes the rewritten request head upstream, then pipes both ways', async () => {
    const upstream = recordingSocket();
    const client = recordingSocket();
    const { handler, inFlight } = tunnel('upstream', async () => upstream as unknown as Socket);
    handler(upgradeRequest('/websocket?version=19.0', wsHeaders), client, Buffer.from('early'));
    await flush();
    expect(upstream.written[0]).toBe(
      'GET /erp/websocket?version=19.0 HTTP/1.1\r\n' +
        'upgrade: websocket\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n' +
        'x-forwarded-for: 198.51.100.4\r\nx-forwarded-proto: http\r\nx-forwarded-host: gw.example.com\r\n' +
        'connection: Upgrade\r\nhost: odoo.internal:8069\r\n\r\n',
    );
    expect(upstream.written).toHaveLength(1); // the client's bytes wait for the 101
    upstream.push('HTTP/1.1 101 Switching Protocols\r\n\r\n');
    await flush();
    expect(upstream.written[1]).toBe('early');
    client.push('frame');
    await flush();
    expect(client.written).toEqual(['HTTP/1.1 101 Switching Protocols\r\n\r\n']);
    expect(upstream.written[2]).toBe('frame');
    expect(inFlight.count).toBe(1);
  });

  it('after a refused upgrade, passes the refusal on and nothing more from the client: no raw request reaches the upstream', async () => {
    const upstream = recordingSocket();
    const client = recordingSocket();
    const { handler } = tunnel('upstream', async () => upstream as unknown as Socket);
    handler(
      upgradeRequest('/web/login', wsHeaders),
      client,
      Buffer.from('POST /xmlrpc/2/common HTTP/1.1\r\nX-Forwarded-For: 6.6.6.6\r\n\r\n'),
    );
    await flush();
    upstream.push('HTTP/1.1 400 BAD REQUEST\r\nContent-Length: 4\r\n\r\n');
    upstream.push('nope');
    client.push('POST /xmlrpc/2/object HTTP/1.1\r\nX-Forwarded-For: 6.6.6.6\r\nContent-Length: 0\r\n\r\n');
    await flush();
    expect(upstream.written).toHaveLength(1);
    expect(upstream.written[0]).toMatch(/^GET \/erp\/web\/login HTTP\/1\.1\r\n/);
    expect(client.written.join('')).toBe('HTTP/1.1 400 BAD REQUEST\r\nContent-Length: 4\r\n\r\nnope');
  });

  it('refuses an upgrade on a path the gateway owns', () => {
    const client = recordingSocket();
    tunnel('client', async () => recordingSocket() as unknown as Socket).handler(
      upgradeRequest('/xmlrpc/2/common', wsHeaders),
      client,
      Buffer.alloc(0),
    );
    expect(client.written.join('')).toBe(
      'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 12\r\n\r\nBad Request\n',
    );
  });

  it('refuses new upgrades while draining', async () => {
    const client = recordingSocket();
    const { handler, inFlight } = tunnel('client', async () => recordingSocket() as unknown as Socket);
    await inFlight.drain(0);
    handler(upgradeRequest('/websocket', wsHeaders), client, Buffer.alloc(0));
    expect(client.written.join('')).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
  });

  it('answers 502 when the upstream cannot be reached', async () => {
    const client = recordingSocket();
    const { handler } = tunnel('client', async () => {
      throw new LegacyError('upstream_unavailable', { name: upstreamErrorName, message: 'upstream refused the connection' });
    });
    handler(upgradeRequest('/websocket', wsHeaders), client, Buffer.alloc(0));
    await flush();
    expect(client.written.join('')).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
  });
});
