/**
 * What the gateway asks of tracing: a span per legacy call, continuing the client's W3C trace
 * context, with a child span per upstream request whose context travels upstream (`traceparent`).
 * Only this contract is loaded at start; the OpenTelemetry SDK behind it (`otel.ts`) is imported
 * only when the `OTEL_*` variables ask for traces (`load-tracer.ts`).
 */
import { callKey, type ClientTraceContext, type Dialect } from '../call.ts';
import type { CallOutcome } from '../wire/response.ts';

/** One upstream request's span: the headers that carry its context upstream, and its end. */
export interface UpstreamSpan {
  readonly headers: Record<string, string>;
  /** `status`: the upstream's HTTP status; `undefined` when no answer arrived. */
  end(status: number | undefined): void;
}

/** One legacy call's span. */
export interface CallSpan {
  /** A child span for one upstream request (`db`: the database it names, if any). */
  upstream(method: string, path: string, db: string | undefined): UpstreamSpan;
  /** Ends the span with the call's outcome: service, method, model, never arguments or credentials. */
  end(outcome: CallOutcome): void;
}

/** The call's span, when traces are exported (set by the server): each upstream request becomes its child. */
export const callSpan = callKey<CallSpan | undefined>('call span', undefined);

export interface CallTracer {
  /** Starts the span of a legacy call, a child of the client's trace context when it sent one. */
  startCall(dialect: Dialect, client: ClientTraceContext | undefined): CallSpan;
  /** Sends the spans still buffered and stops. */
  close(): Promise<void>;
}

const traceparentPattern = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}(?:-[\w.-]*)?$/;

/**
 * The client's trace context headers when `traceparent` is well formed (W3C Trace Context: version,
 * trace id, parent id, flags); `tracestate` travels only with it, and only when of sane length.
 */
export function clientTraceContext(traceparent: string | undefined, tracestate: string | undefined): ClientTraceContext | undefined {
  if (traceparent === undefined || traceparent.length > 512 || !traceparentPattern.test(traceparent)) return undefined;
  return tracestate === undefined || tracestate.length > 512 ? { traceparent } : { traceparent, tracestate };
}
