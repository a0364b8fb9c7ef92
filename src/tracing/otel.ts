/**
 * The OpenTelemetry SDK behind {@link CallTracer}: a tracer provider of its own (no global one is
 * registered, so several gateways can run in one process), W3C Trace Context in and out, spans
 * batched and exported over OTLP/HTTP (protobuf or JSON, per `OTEL_EXPORTER_OTLP_PROTOCOL`) or to the
 * console. The exporter and batching read their standard `OTEL_*` variables (headers, timeout,
 * compression, `OTEL_BSP_*`); the sampler is `OTEL_TRACES_SAMPLER` (default: parentbased_always_on,
 * so a client that sent `sampled=0` is not recorded). Spans carry the call's dialect, service,
 * method, model and database: never arguments, passwords or keys.
 * Imported only when tracing is asked for (`call-tracer.ts`).
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Attributes,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { gatewayVersion } from '../build-info.ts';
import { methodLabel, serviceLabel, upstreamRouteLabel } from '../metrics/labels.ts';
import { outcomeName } from '../wire/response.ts';
import type { CallSpan, CallTracer, UpstreamSpan } from './call-tracer.ts';
import type { TraceExporterName } from './requested.ts';

/** Where OTLP/HTTP spans go: the traces endpoint as given, else the base endpoint's `/v1/traces`. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

function otlpExporter(env: NodeJS.ProcessEnv): SpanExporter {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  const url = otlpTracesUrl(env);
  const config = url === undefined ? {} : { url };
  if (protocol === 'http/protobuf') return new OtlpProtobufExporter(config);
  if (protocol === 'http/json') return new OtlpJsonExporter(config);
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: the gateway exports traces over OTLP/HTTP only (http/protobuf or http/json)`);
}

export function createOtelCallTracer(env: NodeJS.ProcessEnv, exporters: readonly TraceExporterName[]): CallTracer {
  const serviceName = env.OTEL_SERVICE_NAME?.trim();
  const resource = resourceFromAttributes({ 'service.name': 'legacy-rpc-gateway', 'service.version': gatewayVersion })
    // OTEL_RESOURCE_ATTRIBUTES (process environment) and OTEL_SERVICE_NAME win over the defaults
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes(serviceName ? { 'service.name': serviceName } : {}));
  const spanProcessors = exporters.map((name) => new BatchSpanProcessor(name === 'otlp' ? otlpExporter(env) : new ConsoleSpanExporter()));
  const provider = new NodeTracerProvider({ resource, spanProcessors });
  const tracer = provider.getTracer('legacy-rpc-gateway', gatewayVersion);
  const propagator = new W3CTraceContextPropagator();

  return {
    startCall(dialect, client): CallSpan {
      const parent = client === undefined ? ROOT_CONTEXT : propagator.extract(ROOT_CONTEXT, client, defaultTextMapGetter);
      const span = tracer.startSpan(
        'legacy call',
        {
          kind: SpanKind.SERVER,
          attributes: { 'rpc.system': dialect === 'jsonrpc' ? 'jsonrpc' : 'xmlrpc', 'legacy_rpc.dialect': dialect },
        },
        parent,
      );
      const context = trace.setSpan(parent, span);
      return {
        upstream(method, path, db): UpstreamSpan {
          const attributes: Attributes = { 'http.request.method': method, 'url.path': path };
          if (db !== undefined) {
            attributes['odoo.database'] = db;
            span.setAttribute('odoo.database', db);
          }
          const child = tracer.startSpan(`${method} ${upstreamRouteLabel(path)}`, { kind: SpanKind.CLIENT, attributes }, context);
          const headers: Record<string, string> = {};
          propagator.inject(trace.setSpan(context, child), headers, defaultTextMapSetter);
          return {
            headers,
            end(status) {
              if (status === undefined) child.setStatus({ code: SpanStatusCode.ERROR, message: 'no answer' });
              else {
                child.setAttribute('http.response.status_code', status);
                if (status >= 500) child.setStatus({ code: SpanStatusCode.ERROR });
              }
              child.end();
            },
          };
        },
        end(outcome) {
          const service = serviceLabel(outcome.service);
          const method = methodLabel(outcome.service, outcome.method, outcome.modelMethod);
          span.updateName(`${service}.${method}`);
          const attributes: Attributes = {
            'rpc.service': outcome.service,
            'rpc.method': outcome.method,
            'legacy_rpc.outcome': outcomeName(outcome),
          };
          if (outcome.model !== undefined) attributes['odoo.model'] = outcome.model;
          if (outcome.modelMethod !== undefined) attributes['odoo.method'] = outcome.modelMethod;
          span.setAttributes(attributes);
          // the error's kind only: its message may quote what the call sent
          if (outcome.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error.kind });
          span.end();
        },
      };
    },
    close: () => provider.shutdown(),
  };
}
