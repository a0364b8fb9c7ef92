/**
 * Traces of legacy calls: the client's W3C trace context is continued by a span per legacy call,
 * each upstream request is its child and carries the child's `traceparent` (and the call's
 * X-Request-Id) to Odoo, and the spans reach an OTLP/HTTP receiver (OTLP/JSON decoded here; the
 * default protobuf encoding checked for the trace id it carries).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway } from '../../src/server/gateway.ts';
import { encodeRequest } from '../fixtures-xml/xmlrpc-request.ts';
import { startOtlpReceiver, startRecordingUpstream } from '../support/recording-upstream.ts';

const apiKey = 'f'.repeat(40);
const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const clientSpanId = '00f067aa0ba902b7';
const secretArgument = 'an-argument-no-span-may-show';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function tracedCall(protocol: 'http/json' | 'http/protobuf') {
  const upstream = await startRecordingUpstream();
  cleanups.push(() => upstream.close());
  const receiver = await startOtlpReceiver();
  cleanups.push(() => receiver.close());
  const env = {
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_SERVICE_NAME: 'gateway-under-test',
  };
  const gateway = await startGateway(
    loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstream.url], {}),
    createLogger('silent'),
    { env },
  );
  const res = await fetch(`${gateway.url}/xmlrpc/2/object`, {
    method: 'POST',
    headers: {
      'content-type': 'text/xml',
      traceparent: `00-${traceId}-${clientSpanId}-01`,
      tracestate: 'vendor=abc',
      'x-request-id': 'req-42',
    },
    body: encodeRequest('execute_kw', ['demo', 2, apiKey, 'res.partner', 'search_read', [[['name', '=', secretArgument]]]]),
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('<array><data>');
  // closing flushes the spans the batch processor holds
  await gateway.close();
  await expect.poll(() => receiver.exports.length, { timeout: 20_000 }).toBeGreaterThan(0);
  return { upstream, receiver };
}

describe('traces over OTLP (OpenTelemetry SDK)', () => {
  it('continues the client trace: a span per legacy call, the upstream call its child, Odoo gets the child context and the request id', async () => {
    const { upstream, receiver } = await tracedCall('http/json');
    expect(receiver.exports.every((e) => e.path === '/v1/traces' && e.contentType.startsWith('application/json'))).toBe(true);
    const batches = receiver.exports.map(
      (e) =>
        JSON.parse(e.body.toString('utf8')) as {
          resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
        },
    );
    const spans = batches.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    const resourceAttributes = batches[0]!.resourceSpans[0]!.resource.attributes;
    expect(resourceAttributes).toContainEqual({ key: 'service.name', value: { stringValue: 'gateway-under-test' } });
    const attr = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value;

    const call = spans.find((s) => s.kind === 2);
    expect(call).toBeDefined();
    expect(call!.traceId).toBe(traceId);
    expect(call!.parentSpanId).toBe(clientSpanId);
    expect(call!.name).toBe('object.search_read');
    expect(attr(call!, 'odoo.model')).toEqual({ stringValue: 'res.partner' });
    expect(attr(call!, 'odoo.method')).toEqual({ stringValue: 'search_read' });
    expect(attr(call!, 'legacy_rpc.dialect')).toEqual({ stringValue: 'xmlrpc2' });
    expect(attr(call!, 'odoo.database')).toEqual({ stringValue: 'demo' });

    const children = spans.filter((s) => s.kind === 3);
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) {
      expect(child.traceId).toBe(traceId);
      expect(child.parentSpanId).toBe(call!.spanId);
    }
    const searchRead = children.find((s) => attr(s, 'url.path')?.stringValue === '/json/2/res.partner/search_read');
    expect(searchRead).toBeDefined();
    expect(attr(searchRead!, 'http.response.status_code')).toEqual({ intValue: 200 });

    // what Odoo received: the child's context (same trace, the child as parent), the request id
    const sent = upstream.requests.find((r) => r.path === '/json/2/res.partner/search_read');
    expect(sent?.headers.traceparent).toBe(`00-${traceId}-${searchRead!.spanId}-01`);
    expect(sent?.headers.tracestate).toBe('vendor=abc');
    expect(sent?.headers['x-request-id']).toBe('req-42');

    // never arguments or credentials
    const exported = receiver.exports.map((e) => e.body.toString('utf8')).join('\n');
    expect(exported).not.toContain(secretArgument);
    expect(exported).not.toContain(apiKey);
  });

  it('exports OTLP/protobuf by default, carrying the client trace id', async () => {
    const { receiver } = await tracedCall('http/protobuf');
    expect(receiver.exports.every((e) => e.path === '/v1/traces' && e.contentType === 'application/x-protobuf')).toBe(true);
    const body = Buffer.concat(receiver.exports.map((e) => e.body));
    expect(body.includes(Buffer.from(traceId, 'hex'))).toBe(true);
    expect(body.includes(Buffer.from(secretArgument))).toBe(false);
  });
});
