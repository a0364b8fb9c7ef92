/**
 * A call's signal fires when its client goes away mid-call, with the reason @hono/node-server's
 * Request signal gave, and never for a call that was answered (through a real Node server).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOrigin } from '../call.ts';
import { captureLog } from '../../test/support/captured-log.ts';
import { loadConfig } from '../config.ts';
import { createApp } from './app.ts';
import { nodeClientPresence, type ClientPresence } from './client-presence.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const xmlCall = (service: string) =>
  `<?xml version='1.0'?>\n<methodCall>\n<methodName>m</methodName>\n<params>\n</params>\n</methodCall>\n`.replace(
    '<methodName>m',
    `<methodName>${service === 'db' ? 'list' : 'version'}`,
  );

/** Sends a call and destroys the connection once `sent` resolves; resolves when the socket closed. */
function callThenLeave(port: number, path: string, body: string, leaveWhen: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const req = request({ port, path, method: 'POST', headers: { 'content-type': 'text/xml' } });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.end(body);
    void leaveWhen.then(() => req.destroy());
  });
}

describe('nodeClientPresence()', () => {
  it('hears a client that leaves before its answer, with its reason, and makes a signal that fires', async () => {
    let presence: ClientPresence | undefined;
    let heard = 0;
    let arrived!: () => void;
    const arrival = new Promise<void>((r) => (arrived = r));
    const server = createServer((req, res) => {
      presence = nodeClientPresence(req, res);
      presence.onGone(() => heard++);
      arrived();
    }).listen(0);
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    const signalBefore = (async () => {
      await arrival;
      return presence!.signal();
    })();
    await callThenLeave((server.address() as AddressInfo).port, '/', 'x', arrival);
    await new Promise((r) => setTimeout(r, 50));
    expect(heard).toBe(1);
    expect(presence?.gone).toBe(true);
    // its body was never read: the request itself errored, and that error is the reason (node-server's rule)
    expect(presence?.reason).toBe('Error: aborted');
    const signal = await signalBefore;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('Error: aborted');
    expect(presence!.signal().aborted).toBe(true); // made after the client left
  });

  it('stays quiet for an answered request, and after onGone is stopped', async () => {
    const presences: ClientPresence[] = [];
    let heard = 0;
    const server = createServer((req, res) => {
      const presence = nodeClientPresence(req, res);
      presences.push(presence);
      presence.onGone(() => heard++);
      const stop = presence.onGone(() => heard++);
      stop();
      req.resume().on('end', () => res.end('ok'));
    }).listen(0);
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: 'POST', body: 'x' });
    expect(await res.text()).toBe('ok');
    await new Promise((r) => setTimeout(r, 50));
    expect(heard).toBe(0);
    expect(presences[0]?.gone).toBe(false);
  });
});

describe('createApp() behind a Node server: a client that leaves mid-call', () => {
  it.each([['object'], ['db']])('aborts the %s call it left, with the reason', async (service) => {
    const config = loadConfig(['--upstream', 'http://odoo:8069'], {});
    let running!: (origin: CallOrigin) => void;
    const started = new Promise<CallOrigin>((r) => (running = r));
    const app = createApp({
      config,
      log: captureLog().log,
      dispatch: (_call, origin) => {
        running(origin);
        return new Promise((_resolve, reject) => origin.signal.addEventListener('abort', () => reject(new Error('client gone'))));
      },
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    servers.push(server);
    await new Promise((r) => (server.listening ? r(undefined) : server.once('listening', r)));
    await callThenLeave((server.address() as AddressInfo).port, `/xmlrpc/2/${service}`, xmlCall(service), started);
    const origin = await started;
    await new Promise((r) => setTimeout(r, 50));
    expect(origin.signal.aborted).toBe(true);
    expect(origin.signal.reason).toBe('Client connection prematurely closed.');
  });
});
