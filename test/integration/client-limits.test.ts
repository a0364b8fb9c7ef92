/**
 * Client-port limits: `--send-timeout` cuts off a client that takes nothing of its
 * answer (a dump it never reads) and counts it, while a client waiting on the upstream is left
 * alone; `--max-connections` answers connections beyond the cap with a clean 503.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDownload } from '../support/raw-http.ts';
import { startStack, type Stack } from '../support/stack.ts';

const MiB = 1024 * 1024;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ databases: ['gw'], flags: ['--send-timeout', '300', '--max-connections', '4'] });
});
afterAll(() => stack.close());

const metric = async (name: string) =>
  Number(new RegExp(`^legacy_rpc_gateway_${name} (\\d+)$`, 'm').exec(await stack.gateway.metrics.text())?.[1] ?? 'NaN');

function rawConnect(): Promise<Socket> {
  const { hostname, port } = new URL(stack.gateway.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.on('error', reject);
  });
}

describe('--send-timeout', () => {
  it('cuts off a client that never reads its dump, and counts it', async () => {
    stack.sim.databaseManager.backupPadding = 40 * MiB;
    const before = await metric('send_timeouts_total');
    const socket = await rawConnect();
    const param = (v: string) => `<param>\n<value><string>${v}</string></value>\n</param>\n`;
    const body = `<?xml version='1.0'?>\n<methodCall>\n<methodName>dump</methodName>\n<params>\n${param('admin')}${param('gw')}${param('zip')}</params>\n</methodCall>\n`;
    socket.on('error', () => undefined);
    socket.write(`POST /xmlrpc/2/db HTTP/1.1\r\nHost: gw\r\nContent-Type: text/xml\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    socket.pause(); // reads nothing
    let cut = false;
    for (let i = 0; i < 150 && !cut; i++) {
      await sleep(100);
      cut = (await metric('send_timeouts_total')) === before + 1;
    }
    expect(cut).toBe(true);
    expect(await metric('in_flight_requests')).toBe(0);
    socket.destroy();
    stack.sim.databaseManager.backupPadding = 0;
  }, 30_000);

  it('leaves alone a client waiting for the upstream to send more', async () => {
    const total = 2 * MiB;
    const res = await openDownload(`${stack.gateway.url}/sim/download?bytes=${total}&hold=${MiB}`);
    let received = 0;
    const ended = new Promise<void>((resolve, reject) => {
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // the upstream holds the rest for three send timeouts once the client has the first MiB
        if (received === MiB) setTimeout(() => stack.sim.transfers.releaseDownloads(), 900);
      });
      res.on('end', resolve);
      res.on('error', reject);
    });
    await ended;
    expect(received).toBe(total);
  });
});

describe('--max-connections', () => {
  it('answers a connection beyond the cap with 503 and Connection: close, and serves again once one closes', async () => {
    await sleep(50);
    const before = await metric('connections_refused_total');
    const idle = await Promise.all([rawConnect(), rawConnect(), rawConnect(), rawConnect()]);
    await sleep(50);
    const socket = await rawConnect();
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
      socket.on('close', () => resolve(text));
      socket.write(`GET /livez HTTP/1.1\r\nHost: gw\r\n\r\n`);
    });
    expect(answer.startsWith('HTTP/1.1 503 Service Unavailable\r\n')).toBe(true);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('--max-connections');
    expect(await metric('connections_refused_total')).toBe(before + 1);
    for (const s of idle) s.destroy();
    await sleep(100);
    const res = await fetch(`${stack.gateway.url}/livez`);
    expect(res.status).toBe(200);
  });
});
