import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LegacyError } from '../errors.ts';
import { createMetrics, maxDatabaseLabels, maxModelLabels } from './metrics.ts';

const denied = new LegacyError('access_denied', { name: 'odoo.exceptions.AccessDenied', message: 'Access Denied' });

/** The exposition's sample lines starting with `name` (no HELP/TYPE lines). */
async function samples(metrics: ReturnType<typeof createMetrics>, name: string): Promise<string[]> {
  return (await metrics.text()).split('\n').filter((l) => l.startsWith(name));
}

describe('createMetrics()', () => {
  it('counts calls by dialect, service, bounded method and outcome', async () => {
    const m = createMetrics({ processMetrics: false });
    m.observeCall('xmlrpc2', { service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'search_read' }, 0.02);
    m.observeCall('xmlrpc2', { service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'search_read' }, 0.03);
    m.observeCall('jsonrpc', { service: 'object', method: 'execute_kw', model: 'x', modelMethod: 'random_1234' }, 0.01);
    m.observeCall('xmlrpc1', { service: 'common', method: 'login', error: denied }, 0.2);
    expect(await samples(m, 'legacy_rpc_gateway_calls_total')).toEqual([
      'legacy_rpc_gateway_calls_total{dialect="xmlrpc2",service="object",method="search_read",outcome="ok"} 2',
      'legacy_rpc_gateway_calls_total{dialect="jsonrpc",service="object",method="other",outcome="ok"} 1',
      'legacy_rpc_gateway_calls_total{dialect="xmlrpc1",service="common",method="login",outcome="access_denied"} 1',
    ]);
    const buckets = await samples(m, 'legacy_rpc_gateway_call_duration_seconds_bucket{le="0.025",dialect="xmlrpc2"');
    expect(buckets).toEqual([
      'legacy_rpc_gateway_call_duration_seconds_bucket{le="0.025",dialect="xmlrpc2",service="object",method="search_read",outcome="ok"} 1',
    ]);
    expect(await samples(m, 'legacy_rpc_gateway_call_duration_seconds_count{dialect="xmlrpc2"')).toEqual([
      'legacy_rpc_gateway_call_duration_seconds_count{dialect="xmlrpc2",service="object",method="search_read",outcome="ok"} 2',
    ]);
  });

  it('keeps a call longer than 120 s in a bucket of its own, up to a --call-timeout of 600 s', async () => {
    const m = createMetrics({ processMetrics: false });
    m.observeCall('xmlrpc2', { service: 'object', method: 'execute_kw', model: 'sale.order', modelMethod: 'write' }, 450);
    const bucket = async (le: string) =>
      (await samples(m, `legacy_rpc_gateway_call_duration_seconds_bucket{le="${le}",dialect="xmlrpc2"`)).map((l) =>
        Number(l.split(' ')[1]),
      );
    expect(await bucket('120')).toEqual([0]);
    expect(await bucket('300')).toEqual([0]);
    expect(await bucket('600')).toEqual([1]);
  });

  it('counts object calls by database and model, naming those a call succeeded on and no more than the caps', async () => {
    const m = createMetrics({ processMetrics: false });
    const call = (model: string, error?: LegacyError) => ({ service: 'object', method: 'execute_kw', model, modelMethod: 'read', error });
    m.observeObjectCall('erp', call('res.partner'), 0.02);
    m.observeObjectCall('erp', call('res.partner', denied), 0.01);
    // a model or database no call succeeded on yet (a typo, a probe) is not named
    m.observeObjectCall('erp', call('no.such.model', denied), 0.01);
    m.observeObjectCall('nodb', call('res.partner', denied), 0.01);
    m.observeObjectCall(undefined, call('res.partner'), 0.01);
    m.observeCall('xmlrpc2', { service: 'common', method: 'version' }, 0.001);
    m.observeObjectCall('erp', { service: 'common', method: 'login' }, 0.01);
    expect(await samples(m, 'legacy_rpc_gateway_object_calls_total')).toEqual([
      'legacy_rpc_gateway_object_calls_total{db="erp",model="res.partner",outcome="ok"} 1',
      'legacy_rpc_gateway_object_calls_total{db="erp",model="res.partner",outcome="access_denied"} 1',
      'legacy_rpc_gateway_object_calls_total{db="erp",model="other",outcome="access_denied"} 1',
      'legacy_rpc_gateway_object_calls_total{db="other",model="res.partner",outcome="access_denied"} 1',
      'legacy_rpc_gateway_object_calls_total{db="other",model="res.partner",outcome="ok"} 1',
    ]);
    expect(await samples(m, 'legacy_rpc_gateway_object_call_duration_seconds_count{db="erp"')).toEqual([
      'legacy_rpc_gateway_object_call_duration_seconds_count{db="erp",model="res.partner"} 2',
      'legacy_rpc_gateway_object_call_duration_seconds_count{db="erp",model="other"} 1',
    ]);
    // past the caps, new names are "other" however often their calls succeed
    for (let i = 0; i < maxModelLabels + 5; i++) m.observeObjectCall(`db${i}`, call(`x.model${i}`), 0.01);
    const lines = await samples(m, 'legacy_rpc_gateway_object_calls_total');
    const named = (label: string) => new Set(lines.map((l) => new RegExp(`${label}="([^"]+)"`).exec(l)?.[1]).filter((v) => v !== 'other'));
    expect(named('db').size).toBe(maxDatabaseLabels);
    expect(named('model').size).toBe(maxModelLabels);
  });

  it('records upstream latency by route and status class', async () => {
    const m = createMetrics({ processMetrics: false });
    m.observeUpstream('/json/2/res.partner/read', 200, 0.004);
    m.observeUpstream('/web/session/authenticate', undefined, 10);
    expect(await samples(m, 'legacy_rpc_gateway_upstream_request_duration_seconds_count')).toEqual([
      'legacy_rpc_gateway_upstream_request_duration_seconds_count{route="json2",status="2xx"} 1',
      'legacy_rpc_gateway_upstream_request_duration_seconds_count{route="web_session",status="error"} 1',
    ]);
  });

  it('counts credential events, passthrough answers and reports requests in flight', async () => {
    const m = createMetrics({ processMetrics: false });
    m.credentials.cacheLookup('password', false);
    m.credentials.cacheLookup('password', true);
    m.credentials.cacheLookup('password', true);
    m.credentials.keyExchange('mint', 'ok');
    m.credentials.keyExchange('renew', 'refused');
    m.credentials.retirement('revoked');
    m.credentials.throttled();
    m.observePassthrough(303);
    m.observePassthrough(undefined);
    m.trackInFlight(() => 3);
    expect(await samples(m, 'legacy_rpc_gateway_credential_cache_lookups_total')).toEqual([
      'legacy_rpc_gateway_credential_cache_lookups_total{cache="password",result="miss"} 1',
      'legacy_rpc_gateway_credential_cache_lookups_total{cache="password",result="hit"} 2',
    ]);
    expect(await samples(m, 'legacy_rpc_gateway_key_exchanges_total')).toEqual([
      'legacy_rpc_gateway_key_exchanges_total{kind="mint",outcome="ok"} 1',
      'legacy_rpc_gateway_key_exchanges_total{kind="renew",outcome="refused"} 1',
    ]);
    expect(await samples(m, 'legacy_rpc_gateway_key_retirements_total')).toEqual([
      'legacy_rpc_gateway_key_retirements_total{outcome="revoked"} 1',
    ]);
    expect(await samples(m, 'legacy_rpc_gateway_throttled_attempts_total')).toEqual(['legacy_rpc_gateway_throttled_attempts_total 1']);
    expect(await samples(m, 'legacy_rpc_gateway_passthrough_requests_total')).toEqual([
      'legacy_rpc_gateway_passthrough_requests_total{status="3xx"} 1',
      'legacy_rpc_gateway_passthrough_requests_total{status="error"} 1',
    ]);
    expect(await samples(m, 'legacy_rpc_gateway_in_flight_requests')).toEqual(['legacy_rpc_gateway_in_flight_requests 3']);
  });

  it('keeps registries apart and adds process metrics on request', async () => {
    const a = createMetrics({ processMetrics: false });
    const b = createMetrics();
    a.credentials.throttled();
    expect(await samples(b, 'legacy_rpc_gateway_throttled_attempts_total')).toEqual(['legacy_rpc_gateway_throttled_attempts_total 0']);
    expect(await b.text()).toContain('process_cpu_user_seconds_total');
    expect(await a.text()).not.toContain('process_cpu_user_seconds_total');
    expect(a.contentType).toMatch(/^text\/plain/);
  });
});

describe('shadow mode and deprecated calls', () => {
  it('counts shadow results by service, bounded method and outcome, and the shadows in flight', async () => {
    const m = createMetrics({ processMetrics: false });
    m.observeShadow({ service: 'object', method: 'execute_kw', modelMethod: 'search_read' }, 'equal');
    m.observeShadow({ service: 'object', method: 'execute_kw', modelMethod: 'search_read' }, 'equal');
    m.observeShadow({ service: 'object', method: 'execute_kw', modelMethod: 'x_custom_42' }, 'differs');
    m.observeShadow({ service: 'db', method: 'list' }, 'dropped');
    m.trackShadowInFlight(() => 3);
    expect(await samples(m, 'legacy_rpc_gateway_shadow_calls_total')).toEqual([
      'legacy_rpc_gateway_shadow_calls_total{service="object",method="search_read",outcome="equal"} 2',
      'legacy_rpc_gateway_shadow_calls_total{service="object",method="other",outcome="differs"} 1',
      'legacy_rpc_gateway_shadow_calls_total{service="db",method="list",outcome="dropped"} 1',
    ]);
    expect(await samples(m, 'legacy_rpc_gateway_shadow_in_flight')).toEqual(['legacy_rpc_gateway_shadow_in_flight 3']);
  });

  it('counts calls of deprecated methods by method, on the models Odoo deprecates them on', async () => {
    const m = createMetrics({ processMetrics: false });
    m.observeCall('xmlrpc2', { service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'read_group' }, 0.01);
    m.observeCall('xmlrpc2', { service: 'object', method: 'execute_kw', model: 'sale.order', modelMethod: 'read_group' }, 0.01);
    m.observeCall('xmlrpc2', { service: 'object', method: 'execute_kw', model: 'ir.http', modelMethod: 'get_currencies' }, 0.01);
    m.observeCall('xmlrpc2', { service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'get_currencies' }, 0.01);
    m.observeCall('xmlrpc2', { service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod: 'search_read' }, 0.01);
    expect(await samples(m, 'legacy_rpc_gateway_deprecated_calls_total')).toEqual([
      'legacy_rpc_gateway_deprecated_calls_total{method="read_group"} 2',
      'legacy_rpc_gateway_deprecated_calls_total{method="get_currencies"} 1',
    ]);
  });
});

describe('docs/operations.md', () => {
  it("names every metric of the gateway's own in its Admin port table", async () => {
    const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    const names = (await createMetrics({ processMetrics: false, redis: true }).text())
      .split('\n')
      .flatMap((l) => /^# TYPE (\S+) /.exec(l)?.[1] ?? []);
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) expect(doc, name).toContain(`\`${name}\``);
  });
});
