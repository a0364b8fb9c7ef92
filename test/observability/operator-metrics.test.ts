/**
 * The series a dashboard expects on /metrics: build_info, the upstream up or down with the reason,
 * passthrough latency, and requests refused by the gateway's own policy, with bounded labels.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';
import { encodeRequest } from '../fixtures-xml/xmlrpc-request.ts';
import { startRecordingUpstream } from '../support/recording-upstream.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function gatewayBefore(upstreamUrl: string, ...argv: string[]): Promise<RunningGateway> {
  const gateway = await startGateway(
    loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstreamUrl, '--connect-timeout', '2000', ...argv], {}),
    createLogger('silent'),
    { env: {} },
  );
  cleanups.push(() => gateway.close());
  return gateway;
}

/** The value of one series in the exposition text. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('operator metrics', () => {
  it('exposes build_info with the package version and Node.js version', async () => {
    const upstream = await startRecordingUpstream();
    cleanups.push(() => upstream.close());
    const gateway = await gatewayBefore(upstream.url);
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect(
      sample(await gateway.metrics.text(), `legacy_rpc_gateway_build_info{version="${version}",nodejs_version="${process.versions.node}"}`),
    ).toBe(1);
  });

  it('says whether the upstream answers at each scrape, and why not', async () => {
    const upstream = await startRecordingUpstream();
    const gateway = await gatewayBefore(upstream.url);
    let text = await gateway.metrics.text();
    expect(sample(text, 'legacy_rpc_gateway_upstream_up')).toBe(1);
    for (const reason of ['timeout', 'unreachable', 'bad_answer'])
      expect(sample(text, `legacy_rpc_gateway_upstream_down{reason="${reason}"}`)).toBe(0);
    upstream.close();
    text = await gateway.metrics.text();
    expect(sample(text, 'legacy_rpc_gateway_upstream_up')).toBe(0);
    expect(sample(text, 'legacy_rpc_gateway_upstream_down{reason="unreachable"}')).toBe(1);
    expect(sample(text, 'legacy_rpc_gateway_upstream_down{reason="timeout"}')).toBe(0);
  });

  it('times passed-through requests in a histogram by status class', async () => {
    const upstream = await startRecordingUpstream();
    cleanups.push(() => upstream.close());
    const gateway = await gatewayBefore(upstream.url);
    expect((await fetch(`${gateway.url}/web/login`)).status).toBe(200);
    const text = await gateway.metrics.text();
    expect(sample(text, 'legacy_rpc_gateway_passthrough_duration_seconds_count{status="2xx"}')).toBe(1);
    expect(sample(text, 'legacy_rpc_gateway_passthrough_duration_seconds_bucket{le="+Inf",status="2xx"}')).toBe(1);
  });

  it('counts a body over --max-body as a policy refusal, every policy label present from the start', async () => {
    const upstream = await startRecordingUpstream();
    cleanups.push(() => upstream.close());
    const gateway = await gatewayBefore(upstream.url, '--max-body', '1024');
    let text = await gateway.metrics.text();
    for (const policy of ['login_throttle', 'max_connections', 'max_body'])
      expect(sample(text, `legacy_rpc_gateway_policy_refusals_total{policy="${policy}"}`)).toBe(0);
    const body = encodeRequest('execute_kw', ['demo', 2, 'f'.repeat(40), 'res.partner', 'search_read', ['x'.repeat(4096)]]);
    const res = await fetch(`${gateway.url}/xmlrpc/2/object`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body });
    expect(await res.text()).toContain('--max-body');
    await expect
      .poll(async () => sample(await gateway.metrics.text(), 'legacy_rpc_gateway_policy_refusals_total{policy="max_body"}'), {
        timeout: 10_000,
      })
      .toBe(1);
    text = await gateway.metrics.text();
    expect(sample(text, 'legacy_rpc_gateway_policy_refusals_total{policy="login_throttle"}')).toBe(0);
  });
});
