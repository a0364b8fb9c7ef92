/**
 * A write cut after Odoo was sent it (by --call-timeout, or the shutdown grace period ending) may
 * have been committed: its fault says the outcome is unknown, not that the call did not finish, and
 * it is counted (`legacy_rpc_gateway_unknown_outcomes_total`). A read cut the same way keeps its fault.
 */
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';
import { answeringKey } from '../support/answering-upstream.ts';

let upstream: Server | undefined;
let gateway: RunningGateway | undefined;
/** res.partner calls, held (never answered: Odoo still running them) until the test ends. */
const held: ServerResponse[] = [];

afterEach(async () => {
  for (const res of held.splice(0)) res.destroy();
  await gateway?.close();
  upstream?.closeAllConnections();
  upstream?.close();
  gateway = undefined;
  upstream = undefined;
});

async function start(flags: string[]): Promise<RunningGateway> {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/json/2/res.partner/') === true) return void held.push(res);
      const versionInfo =
        '{"jsonrpc": "2.0", "id": null, "result": {"server_version": "19.0", "server_version_info": [19, 0, 0, "final", 0, ""], "server_serie": "19.0", "protocol_version": 1}}';
      const body =
        req.url === '/web/health'
          ? '{"status": "pass"}'
          : req.url === '/json/2/res.users/context_get'
            ? '{"uid": 2}'
            : req.url === '/web/webclient/version_info'
              ? versionInfo
              : '[]';
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  }).listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const base = ['--port', '0', '--admin-port', '0', '--upstream', url, '--connect-ahead', '0'];
  gateway = await startGateway(loadConfig([...base, ...flags], {}), createLogger('silent'));
  return gateway;
}

async function call(
  g: RunningGateway,
  model: string,
  method: string,
  args: unknown[],
): Promise<{ result?: unknown; error?: { data?: { message?: string } } }> {
  const body = {
    jsonrpc: '2.0',
    method: 'call',
    id: 1,
    params: { service: 'object', method: 'execute_kw', args: ['demo', 2, answeringKey, model, method, args] },
  };
  const res = await fetch(`${g.url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { result?: unknown; error?: { data?: { message?: string } } };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await sleep(20);
}

describe('a write cut after Odoo was sent it', () => {
  it('by --call-timeout: "outcome unknown", counted; a read cut the same way is still "did not answer in time"', async () => {
    const g = await start(['--call-timeout', '300']);
    expect((await call(g, 'res.country', 'search_read', [[]])).result).toEqual([]);
    const write = await call(g, 'res.partner', 'write', [[7], { name: 'x' }]);
    const message = write.error?.data?.message ?? '';
    expect(message).toContain('the outcome of res.partner.write is unknown');
    expect(message).toContain('may have done it (committed)');
    expect(message).toContain('--call-timeout');
    const read = await call(g, 'res.partner', 'search_read', [[]]);
    expect(read.error?.data?.message).toContain('upstream did not answer in time');
    expect(read.error?.data?.message).not.toContain('outcome');
    const metrics = await g.metrics.text();
    expect(metrics).toContain('legacy_rpc_gateway_unknown_outcomes_total{cause="call_timeout"} 1');
    expect(metrics).not.toContain('legacy_rpc_gateway_unknown_outcomes_total{cause="shutdown"}');
  });

  it('by the shutdown grace period: "outcome unknown", counted', async () => {
    const g = await start(['--shutdown-grace', '200']);
    expect((await call(g, 'res.country', 'search_read', [[]])).result).toEqual([]);
    const write = call(g, 'res.partner', 'create', [{ name: 'x' }]);
    await until(() => held.length === 1);
    const closing = g.close();
    const message = (await write).error?.data?.message ?? '';
    await closing;
    gateway = undefined;
    expect(message).toContain('the outcome of res.partner.create is unknown');
    expect(message).toContain('the gateway shut down (--shutdown-grace)');
    expect(message).toContain('the gateway is shutting down: the call did not finish within --shutdown-grace (200 ms)');
    expect(await g.metrics.text()).toContain('legacy_rpc_gateway_unknown_outcomes_total{cause="shutdown"} 1');
  });
});
