/**
 * The admin port over real HTTP (docs/architecture.md §8): Prometheus metrics after real calls, `/readyz`, the
 * bearer token, and the migration report as JSON, saved at shutdown and read back at start.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import type { ReportSnapshot } from '../../src/report/migration-report.ts';
import { startGateway } from '../../src/server/gateway.ts';
import { startStack, type Stack } from '../support/stack.ts';

const token = 'admin-token-for-tests-0123456789';
const auth = { authorization: `Bearer ${token}` };
const reportFile = join(mkdtempSync(join(tmpdir(), 'gateway-report-')), 'report.json');
const flags = ['--admin-token', token, '--report-file', reportFile, '--throttle-failures', '1'];
let stack: Stack;
let password: string;

async function admin(path: string, headers: Record<string, string> = auth) {
  const res = await fetch(stack.gateway.adminUrl + path, { headers });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  stack = await startStack({ flags });
  password = stack.sim.users('demo').find((u) => u.login === 'admin')?.password as string;
  const ua = { 'user-agent': 'Python-xmlrpc/3.11' };
  // one mint (authenticate), then two object calls served with the cached key
  expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', password, {}], ua)).result).toBe(2);
  for (let i = 0; i < 2; i++) {
    const found = await stack.jsonrpc('object', 'execute_kw', ['demo', 2, password, 'res.partner', 'search_count', [[]]], ua);
    expect(typeof found.result).toBe('number');
  }
  // a method nobody knows: the label must stay bounded
  await stack.jsonrpc('object', 'execute_kw', ['demo', 2, password, 'res.partner', 'zz_made_up_1234', [[]]], ua);
  // a wrong password (one failure blocks with --throttle-failures 1), then a throttled attempt
  expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'demo', 'wrong', {}], { 'user-agent': 'bad-client/1' })).result).toBe(
    false,
  );
  expect(
    (await stack.jsonrpc('common', 'authenticate', ['demo', 'demo', 'wrong again', {}], { 'user-agent': 'bad-client/1' })).result,
  ).toBe(false);
  await fetch(`${stack.gateway.url}/odoo`, { redirect: 'manual' });
});
afterAll(() => stack?.close());

describe('admin port', () => {
  it('exposes call counts with bounded labels', async () => {
    const { status, text } = await admin('/metrics');
    expect(status).toBe(200);
    const calls = text.split('\n').filter((l) => l.startsWith('legacy_rpc_gateway_calls_total{'));
    expect(calls.sort()).toEqual([
      // the two wrong passwords (the second throttled) are refused logins, as fault 3 would be on object
      'legacy_rpc_gateway_calls_total{dialect="jsonrpc",service="common",method="authenticate",outcome="access_denied"} 2',
      'legacy_rpc_gateway_calls_total{dialect="jsonrpc",service="common",method="authenticate",outcome="ok"} 1',
      'legacy_rpc_gateway_calls_total{dialect="jsonrpc",service="object",method="other",outcome="internal"} 1',
      'legacy_rpc_gateway_calls_total{dialect="jsonrpc",service="object",method="search_count",outcome="ok"} 2',
    ]);
    expect(text).toContain(
      'legacy_rpc_gateway_call_duration_seconds_count{dialect="jsonrpc",service="object",method="search_count",outcome="ok"} 2',
    );
  });

  it('exposes object calls by database and model', async () => {
    const { text } = await admin('/metrics');
    const calls = text.split('\n').filter((l) => l.startsWith('legacy_rpc_gateway_object_calls_total{'));
    expect(calls.sort()).toEqual([
      'legacy_rpc_gateway_object_calls_total{db="demo",model="res.partner",outcome="internal"} 1',
      'legacy_rpc_gateway_object_calls_total{db="demo",model="res.partner",outcome="ok"} 2',
    ]);
    expect(text).toContain('legacy_rpc_gateway_object_call_duration_seconds_count{db="demo",model="res.partner"} 3');
  });

  it('exposes upstream latency, credential cache hits and misses, key exchanges, throttling and passthrough', async () => {
    const { text } = await admin('/metrics');
    expect(text).toMatch(/^legacy_rpc_gateway_upstream_request_duration_seconds_count\{route="json2",status="2xx"\} [1-9]\d*$/m);
    expect(text).toMatch(/^legacy_rpc_gateway_upstream_request_duration_seconds_count\{route="web_session",status="2xx"\} [1-9]\d*$/m);
    // the two wrong passwords and the first good one miss; the throttled attempt is looked up, then refused
    expect(text).toContain('legacy_rpc_gateway_credential_cache_lookups_total{cache="password",result="miss"} 3');
    expect(text).toContain('legacy_rpc_gateway_credential_cache_lookups_total{cache="password",result="hit"} 3');
    expect(text).toContain('legacy_rpc_gateway_key_exchanges_total{kind="mint",outcome="ok"} 1');
    expect(text).toContain('legacy_rpc_gateway_key_exchanges_total{kind="mint",outcome="refused"} 1');
    expect(text).toContain('legacy_rpc_gateway_throttled_attempts_total 1');
    expect(text).toContain('legacy_rpc_gateway_passthrough_requests_total{status="3xx"} 1');
    expect(text).toMatch(/^legacy_rpc_gateway_in_flight_requests \d+$/m);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('requires the token for /metrics and the report, not for /readyz', async () => {
    expect((await admin('/metrics', {})).status).toBe(401);
    expect((await admin('/gateway/report.json', {})).status).toBe(401);
    const ready = await admin('/readyz', {});
    expect(ready).toEqual({ status: 200, text: '{"status":"ready"}' });
  });

  it('reports each client with its services, models and methods', async () => {
    const report = JSON.parse((await admin('/gateway/report.json')).text) as ReportSnapshot;
    const client = report.clients.find((c) => c.userAgent === 'Python-xmlrpc/3.11');
    expect(client).toMatchObject({
      ip: '127.0.0.1',
      calls: 4,
      faults: 1,
      dialects: { jsonrpc: 4 },
      services: { common: 1, object: 3 },
      unlistedCalls: 0,
    });
    expect(client?.methods.map((m) => [m.service, m.method, m.model, m.modelMethod, m.calls, m.faults])).toEqual([
      ['object', 'execute_kw', 'res.partner', 'zz_made_up_1234', 1, 1],
      ['object', 'execute_kw', 'res.partner', 'search_count', 2, 0],
      ['common', 'authenticate', undefined, undefined, 1, 0],
    ]);
    const bad = report.clients.find((c) => c.userAgent === 'bad-client/1');
    expect(bad).toMatchObject({ calls: 2, faults: 2, services: { common: 2 } });
  });
});

describe('migration report persistence', () => {
  it('is saved at shutdown and read back at start', async () => {
    await stack.close();
    const saved = JSON.parse(readFileSync(reportFile, 'utf8')) as ReportSnapshot;
    // a User-Agent's calls, whatever database and login they ran as (the report keeps those apart)
    const perAgent = (r: ReportSnapshot) => {
      const calls = new Map<string, number>();
      for (const c of r.clients) calls.set(c.userAgent, (calls.get(c.userAgent) ?? 0) + c.calls);
      return [...calls];
    };
    expect(perAgent(saved).sort()).toEqual([
      ['Python-xmlrpc/3.11', 4],
      ['bad-client/1', 2],
    ]);
    stack = await startStack({ flags });
    await stack.jsonrpc('common', 'version', [], { 'user-agent': 'Python-xmlrpc/3.11' });
    const report = JSON.parse((await admin('/gateway/report.json')).text) as ReportSnapshot;
    expect(perAgent(report)).toEqual([
      ['Python-xmlrpc/3.11', 5],
      ['bad-client/1', 2],
    ]);
  });
});

describe('/readyz', () => {
  it('is 503 with the reason when the upstream cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gateway = await startGateway(
      loadConfig(['--port', '0', '--admin-port', '0', '--upstream', `http://127.0.0.1:${port}`], {}),
      createLogger('silent'),
    );
    try {
      const res = await fetch(`${gateway.adminUrl}/readyz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; reason: string };
      expect(body.status).toBe('not ready');
      expect(body.reason).toMatch(
        new RegExp(`^upstream unreachable: upstream refused the connection \\(http://127\\.0\\.0\\.1:${port}, \\d+ ms\\)$`),
      );
    } finally {
      await gateway.close();
    }
  });
});
