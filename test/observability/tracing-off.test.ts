/**
 * Without the OTEL_* variables asking for traces there is no span and no cost: the OpenTelemetry
 * SDK module is never loaded and nothing reaches an OTLP receiver, while the client's own trace
 * context and the request id still travel to Odoo unchanged.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway } from '../../src/server/gateway.ts';
import { requestedTraceExporters } from '../../src/tracing/requested.ts';
import { encodeRequest } from '../fixtures-xml/xmlrpc-request.ts';
import { startOtlpReceiver, startRecordingUpstream } from '../support/recording-upstream.ts';

const sdk = vi.hoisted(() => ({ loaded: 0 }));
vi.mock('../../src/tracing/otel.ts', async (importOriginal) => {
  sdk.loaded++;
  return importOriginal();
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('tracing off', () => {
  it.each([
    ['no OTEL_* variable', false],
    ['OTEL_SDK_DISABLED=true beside an endpoint', { OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }],
    ['OTEL_TRACES_EXPORTER=none beside an endpoint', { OTEL_TRACES_EXPORTER: 'none' }],
  ] as const)('with %s: no SDK loaded, no span exported, the client context passed on as it came', async (_name, otelEnv) => {
    const upstream = await startRecordingUpstream();
    cleanups.push(() => upstream.close());
    const receiver = await startOtlpReceiver();
    cleanups.push(() => receiver.close());
    const env = otelEnv === false ? {} : { ...otelEnv, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    const gateway = await startGateway(
      loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstream.url], {}),
      createLogger('silent'),
      { env },
    );
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const res = await fetch(`${gateway.url}/xmlrpc/2/object`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml', traceparent, 'x-request-id': 'req-off' },
      body: encodeRequest('execute_kw', ['demo', 2, 'f'.repeat(40), 'res.partner', 'search_read', []]),
    });
    expect(await res.text()).toContain('<array><data>');
    await gateway.close();
    expect(sdk.loaded).toBe(0);
    expect(receiver.exports).toEqual([]);
    const sent = upstream.requests.find((r) => r.path === '/json/2/res.partner/search_read');
    expect(sent?.headers.traceparent).toBe(traceparent);
    expect(sent?.headers['x-request-id']).toBe('req-off');
  });

  it('drops a malformed traceparent instead of passing it on', async () => {
    const upstream = await startRecordingUpstream();
    cleanups.push(() => upstream.close());
    const gateway = await startGateway(
      loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstream.url], {}),
      createLogger('silent'),
      { env: {} },
    );
    await fetch(`${gateway.url}/xmlrpc/2/object`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml', traceparent: 'not-a-trace-context', tracestate: 'vendor=abc' },
      body: encodeRequest('execute_kw', ['demo', 2, 'f'.repeat(40), 'res.partner', 'search_read', []]),
    });
    await gateway.close();
    const sent = upstream.requests.find((r) => r.path === '/json/2/res.partner/search_read');
    expect(sent?.headers.traceparent).toBeUndefined();
    expect(sent?.headers.tracestate).toBeUndefined();
    expect(sent?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reads the standard variables: an OTLP endpoint or exporter asks for traces, none or disabled wins', () => {
    expect(requestedTraceExporters({}).exporters).toEqual([]);
    expect(requestedTraceExporters({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).exporters).toEqual(['otlp']);
    expect(requestedTraceExporters({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }).exporters).toEqual(['otlp']);
    expect(requestedTraceExporters({ OTEL_TRACES_EXPORTER: 'otlp,console' }).exporters).toEqual(['otlp', 'console']);
    expect(requestedTraceExporters({ OTEL_TRACES_EXPORTER: 'zipkin' })).toEqual({ exporters: [], unknown: ['zipkin'] });
    expect(
      requestedTraceExporters({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).exporters,
    ).toEqual([]);
    expect(requestedTraceExporters({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }).exporters).toEqual([]);
  });
});
