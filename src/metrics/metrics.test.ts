import { describe, expect, it } from 'vitest';
import { LegacyError } from '../errors.ts';
import { createMetrics } from './metrics.ts';

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
