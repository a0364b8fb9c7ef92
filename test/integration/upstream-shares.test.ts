/**
 * Slow legacy calls against a fake upstream that holds them: a light call still gets through (the
 * long ones move to the slow lane and give their share back), a call that finds no share waits at
 * most --queue-timeout and the wait shows in the metrics, and /readyz has a connection of its own.
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
/** Slow calls held at the upstream until the test ends. */
const held: ServerResponse[] = [];
/** Paths whose next call is held too (a light method's one slow moment). */
const holdOnce = new Set<string>();

afterEach(async () => {
  holdOnce.clear();
  for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  await gateway?.close();
  upstream?.closeAllConnections();
  upstream?.close();
  gateway = undefined;
  upstream = undefined;
});

/** A fake Odoo: `res.partner.search_read` is slow (held), everything else answers at once. */
async function start(flags: string[]): Promise<RunningGateway> {
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/json/2/res.partner/search_read') return void held.push(res);
      if (req.url !== undefined && holdOnce.delete(req.url)) return void held.push(res);
      // what the gateway's start-up check and /readyz ask besides the calls under test
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
  const base = ['--port', '0', '--admin-port', '0', '--upstream', url, '--connect-ahead', '0', '--call-timeout', '60000'];
  gateway = await startGateway(loadConfig([...base, ...flags], {}), createLogger('silent'));
  return gateway;
}

async function searchRead(g: RunningGateway, model: string): Promise<{ result?: unknown; error?: { data?: { message?: string } } }> {
  const body = {
    jsonrpc: '2.0',
    method: 'call',
    id: 1,
    params: { service: 'object', method: 'execute_kw', args: ['demo', 2, answeringKey, model, 'search_read', [[]]] },
  };
  const res = await fetch(`${g.url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { result?: unknown; error?: { data?: { message?: string } } };
}

/** Waits until `condition` holds (at most ~10 s). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500 && !(await condition()); i++) await sleep(20);
}

/** Resolves with `promise`'s value, or 'still waiting' when it takes longer than `ms`. */
const within = <T>(promise: Promise<T>, ms: number) => Promise.race([promise, sleep(ms).then(() => 'still waiting' as const)]);

describe('slow calls and the upstream connections', () => {
  it('a light method with one slow moment stays light: its next call does not wait behind the slow lane', async () => {
    // no borrowing (--light-reserve = --upstream-connections): a call known slow would wait for the slow lane
    const g = await start(['--upstream-connections', '2', '--slow-call', '200', '--slow-connections', '1', '--light-reserve', '2']);
    const metrics = () => fetch(`${g.adminUrl}/metrics`).then((r) => r.text());
    const slowLaneBusy = async () => (await metrics()).includes('legacy_rpc_gateway_upstream_busy_connections{lane="slow"} 1');
    for (let i = 0; i < 3; i++) expect((await searchRead(g, 'res.country')).result).toEqual([]);
    // one res.country call runs past --slow-call (it moves to the slow lane), then answers
    holdOnce.add('/json/2/res.country/search_read');
    const outlier = searchRead(g, 'res.country');
    await until(async () => held.length === 1 && (await slowLaneBusy()));
    held.shift()?.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    expect((await outlier).result).toEqual([]);
    // a heavy call fills the slow lane
    const slow = searchRead(g, 'res.partner');
    await until(async () => held.length === 1 && (await slowLaneBusy()));
    expect(await within(searchRead(g, 'res.country'), 10_000)).toEqual(expect.objectContaining({ result: [] }));
    held.shift()?.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    expect((await slow).result).toEqual([]);
  });

  it('a light call is answered while slow calls hold every --upstream-connections share', async () => {
    const g = await start(['--upstream-connections', '2', '--slow-call', '200', '--slow-connections', '2', '--slow-call-samples', '1']);
    // the uid of the key is learnt first, so the calls below only differ by their model
    expect((await searchRead(g, 'res.country')).result).toEqual([]);
    const slow = [1, 2, 3].map(() => searchRead(g, 'res.partner'));
    await until(() => held.length === 3);
    expect(held.length).toBe(3);
    expect(await within(searchRead(g, 'res.country'), 10_000)).toEqual(expect.objectContaining({ result: [] }));
    expect(held.length).toBe(3);
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    expect((await Promise.all(slow)).map((a) => a.result)).toEqual([[], [], []]);
  });

  it("the review's mix: more slow calls than every share and the slow lane together, and a light call is still answered at once", async () => {
    const g = await start(['--upstream-connections', '2', '--slow-call', '200', '--slow-connections', '1', '--slow-call-samples', '1']);
    expect((await searchRead(g, 'res.country')).result).toEqual([]);
    const metrics = () => fetch(`${g.adminUrl}/metrics`).then((r) => r.text());
    // the first slow call runs past --slow-call: res.partner.search_read is known slow from now on
    const slow = [searchRead(g, 'res.partner')];
    await until(async () => (await metrics()).includes('legacy_rpc_gateway_upstream_busy_connections{lane="slow"} 1'));
    // more of them than --upstream-connections and --slow-connections together: they wait for the slow lane
    for (let i = 0; i < 4; i++) slow.push(searchRead(g, 'res.partner'));
    await until(async () => (await metrics()).includes('legacy_rpc_gateway_upstream_waiting_calls{work="slow"} 4'));
    expect(await metrics()).toContain('legacy_rpc_gateway_upstream_waiting_calls{work="slow"} 4');
    expect(await within(searchRead(g, 'res.country'), 10_000)).toEqual(expect.objectContaining({ result: [] }));
    expect(held.length).toBe(1);
    // each slow call, answered, hands the slow lane to the next one, in order
    for (let i = 0; i < 5; i++) {
      await until(() => held.length > 0);
      expect(held.length).toBe(1);
      await sleep(250); // a slow call is slow: it ends past --slow-call, so its method stays slow
      held.shift()?.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    }
    expect((await Promise.all(slow)).map((a) => a.result)).toEqual([[], [], [], [], []]);
  });

  it("the review's mix past --queue-timeout: calls known slow borrow ordinary connections beyond --light-reserve, the light call takes the reserve, and no slow call is lost", async () => {
    // --light-reserve by default: a quarter of --upstream-connections, at least 2 (2 of 4 here)
    const g = await start([
      '--upstream-connections',
      '4',
      '--slow-call',
      '200',
      '--slow-connections',
      '1',
      '--queue-timeout',
      '300',
      '--slow-call-samples',
      '1',
    ]);
    expect((await searchRead(g, 'res.country')).result).toEqual([]);
    const metrics = () => fetch(`${g.adminUrl}/metrics`).then((r) => r.text());
    const slow = [searchRead(g, 'res.partner')];
    await until(async () => (await metrics()).includes('legacy_rpc_gateway_upstream_busy_connections{lane="slow"} 1'));
    // five more: two borrow ordinary connections (4 less the reserve of 2), three wait for a connection
    for (let i = 0; i < 5; i++) slow.push(searchRead(g, 'res.partner'));
    await until(async () => held.length === 3 && (await metrics()).includes('legacy_rpc_gateway_upstream_waiting_calls{work="slow"} 3'));
    let text = await metrics();
    expect(text).toContain('legacy_rpc_gateway_upstream_waiting_calls{work="slow"} 3');
    expect(text).toContain('legacy_rpc_gateway_upstream_busy_connections{lane="call"} 2');
    expect(text).toContain('legacy_rpc_gateway_upstream_busy_connections{lane="slow"} 1');
    expect(text).toContain('legacy_rpc_gateway_upstream_borrowed_connections_total 2');
    expect(held.length).toBe(3);
    // the light call on the reserve
    expect(await within(searchRead(g, 'res.country'), 10_000)).toEqual(expect.objectContaining({ result: [] }));
    // twice --queue-timeout later the calls known slow still wait: their bound is --call-timeout
    await sleep(600);
    text = await metrics();
    expect(text).toContain('legacy_rpc_gateway_upstream_waiting_calls{work="slow"} 3');
    expect(text).not.toMatch(/legacy_rpc_gateway_upstream_queue_timeouts_total\{work="slow"\} [1-9]/);
    // each slow call answered hands its connection to the next one
    for (let answered = 0; answered < 6; answered++) {
      await until(() => held.length > 0);
      await sleep(250); // a slow call is slow: it ends past --slow-call, so its method stays slow
      held.shift()?.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    }
    expect((await Promise.all(slow)).map((a) => a.result)).toEqual([[], [], [], [], [], []]);
  });

  it('a call that finds no free share waits at most --queue-timeout, and the wait is in the metrics', async () => {
    const g = await start(['--upstream-connections', '1', '--slow-connections', '0', '--queue-timeout', '400']);
    expect((await searchRead(g, 'res.country')).result).toEqual([]);
    const slow = searchRead(g, 'res.partner');
    await until(() => held.length === 1);
    const waiting = searchRead(g, 'res.country');
    const metrics = () => fetch(`${g.adminUrl}/metrics`).then((r) => r.text());
    await until(async () => (await metrics()).includes('legacy_rpc_gateway_upstream_waiting_calls{work="call"} 1'));
    expect(await metrics()).toContain('legacy_rpc_gateway_upstream_waiting_calls{work="call"} 1');
    const answer = await within(waiting, 10_000);
    expect(answer).not.toBe('still waiting');
    expect((answer as { error?: { data?: { message?: string } } }).error?.data?.message).toContain('--queue-timeout');
    const text = await metrics();
    expect(text).toContain('legacy_rpc_gateway_upstream_waiting_calls{work="call"} 0');
    expect(text).toContain('legacy_rpc_gateway_upstream_queue_timeouts_total{work="call"} 1');
    expect(text).toMatch(/legacy_rpc_gateway_upstream_queue_wait_seconds_count\{work="call"\} [1-9]/);
    expect(text).toContain('legacy_rpc_gateway_upstream_busy_connections{lane="call"} 1');
    held.shift()?.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    expect((await slow).result).toEqual([]);
  });

  it('/readyz answers ready at once while slow calls hold every legacy-call connection', async () => {
    const g = await start(['--upstream-connections', '2', '--slow-connections', '0']);
    expect((await searchRead(g, 'res.country')).result).toEqual([]);
    const slow = [1, 2, 3].map(() => searchRead(g, 'res.partner'));
    await until(() => held.length === 2);
    const ready = await within(
      fetch(`${g.adminUrl}/readyz`).then(async (r) => ({ status: r.status, body: await r.json() })),
      4000,
    );
    expect(ready).toEqual({ status: 200, body: { status: 'ready' } });
    for (let i = 0; i < 3; i++) {
      await until(() => held.length > 0);
      held.shift()?.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    }
    await Promise.all(slow);
  });
});
