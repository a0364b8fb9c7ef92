/**
 * An https upstream signed by a private CA (`--upstream-ca`): legacy calls, the passthrough and
 * websocket tunnels all trust it; without the CA file the same upstream is refused.
 */
import { readFileSync } from 'node:fs';
import { connect as connectTcp, type AddressInfo } from 'node:net';
import { createServer as createTlsServer, type Server } from 'node:tls';
import { WebSocket } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';

const fixture = (name: string) => new URL(`../fixtures-tls/${name}`, import.meta.url).pathname;
let sim: Simulator;
let tls: Server;
let upstream: string;
const gateways: RunningGateway[] = [];

async function gatewayWith(flags: string[]): Promise<RunningGateway> {
  const gateway = await startGateway(
    loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstream, ...flags], {}),
    createLogger('silent'),
  );
  gateways.push(gateway);
  return gateway;
}

async function version(gateway: RunningGateway) {
  const res = await fetch(`${gateway.url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","method":"call","params":{"service":"common","method":"version","args":[]},"id":1}',
  });
  return (await res.json()) as { result?: { server_serie: string }; error?: { data: { message: string } } };
}

beforeAll(async () => {
  sim = await startSimulator({ databases: ['demo'] });
  // TLS in front of the simulator: bytes relayed as they are, upgrades included
  tls = createTlsServer({ key: readFileSync(fixture('server-key.pem')), cert: readFileSync(fixture('server-cert.pem')) }, (secure) => {
    const plain = connectTcp(sim.port, '127.0.0.1');
    secure.on('error', () => plain.destroy());
    plain.on('error', () => secure.destroy());
    secure.pipe(plain).pipe(secure);
  });
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  upstream = `https://localhost:${(tls.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  await new Promise<void>((resolve) => tls.close(() => resolve()));
  await sim.close();
});

describe('https upstream with --upstream-ca', () => {
  it('serves legacy calls, the passthrough and websockets', async () => {
    const gateway = await gatewayWith(['--upstream-ca', fixture('ca.pem')]);
    expect((await version(gateway)).result?.server_serie).toBe('19.0');
    const health = await fetch(`${gateway.url}/web/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'pass' });

    const ws = new WebSocket(`${gateway.url.replace('http', 'ws')}/websocket`);
    const echoed = new Promise<string>((resolve, reject) => {
      ws.addEventListener('message', (e) => resolve(e.data as string));
      ws.addEventListener('error', () => reject(new Error('websocket failed')));
    });
    ws.addEventListener('open', () => ws.send('ping over tls'));
    expect(await echoed).toBe('ping over tls');
    ws.close();
  });

  it('refuses the same upstream without the CA', async () => {
    const gateway = await gatewayWith([]);
    const answer = await version(gateway);
    expect(answer.error?.data.message).toMatch(
      /^upstream request failed \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\) \(https:\/\/localhost:\d+, \d+ ms\)$/,
    );
    expect((await fetch(`${gateway.url}/web/health`)).status).toBe(502);
  });
});
