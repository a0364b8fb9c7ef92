/**
 * Whether the upstream speaks the other scheme than its URL says: an https URL in front of a
 * plain-HTTP Odoo fails its TLS handshake, and an http URL in front of a TLS port gets its
 * connection closed. Either way the transport error alone says nothing useful, so the start-up
 * check asks the other scheme once and names the mismatch.
 */
import { request } from 'node:http';
import { connect } from 'node:tls';

/** `'https'`/`'http'`: the scheme the upstream answered instead of its URL's; undefined: no mismatch found. */
export function probeOtherScheme(upstreamUrl: string, timeoutMs: number): Promise<'http' | 'https' | undefined> {
  const url = new URL(upstreamUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    const done = (scheme: 'http' | 'https' | undefined) => {
      clearTimeout(timer);
      resolve(scheme);
    };
    if (url.protocol === 'http:') {
      // a TLS handshake that completes on the http URL's port: the upstream speaks https
      const socket = connect({ host, port, servername: host, rejectUnauthorized: false });
      socket.once('secureConnect', () => (socket.destroy(), done('https')));
      socket.once('error', () => done(undefined));
      return;
    }
    // an HTTP answer on the https URL's port: the upstream speaks plain http
    const req = request({ host, port, path: '/web/version', method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      done('http');
    });
    req.once('error', () => done(undefined));
    req.end();
  });
}
