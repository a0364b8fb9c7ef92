import { describe, expect, it, vi } from 'vitest';
import type { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { Duplex } from 'node:stream';
import { captureLog } from '../../test/support/captured-log.ts';
import type { LegacyCall } from '../call.ts';
import { loadConfig } from '../config.ts';
import { LegacyError } from '../errors.ts';
import { createApp, isGatewayPath } from './app.ts';
import { createInFlight } from './in-flight.ts';
import { legacyRoute, rawPathOf, werkzeugPath } from './legacy-route.ts';
import { upgradeTunnel } from './upgrade.ts';

// Spellings tried against a real Odoo 19.0 (werkzeug 2.2.2) with `curl --path-as-is`:
// each of these reached Odoo's legacy endpoint (its answer, or a 308 to the merged path).
const reachesLegacy: Array<[string, string]> = [
  ['/xmlrpc%2F2%2Fcommon', '/xmlrpc/2/common'],
  ['/xmlrpc%2F2%2Fobject', '/xmlrpc/2/object'],
  ['//xmlrpc/2/common', '/xmlrpc/2/common'],
  ['/xmlrpc//2/common', '/xmlrpc/2/common'],
  ['/xmlrpc/2//common', '/xmlrpc/2/common'],
  ['/%78mlrpc/2/common', '/xmlrpc/2/common'],
  ['/xmlrpc/%32/common', '/xmlrpc/2/common'],
  ['/xmlrpc%2F%2F2%2Fcommon', '/xmlrpc/2/common'],
  ['/xmlrpc%2Fcommon', '/xmlrpc/common'],
  ['/jsonrpc/', '/jsonrpc'],
  ['/jsonrpc%2F', '/jsonrpc'],
  ['//jsonrpc', '/jsonrpc'],
  ['///jsonrpc', '/jsonrpc'],
  ['/%2Fjsonrpc', '/jsonrpc'],
  ['/json%72pc', '/jsonrpc'],
  ['/jsonrpc//', '/jsonrpc'],
];
// ...and these did not (404 from Odoo): case matters, a decoded space is not a slash, and `/xmlrpc`
// without a service is no route (Odoo's no-database 404 page, for GET and POST alike).
const notLegacy = [
  '/XMLRPC/2/common',
  '/JSONRPC',
  '/jsonrpc%20',
  '/jsonrpc/x',
  '/web/login',
  '/xmlrpcx',
  '/%252Fjsonrpc',
  '/websocket',
  '/xmlrpc',
  '/xmlrpc/',
  '//xmlrpc',
  // one segment per service: Odoo 19.0 answers these 404, for POST and GET alike
  '/xmlrpc/2/object/x',
  '/xmlrpc/3/object',
  // werkzeug resolves no dot segment: each is 404 on Odoo 19.0
  '/xmlrpc/2/./object',
  '/xmlrpc/./2/common',
  '/xmlrpc/2/../xmlrpc/2/object',
  '/xmlrpc/2/%2e/object',
  '/xmlrpc/%2e%2e/xmlrpc/2/common',
  '/web/../xmlrpc/2/common',
  '/./jsonrpc',
  '/jsonrpc/.',
];

describe('werkzeugPath() / legacyRoute()', () => {
  it.each(reachesLegacy)('%s is routed by Odoo to %s, so the gateway owns it', (raw, route) => {
    expect(legacyRoute(raw)).toBe(route);
    expect(isGatewayPath(raw)).toBe(true);
  });

  it.each(notLegacy)('%s is not a legacy endpoint for Odoo', (raw) => {
    expect(legacyRoute(raw)).toBeUndefined();
    expect(isGatewayPath(raw)).toBe(false);
  });

  it('decodes once, as UTF-8 with replacement, and leaves a bad escape as it is', () => {
    expect(werkzeugPath('/a%252Fb')).toBe('/a%2Fb');
    expect(werkzeugPath('/a%C3%A9%FF')).toBe('/aé\ufffd');
    expect(werkzeugPath('/a%zz%2')).toBe('/a%zz%2');
  });

  it('keeps the canonical spellings as they are', () => {
    for (const p of ['/xmlrpc/2/common', '/xmlrpc/common', '/jsonrpc']) expect(legacyRoute(p)).toBe(p);
  });

  it('reads a trailing slash on an XML-RPC path as Odoo 19 does: the route without it; /xmlrpc/ alone is no route', () => {
    expect(legacyRoute('/xmlrpc/2/common/')).toBe('/xmlrpc/2/common');
    expect(legacyRoute('/xmlrpc/common/')).toBe('/xmlrpc/common');
    expect(legacyRoute('/xmlrpc/2/')).toBe('/xmlrpc/2');
    expect(legacyRoute('/xmlrpc/2/common//')).toBe('/xmlrpc/2/common');
    expect(legacyRoute('/xmlrpc/')).toBeUndefined();
  });

  it('rawPathOf() takes the path out of a URL undecoded', () => {
    expect(rawPathOf('http://h:1//xmlrpc%2F2?x=%2F#f')).toBe('//xmlrpc%2F2');
    expect(rawPathOf('http://h')).toBe('/');
  });
});

describe('createApp(): no spelling of a legacy endpoint is passed through', () => {
  const config = loadConfig(['--upstream', 'http://odoo:8069'], {});
  const body = {
    xml: '<?xml version="1.0"?><methodCall><methodName>version</methodName><params></params></methodCall>',
    json: '{"jsonrpc":"2.0","method":"call","params":{"service":"common","method":"version","args":[]}}',
  };

  it.each(reachesLegacy)('%s is answered by the gateway', async (raw) => {
    const calls: LegacyCall[] = [];
    const passthrough = vi.fn(async () => new Response('from Odoo', { headers: { server: 'Werkzeug/2.2.2' } }));
    const app = createApp({
      config,
      log: captureLog().log,
      dispatch: async (call) => {
        calls.push(call);
        throw new LegacyError('access_denied', { name: 'odoo.exceptions.AccessDenied', message: 'refused by the test dispatch' });
      },
      passthrough,
    });
    const json = legacyRoute(raw) === '/jsonrpc';
    const res = await app.request(raw, {
      method: 'POST',
      body: json ? body.json : body.xml,
      headers: { 'content-type': json ? 'application/json' : 'text/xml' },
    });
    await res.text();
    expect(passthrough).not.toHaveBeenCalled();
    const service = json ? 'common' : (legacyRoute(raw) as string).split('/').at(-1);
    expect(calls.map((c) => [c.service, c.method])).toEqual([[service, 'version']]);
  });

  it.each(notLegacy)('%s still goes to the passthrough', async (raw) => {
    const passthrough = vi.fn(async () => new Response('from Odoo'));
    const app = createApp({ config, log: captureLog().log, dispatch: () => Promise.reject(new Error('not reached')), passthrough });
    // the raw request target, as Node hands it over (a Request's URL has its dot segments resolved)
    for (const method of ['POST', 'GET']) {
      const res = await app.request(raw, method === 'POST' ? { method, body: '{}' } : { method }, {
        incoming: { url: raw } as IncomingMessage,
      });
      expect(res.status, method).toBe(200);
      expect(await res.text()).toBe('from Odoo');
    }
    expect(passthrough).toHaveBeenCalledTimes(2);
  });
});

describe('upgradeTunnel(): no spelling of a legacy endpoint is tunnelled', () => {
  it.each(reachesLegacy)('%s is refused with 400 and never opened upstream', async (raw) => {
    const written: string[] = [];
    const client = new Duplex({
      read() {},
      write(chunk: Buffer, _e, done) {
        written.push(chunk.toString('latin1'));
        done();
      },
    });
    const open = vi.fn(async () => ({}) as Socket);
    const handler = upgradeTunnel({
      open,
      config: { upstream: 'http://odoo:8069', upstreamHost: 'upstream', trustedProxies: [] },
      log: captureLog().log,
      inFlight: createInFlight(),
      isOwnedPath: isGatewayPath,
    });
    handler(
      {
        method: 'GET',
        url: `${raw}?v=1`,
        headers: { host: 'gw', upgrade: 'websocket' },
        socket: { remoteAddress: '198.51.100.4' },
      } as unknown as IncomingMessage,
      client,
      Buffer.alloc(0),
    );
    await new Promise((r) => setImmediate(r));
    expect(open).not.toHaveBeenCalled();
    expect(written.join('')).toMatch(/^HTTP\/1\.1 400 Bad Request/);
  });
});
