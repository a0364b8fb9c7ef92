/**
 * The migration report as served: the stored counts plus what an operator needs before
 * cutting over — shadow mode's state, and per client a readiness line (the share of its sampled
 * calls that were equal, the methods never sampled and why), the deprecated methods it calls with
 * Odoo's message and replacement, and per method the JSON-2 request that replaces it. Derived when
 * the report is read, so the stored report (file, Redis) holds counts only.
 */
import { deprecationOf, replacementOf } from './equivalents/index.ts';
import { notShadowedReason, type GoneService } from './shadow/index.ts';
import { clientLabel, createFleetTable, methodName, type FleetMethod } from './fleet.ts';
import { createBreaksTable, createVerdicts, type ClientVerdict, type SeriesClients, type Verdicts } from './verdicts.ts';
import type { ClientReport, LazyReportSnapshot, MethodReport, ReportSnapshot } from '../report/migration-report.ts';
import { sliced } from '../report/report-stream.ts';

/** Shadow mode as this replica runs it. */
export interface ShadowStatus {
  enabled: boolean;
  /** Percent of allowlisted calls sampled. */
  samplePercent: number;
  maxInFlight: number;
  /** The allowlist. */
  methods: string[];
  /** Services the upstream no longer serves legacy endpoints for: shadow mode stopped for them. */
  gone: GoneService[];
}

/** A deprecated method as the report names it. */
export interface DeprecatedCall {
  model?: string;
  method: string;
  calls: number;
  /** The version Odoo deprecated it in. */
  since: string | null;
  /** Odoo's own message. */
  message: string;
  /** The method to call instead, where Odoo names one (`model.method` when on another model). */
  replacement?: string;
}

/** A client's readiness for the cutover, from shadow mode's results. */
export interface Readiness {
  /** Calls compared: equal + intended + differs. */
  sampled: number;
  equal: number;
  intended: number;
  differs: number;
  errors: number;
  dropped: number;
  /** equal / sampled, as a percentage with one decimal; null when nothing was compared. */
  equalPercent: number | null;
  /** Methods never compared (`service.method` or `model.method`), with why. */
  neverSampled: { method: string; reason: string }[];
  /** The whole line, as the page shows it. */
  line: string;
}

export type CutoverMethodReport = MethodReport & { deprecated?: Omit<DeprecatedCall, 'model' | 'method' | 'calls'> };
export type CutoverClientReport = Omit<ClientReport, 'methods'> & {
  methods: CutoverMethodReport[];
  readiness: Readiness;
  deprecated: DeprecatedCall[];
  /** The earliest series where its calls break natively, and even through the gateway (`verdicts.ts`). */
  verdict: ClientVerdict;
};
/** The report as `/gateway/report.json` serves it. */
export interface CutoverSnapshot extends Omit<ReportSnapshot, 'clients'> {
  shadow: ShadowStatus;
  /** What to migrate, fleet-wide: one row per method with its JSON-2 equivalent (`fleet.ts`). */
  fleet: FleetMethod[];
  /** Per on-premise major, earliest first: the clients whose calls break there, natively and through the gateway. */
  breaks: SeriesClients[];
  clients: CutoverClientReport[];
}

/** How the report is served. */
export interface CutoverOptions {
  /**
   * Methods this gateway answers through their successors (`src/successors/` `successorMethodNames`,
   * none with `--successors off`), for the dated verdicts. Absent: none.
   */
  successorMethods?: readonly string[];
  /** {@link withCutoverSliced}: milliseconds of work between turns of the event loop. */
  sliceMs?: number;
}

export { methodName };

/** Never-sampled methods the readiness line names; the others are counted. */
const neverSampledNamed = 5;

function readinessOf(methods: readonly MethodReport[], shadow: ShadowStatus): Readiness {
  const allowlist = new Set(shadow.methods);
  const total = { equal: 0, intended: 0, differs: 0, errors: 0, dropped: 0 };
  const neverSampled: Readiness['neverSampled'] = [];
  for (const m of methods) {
    const s = m.shadow;
    if (s !== undefined) for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += s[k];
    if (s === undefined || s.equal + s.intended + s.differs + s.errors === 0) {
      const gone = shadow.gone.some((g) => g.service === m.service);
      const reason = !shadow.enabled
        ? 'shadow mode is off'
        : gone
          ? 'the upstream no longer serves this legacy service'
          : (notShadowedReason(m.service, m.method, m.modelMethod, allowlist) ?? 'not sampled yet');
      neverSampled.push({ method: methodName(m), reason });
    }
  }
  const sampled = total.equal + total.intended + total.differs;
  const equalPercent = sampled === 0 ? null : Math.round((total.equal / sampled) * 1000) / 10;
  if (!shadow.enabled && sampled === 0)
    return { sampled, ...total, equalPercent, neverSampled, line: 'Shadow mode is off (--shadow-sample): no call compared.' };
  const head =
    equalPercent === null
      ? 'No call compared yet.'
      : `${equalPercent} % of ${sampled} compared calls equal (${total.equal} equal, ${total.intended} intended deviations, ${total.differs} differ).`;
  const failed = total.errors > 0 ? ` ${total.errors} shadow calls got no comparable answer.` : '';
  const dropped = total.dropped > 0 ? ` ${total.dropped} sampled calls were dropped (the shadow bound was full).` : '';
  const named = neverSampled
    .slice(0, neverSampledNamed)
    .map((n) => `${n.method} (${n.reason})`)
    .join('; ');
  const more = neverSampled.length > neverSampledNamed ? ` and ${neverSampled.length - neverSampledNamed} more` : '';
  const never = neverSampled.length === 0 ? '' : ` Never sampled: ${named}${more}.`;
  return { sampled, ...total, equalPercent, neverSampled, line: `${head}${failed}${dropped}${never}` };
}

function enrichMethod(m: MethodReport): CutoverMethodReport {
  const entry = m.service === 'object' && m.modelMethod !== undefined ? deprecationOf(m.model, m.modelMethod) : undefined;
  const replacement = entry === undefined || m.modelMethod === undefined ? undefined : replacementOf(m.modelMethod);
  const deprecated =
    entry === undefined
      ? undefined
      : {
          since: entry.since,
          message: entry.message,
          ...(replacement === undefined
            ? {}
            : { replacement: replacement.model === undefined ? replacement.method : `${replacement.model}.${replacement.method}` }),
        };
  return { ...m, ...(deprecated === undefined ? {} : { deprecated }) };
}

function deprecatedCalls(methods: readonly CutoverMethodReport[]): DeprecatedCall[] {
  const out = new Map<string, DeprecatedCall>();
  for (const m of methods) {
    if (m.deprecated === undefined || m.modelMethod === undefined) continue;
    const key = `${m.model ?? ''}.${m.modelMethod}`;
    const known = out.get(key);
    if (known !== undefined) known.calls += m.calls;
    else out.set(key, { ...(m.model === undefined ? {} : { model: m.model }), method: m.modelMethod, calls: m.calls, ...m.deprecated });
  }
  return [...out.values()];
}

function withReadiness(c: ClientReport, shadow: ShadowStatus, verdicts: Verdicts): CutoverClientReport {
  const methods = c.methods.map(enrichMethod);
  return {
    ...c,
    methods,
    readiness: readinessOf(c.methods, shadow),
    deprecated: deprecatedCalls(methods),
    verdict: verdicts.client(c.methods),
  };
}

/** The fleet table, the dated verdicts and their summary, gathered client by client. */
function createServed(shadow: ShadowStatus, options: CutoverOptions) {
  const verdicts = createVerdicts({ successorMethods: options.successorMethods ?? [] });
  const fleet = createFleetTable(verdicts);
  const breaks = createBreaksTable();
  return {
    add(c: ClientReport): CutoverClientReport {
      fleet.add(c);
      const served = withReadiness(c, shadow, verdicts);
      breaks.add(clientLabel(c), served.verdict);
      return served;
    },
    tables: () => ({ fleet: fleet.rows(), breaks: breaks.rows() }),
  };
}

/** The served report: `snapshot` with shadow mode's state, the fleet table, readiness, deprecations and dated verdicts. */
export function withCutover(snapshot: ReportSnapshot, shadow: ShadowStatus, options: CutoverOptions = {}): CutoverSnapshot {
  const served = createServed(shadow, options);
  const clients = snapshot.clients.map((c) => served.add(c));
  return { ...snapshot, shadow, ...served.tables(), clients };
}

/**
 * {@link withCutover} gathered in slices (`report-stream.ts` `sliced`): the clients of a lazy
 * snapshot are made, added to the fleet table and given their readiness a few at a time, the event
 * loop free between slices, so serving a large report does not hold the client port.
 */
export async function withCutoverSliced(
  snapshot: LazyReportSnapshot,
  shadow: ShadowStatus,
  options: CutoverOptions = {},
): Promise<CutoverSnapshot> {
  const { clients: lazy, ...head } = snapshot;
  const served = createServed(shadow, options);
  const clients: CutoverClientReport[] = [];
  for await (const c of sliced(lazy, options.sliceMs)) clients.push(served.add(c));
  return { ...head, shadow, ...served.tables(), clients };
}
