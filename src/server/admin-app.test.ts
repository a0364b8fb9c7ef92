import { describe, expect, it } from 'vitest';
import { createMigrationReport } from '../report/migration-report.ts';
import { createAdminApp } from './admin-app.ts';
import type { Readiness } from './readiness.ts';

const token = 'a-long-enough-admin-token';

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- it types the parameter, not only its default
function adminApp({ readiness = { ready: true } as Readiness, withToken = false } = {}) {
  const report = createMigrationReport({ maxClients: 10, now: () => Date.parse('2026-05-01T10:00:00.000Z') });
  report.record({
    dialect: 'xmlrpc2',
    userAgent: 'Python-xmlrpc/3.11',
    ip: '10.0.0.5',
    service: 'common',
    method: 'version',
    failed: false,
  });
  const metrics = { contentType: 'text/plain; version=0.0.4; charset=utf-8', text: async () => 'legacy_rpc_gateway_calls_total 1\n' };
  return createAdminApp({ metrics, report, readiness: async () => readiness, token: withToken ? token : undefined });
}

describe('createAdminApp()', () => {
  it('serves the metrics exposition', async () => {
    const res = await adminApp().request('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await res.text()).toBe('legacy_rpc_gateway_calls_total 1\n');
  });

  it('answers /readyz 200 when ready and 503 with the reason when not', async () => {
    const ready = await adminApp().request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    const draining = await adminApp({ readiness: { ready: false, reason: 'draining: the gateway is shutting down' } }).request('/readyz');
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ status: 'not ready', reason: 'draining: the gateway is shutting down' });
  });

  it('serves the migration report as JSON and HTML', async () => {
    const json = await adminApp().request('/gateway/report.json');
    expect(json.headers.get('content-type')).toBe('application/json');
    const body = (await json.json()) as { clients: Array<{ userAgent: string; calls: number }> };
    expect(body.clients.map((c) => [c.userAgent, c.calls])).toEqual([['Python-xmlrpc/3.11', 1]]);
    const html = await adminApp().request('/gateway/report');
    expect(html.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(await html.text()).toContain('<title>Legacy RPC migration report</title>');
  });

  it('awaits a report that answers a promise (shared through Redis)', async () => {
    const snapshot = { version: 1 as const, generatedAt: '2026-05-01T10:00:00.000Z', clients: [] };
    const metrics = { contentType: 'text/plain', text: async () => '' };
    const app = createAdminApp({
      metrics,
      report: { snapshotLazily: async () => snapshot },
      readiness: async () => ({ ready: true }),
      token: undefined,
    });
    expect(await (await app.request('/gateway/report.json')).json()).toEqual(snapshot);
    expect(await (await app.request('/gateway/report')).text()).toContain('<title>Legacy RPC migration report</title>');
  });

  it.each(['/metrics', '/gateway/report', '/gateway/report.json'])('requires the bearer token on %s when one is set', async (path) => {
    const app = adminApp({ withToken: true });
    expect((await app.request(path)).status).toBe(401);
    expect((await app.request(path, { headers: { authorization: 'Bearer wrong-token-of-some-length' } })).status).toBe(401);
    expect((await app.request(path, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('leaves /readyz open for probes when a token is set', async () => {
    expect((await adminApp({ withToken: true }).request('/readyz')).status).toBe(200);
  });

  it('answers 404 elsewhere', async () => {
    const res = await adminApp().request('/xmlrpc/2/common');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not Found: the admin port serves /metrics, /readyz, /gateway/report and /gateway/report.json.\n');
  });
});
