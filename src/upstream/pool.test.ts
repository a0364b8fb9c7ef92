/**
 * `createUpstreamHttp().send()`: one exchange read whole through undici's dispatch handler (issue
 * #22). What `request()` gave before must still hold: the text (a BOM dropped, chunks joined), the
 * headers, the caller's signal ending the exchange with its reason, and an upstream that closes
 * after every answer (Odoo) serving one call after another.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallValues, type CallOrigin } from '../call.ts';
import { loadConfig } from '../config.ts';
import { cutAfterSendingOf, LegacyError } from '../errors.ts';
import { createUpstreamHttp, type UpstreamHttp } from './pool.ts';

let server: Server;
let http: UpstreamHttp;
/** Requests that reached the upstream, by path. */
const seen: string[] = [];

const origin = (signal: AbortSignal = new AbortController().signal): CallOrigin => ({
  host: '',
  ip: '127.0.0.1',
  proto: 'http',
  userAgent: '',
  requestId: 't',
  values: createCallValues(),
  signal,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      // like Odoo: every answer closes its connection
      res.setHeader('connection', 'close');
      if (req.url === '/chunks') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-odoo': 'yes' });
        res.write('\uFEFF[1, ');
        setTimeout(() => res.end('"é"]'), 20);
      } else if (req.url === '/hang') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
      } else res.writeHead(200, { 'content-type': 'application/json' }).end(`{"path": "${req.url}"}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  http = createUpstreamHttp(loadConfig(['--upstream', `http://127.0.0.1:${port}`], {}));
});

/** Connections the upstream holds open now. */
const connections = () => new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

afterAll(async () => {
  await http.close();
  server.closeAllConnections();
  server.close();
});

describe('send()', () => {
  it('reads the whole answer as text, chunks joined and a BOM dropped, with its status and headers', async () => {
    const res = await http.send({ method: 'POST', path: '/chunks', headers: {}, body: '{}' }, origin());
    expect(res).toMatchObject({ status: 200, contentType: 'application/json', text: '[1, "é"]' });
    expect(res.headers['x-odoo']).toBe('yes');
  });

  it('serves one call after another on an upstream that closes every connection, with error stacks intact after each', async () => {
    const limit = Error.stackTraceLimit;
    for (let i = 0; i < 5; i++) {
      const res = await http.send({ method: 'POST', path: `/n${i}`, headers: {}, body: '{}' }, origin());
      expect(res.text).toBe(`{"path": "/n${i}"}`);
      // the closing connection's error is made without a stack (closing-answer.ts), nothing after it
      expect(Error.stackTraceLimit).toBe(limit);
    }
  });

  it('closes each connection after its answer has gone on: concurrent calls never land on a closing one, and none is left open', async () => {
    const before = await connections();
    const paths = Array.from({ length: 40 }, (_, i) => `/c${i}`);
    const texts: string[] = [];
    // eight at a time, over the pool's connections, each closed by the upstream after its answer
    for (let i = 0; i < paths.length; i += 8) {
      const batch = await Promise.all(
        paths.slice(i, i + 8).map((path) => http.send({ method: 'POST', path, headers: {}, body: '{}' }, origin())),
      );
      texts.push(...batch.map((res) => res.text));
    }
    expect(texts).toEqual(paths.map((path) => `{"path": "${path}"}`));
    // the deferred closes ran: the upstream holds no more connections than before (a spare at most)
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await connections()).toBeLessThanOrEqual(Math.max(before, 1));
  });

  it('ends a stalled exchange with the reason its signal was aborted with', async () => {
    const controller = new AbortController();
    const reason = new LegacyError('upstream_unavailable', { name: 'X', message: 'shutting down' });
    const pending = http.send({ method: 'POST', path: '/hang', headers: {}, body: '{}' }, origin(controller.signal));
    setTimeout(() => controller.abort(reason), 50);
    // its copy, marked as cut after it was sent (a write's outcome is then unknown)
    const err = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LegacyError);
    expect(err).toMatchObject({ kind: reason.kind, name: reason.name, message: reason.message, cause: reason });
    expect(cutAfterSendingOf(err)).toBe('shutdown');
  });

  it('names a client that went away when the signal carries no LegacyError', async () => {
    const controller = new AbortController();
    const pending = http.send({ method: 'POST', path: '/hang', headers: {}, body: '{}' }, origin(controller.signal));
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow(/call aborted: the client went away/);
  });

  it('sends nothing for a signal aborted before the call', async () => {
    const before = seen.length;
    const controller = new AbortController();
    controller.abort();
    await expect(http.send({ method: 'POST', path: '/never', headers: {}, body: '{}' }, origin(controller.signal))).rejects.toThrow(
      /client went away/,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.slice(before)).toEqual([]);
  });

  it('turns a header undici refuses into an UpstreamError, not a throw from dispatch', async () => {
    await expect(http.send({ method: 'POST', path: '/bad', headers: { 'x-db': 'gw\r\nX: 1' }, body: '{}' }, origin())).rejects.toThrow(
      /UND_ERR_INVALID_ARG|upstream request failed/,
    );
  });
});
