/**
 * Whether the standard OpenTelemetry variables ask for traces. Read without loading any of the
 * OpenTelemetry SDK, so a gateway that is not asked for traces never loads it.
 *
 * Asked for: `OTEL_TRACES_EXPORTER` naming `otlp` (or `console`), or, with `OTEL_TRACES_EXPORTER`
 * unset, an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`).
 * `OTEL_SDK_DISABLED=true` and `OTEL_TRACES_EXPORTER=none` turn traces off whatever else is set.
 * Unlike the SDK's own default (`otlp` to localhost:4318), nothing set means no traces.
 */

/** The exporters the gateway can send spans to. */
export type TraceExporterName = 'otlp' | 'console';

/** The exporters asked for (empty: no traces), and the names it does not know. */
export function requestedTraceExporters(env: NodeJS.ProcessEnv): { exporters: TraceExporterName[]; unknown: string[] } {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return { exporters: [], unknown: [] };
  const named = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (named.length === 0) {
    const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
    return { exporters: endpoint !== undefined && endpoint.trim() !== '' ? ['otlp'] : [], unknown: [] };
  }
  if (named.includes('none')) return { exporters: [], unknown: [] };
  const exporters = [...new Set(named.filter((n): n is TraceExporterName => n === 'otlp' || n === 'console'))];
  return { exporters, unknown: named.filter((n) => n !== 'otlp' && n !== 'console') };
}
