/**
 * SIGTERM with 100 calls in flight (part 4), on the approach of
 * test/integration/shutdown.test.ts: the gateway child process talks to the simulator through a proxy
 * that holds every JSON-2 model call; 100 legacy calls over `/xmlrpc/2`, `/xmlrpc` and `/jsonrpc` (one
 * connection each, read on bare sockets so a cut answer shows) are in flight when SIGTERM arrives (32
 * held at the proxy, the default --upstream-connections, the rest queued in the gateway). New
 * connections are refused at once; once released, every one of the 100 gets its whole answer — framing
 * complete, parsed by Python's xmlrpc.client / json — and the process exits 0 within the grace period.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { holdingProxy as holdingProxyOf } from '../support/holding-proxy.ts';
import { jsonCall, xmlCall } from './hostile-cases.ts';
import { startChildGateway, type ChildGateway } from './support/child-gateway.ts';
import { rawRequest, type RawAnswer } from './support/raw-request.ts';

const inFlight = 100;

/** A proxy to the simulator holding every `res.partner` JSON-2 request until `release()`. */
const holdingProxy = (target: string) => holdingProxyOf(target, (url) => url.startsWith('/json/2/res.partner/'));

/** Waits until the gateway's own in-flight gauge (admin /metrics) reads `n`. */
async function settleInFlight(adminUrl: string, n: number) {
  for (;;) {
    const text = await (await fetch(`${adminUrl}/metrics`)).text();
    const value = Number(/^legacy_rpc_gateway_in_flight_requests (\d+)$/m.exec(text)?.[1] ?? -1);
    if (value >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

let sim: Simulator;
let proxy: Awaited<ReturnType<typeof holdingProxy>>;
let gateway: ChildGateway;

beforeAll(async () => {
  sim = await startSimulator({ databases: ['demo'], generatedPartners: 300 });
  proxy = await holdingProxy(sim.url);
  gateway = await startChildGateway([
    '--upstream',
    proxy.url,
    '--shutdown-grace',
    '20000',
    '--upstream-connections',
    '32',
    '--slow-connections',
    '0',
  ]);
});
afterAll(async () => {
  if (gateway?.alive()) gateway.child.kill('SIGKILL');
  proxy?.release();
  await proxy?.close();
  await sim?.close();
});

describe(`SIGTERM with ${inFlight} calls in flight`, () => {
  it('answers every one of them in full, refuses new connections, and exits 0', async () => {
    const password = sim.users('demo').find((u) => u.login === 'admin')?.password as string;
    const auth = await fetch(`${gateway.url}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: jsonCall('common', 'authenticate', JSON.stringify(['demo', 'admin', password, {}])),
    });
    expect(await auth.json()).toEqual({ jsonrpc: '2.0', id: 1, result: 2 });

    // a third each on /xmlrpc/2, /xmlrpc and /jsonrpc; half of them search_read answers of tens of KB
    const s = (v: string) => `<value><string>${v}</string></value>`;
    const xmlKw = (method: string, args: string, kwargs: string) =>
      xmlCall('execute_kw', [s('demo'), '<value><int>2</int></value>', s(password), s('res.partner'), s(method), args, kwargs]);
    const emptyDomain = '<value><array><data><value><array><data></data></array></value></data></array></value>';
    const fields =
      '<value><struct><member><name>fields</name><value><array><data><value><string>name</string></value><value><string>email</string></value><value><string>street</string></value><value><string>city</string></value></data></array></value></member></struct></value>';
    const calls = Array.from({ length: inFlight }, (_v, i) => {
      const big = i % 2 === 0;
      const endpoint = (['xmlrpc2', 'xmlrpc1', 'jsonrpc'] as const)[i % 3] as 'xmlrpc2' | 'xmlrpc1' | 'jsonrpc';
      const body =
        endpoint === 'jsonrpc'
          ? jsonCall(
              'object',
              'execute_kw',
              JSON.stringify([
                'demo',
                2,
                password,
                'res.partner',
                big ? 'search_read' : 'search_count',
                [[]],
                big ? { fields: ['name', 'email', 'street', 'city'] } : {},
              ]),
              String(i),
            )
          : xmlKw(big ? 'search_read' : 'search_count', emptyDomain, big ? fields : '<value><struct></struct></value>');
      return { i, endpoint, big, body };
    });
    const answers = calls.map((c) =>
      rawRequest({
        port: gateway.port,
        path: c.endpoint === 'jsonrpc' ? '/jsonrpc' : c.endpoint === 'xmlrpc2' ? '/xmlrpc/2/object' : '/xmlrpc/object',
        headers: [['Content-Type', c.endpoint === 'jsonrpc' ? 'application/json' : 'text/xml']],
        chunks: [Buffer.from(c.body)],
        timeoutMs: 30_000,
      }),
    );
    // 32 connections to the proxy (no slow lane), so 32 calls are held there and the other 68 wait in the gateway
    await proxy.holding(32);
    await settleInFlight(gateway.adminUrl, inFlight);

    gateway.child.kill('SIGTERM');
    await gateway.logged('shutting down');
    await expect(fetch(`${gateway.url}/livez`)).rejects.toThrow();
    proxy.release();
    const done: RawAnswer[] = await Promise.all(answers);

    // complete framing, HTTP 200, no socket error, for all 100
    expect(done.map((a) => [a.status, a.error ?? 'complete'])).toEqual(done.map(() => [200, 'complete']));
    // and every body parses in Python as a result (not a fault) of the right shape
    const script = [
      'import json, sys, xmlrpc.client',
      'out = []',
      'for item in json.load(sys.stdin):',
      '    body = bytes.fromhex(item["body"])',
      '    if item["endpoint"] == "jsonrpc":',
      '        r = json.loads(body)["result"]',
      '    else:',
      '        r = xmlrpc.client.loads(body)[0][0]',
      '    out.append(type(r).__name__ + ":" + str(len(r) if isinstance(r, list) else r > 0))',
      'json.dump(out, sys.stdout)',
    ].join('\n');
    const run = spawnSync('python3', ['-c', script], {
      input: JSON.stringify(calls.map((c, n) => ({ endpoint: c.endpoint, body: (done[n] as RawAnswer).body.toString('hex') }))),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const partners = (await (
      await fetch(`${sim.url}/json/2/res.partner/search_count`, {
        method: 'POST',
        headers: { authorization: `bearer ${sim.keyFor('demo', 'admin')}`, 'content-type': 'application/json', 'x-odoo-database': 'demo' },
        body: '{"domain": []}',
      })
    ).json()) as number;
    expect(JSON.parse(run.stdout)).toEqual(calls.map((c) => (c.big ? `list:${partners}` : 'int:True')));
    expect(done.filter((a, n) => calls[n]?.big).every((a) => a.body.length > 10_000)).toBe(true);

    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(
      gateway.lines.some(
        (l) =>
          l.msg === 'calls still in flight after the shutdown grace period: answered with a fault where possible, their connections closed',
      ),
    ).toBe(false);
    expect(gateway.lines.filter((l) => l.msg === 'legacy call').length).toBe(inFlight + 1);
  });
});
