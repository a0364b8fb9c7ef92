import type { Logger } from '../log.ts';
import type { CallTracer } from './call-tracer.ts';
import { requestedTraceExporters } from './requested.ts';

/**
 * The tracer the `OTEL_*` variables ask for, or `undefined` (no SDK loaded) when they ask for none.
 * Exporter names it does not know are logged and ignored.
 */
export async function loadCallTracer(env: NodeJS.ProcessEnv, log: Logger): Promise<CallTracer | undefined> {
  const { exporters, unknown } = requestedTraceExporters(env);
  if (unknown.length > 0)
    log.warn({ exporters: unknown }, 'OTEL_TRACES_EXPORTER names exporters the gateway does not have (it has otlp and console): ignored');
  if (exporters.length === 0) return undefined;
  const { createOtelCallTracer } = await import('./otel.ts');
  const tracer = createOtelCallTracer(env, exporters);
  log.info({ exporters }, 'tracing: spans of legacy calls exported (OpenTelemetry)');
  return tracer;
}
