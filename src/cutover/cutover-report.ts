/**
 * The migration report as served: the stored counts plus what an operator needs before
 * cutting over — shadow mode's state, and per client a readiness line (the share of its sampled
 * calls that were equal, the methods never sampled and why), the deprecated methods it calls with
 * Odoo's message and replacement, and per method the JSON-2 request that replaces it. Derived when
 * the report is read, so the stored report (file, Redis) holds counts only.
 */
import { deprecationOf, json2EquivalentOf, replacementOf } from './equivalents/index.ts';
import { notShadowedReason, type GoneService } from './shadow/index.ts';
import { clientLabel, createFleetTable, type FleetMethod } from './fleet.ts';
import { methodName } from './method-name.ts';
import { knownClientOf, type KnownClient } from './known-clients.ts';
import { sharedUserAgents, type SharedUserAgent } from './shared-agents.ts';
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

/** The route modes in force (`--routes-file`, `--default-mode`; `src/cutover/routes/`). */
export interface RoutesStatus {
  file: string | undefined;
  defaultMode: string;
  rules: { name: string; mode: string; line: number }[];
  /** Services native/verify fell back to translate for: the upstream no longer serves them natively. */
  fallbacks: GoneService[];
}

/** The routes a client took, and the source of them for the report. */
export interface ClientRoute {
  /** The rule's name; undefined for --default-mode. */
  rule: string | undefined;
  mode: string;
}

/**
 * Whether a client can be switched to translate: "ready to switch" only when every method it called
 * in the report's window was verified at least once — compared equal (or as an intended deviation),
 * or for a call that can change state its binding checked — and none differed.
 */
export interface SwitchReadiness {
  verdict: 'ready to switch' | 'not ready';
  /** Calls compared: equal + intended + differs. */
  compared: number;
  equal: number;
  differs: number;
  /** Writes whose binding was checked (verify routes). */
  bound: number;
  /** Methods that differed at least once. */
  differing: string[];
  /** Methods called but never verified. */
  neverVerified: string[];
  line: string;
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

export type CutoverMethodReport = MethodReport & {
  deprecated?: Omit<DeprecatedCall, 'model' | 'method' | 'calls'>;
  /** The JSON-2 request that replaces it (`POST /json/2/res.partner/read`), for a method that succeeded at least once. */
  json2Request?: string;
  /** Where the JSON-2 answer differs from the legacy one (create with one dict answers `[id]`). */
  json2Warning?: string;
};
export type CutoverClientReport = Omit<ClientReport, 'methods'> & {
  methods: CutoverMethodReport[];
  readiness: Readiness;
  deprecated: DeprecatedCall[];
  /** The earliest series where its calls break natively, and even through the gateway (`verdicts.ts`). */
  verdict: ClientVerdict;
  /** Whether it can be switched to translate (shadow and verify results together). */
  switchReadiness: SwitchReadiness;
  /** The routes its calls took lately (with route modes on). */
  routes?: ClientRoute[];
  /** What it is and the switch it needs, when the report recognises it (`known-clients.ts`). */
  knownClient?: KnownClient;
  /** What tells it apart from the other clients with its User-Agent, when there are any (`shared-agents.ts`). */
  sharedUserAgent?: SharedUserAgent;
  /** Its login in clear, with `--report-show-logins` and when this process saw it. */
  login?: string;
};
/** The report as `/gateway/report.json` serves it. */
export interface CutoverSnapshot extends Omit<ReportSnapshot, 'clients'> {
  shadow: ShadowStatus;
  /** What to migrate, fleet-wide: one row per method with its JSON-2 equivalent (`fleet.ts`). */
  fleet: FleetMethod[];
  /** Per on-premise major, earliest first: the clients whose calls break there, natively and through the gateway. */
  breaks: SeriesClients[];
  clients: CutoverClientReport[];
  /** The route modes in force, when --routes-file or a --default-mode other than translate is set. */
  routes?: RoutesStatus;
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
  /** The login behind a pseudonym (`--report-show-logins`); absent: pseudonyms only. */
  loginOf?: (user: string) => string | undefined;
  /** The route modes in force, and the routes a client took. */
  routes?: { status: RoutesStatus; routesOf: (userAgent: string, ip: string, database: string | undefined) => ClientRoute[] };
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

/** Names listed in a verdict line; the others are counted. */
const verdictNamed = 5;

function listed(names: readonly string[]): string {
  const more = names.length > verdictNamed ? ` and ${names.length - verdictNamed} more` : '';
  return names.slice(0, verdictNamed).join(', ') + more;
}

/** The switch verdict of a client's methods (see {@link SwitchReadiness}). */
export function switchReadinessOf(methods: readonly MethodReport[]): SwitchReadiness {
  const total = { compared: 0, equal: 0, differs: 0, bound: 0 };
  const differing: string[] = [];
  const neverVerified: string[] = [];
  for (const m of methods) {
    const s = m.shadow;
    const equal = s?.equal ?? 0;
    const intended = s?.intended ?? 0;
    const differs = s?.differs ?? 0;
    const bound = s?.bound ?? 0;
    total.compared += equal + intended + differs;
    total.equal += equal;
    total.differs += differs;
    total.bound += bound;
    if (differs > 0) differing.push(methodName(m));
    if (equal + intended + bound === 0) neverVerified.push(methodName(m));
  }
  const ready = methods.length > 0 && differing.length === 0 && neverVerified.length === 0;
  const head = `${ready ? 'Ready to switch' : 'Not ready'}: ${total.compared} compared calls, ${total.equal} equal, ${total.differs} differ; ${total.bound} writes bound.`;
  const parts = [head];
  if (differing.length > 0) parts.push(`Differs: ${listed(differing)}.`);
  if (neverVerified.length > 0) parts.push(`Never verified: ${listed(neverVerified)}.`);
  if (methods.length === 0) parts.push('No call seen.');
  return { verdict: ready ? 'ready to switch' : 'not ready', ...total, differing, neverVerified, line: parts.join(' ') };
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
  // as in the fleet table: a call that always failed may have bound wrongly
  const json2 = m.calls > m.faults ? json2EquivalentOf(m, { examples: false }) : undefined;
  return {
    ...m,
    ...(deprecated === undefined ? {} : { deprecated }),
    ...(json2?.request === undefined ? {} : { json2Request: json2.request }),
    ...(json2?.warning === undefined ? {} : { json2Warning: json2.warning }),
  };
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

function withReadiness(c: ClientReport, shadow: ShadowStatus, verdicts: Verdicts, options: CutoverOptions): CutoverClientReport {
  const methods = c.methods.map(enrichMethod);
  const routes = options.routes?.routesOf(c.userAgent, c.ip, c.database);
  const known = knownClientOf(c);
  const login = c.user === undefined ? undefined : options.loginOf?.(c.user);
  return {
    ...c,
    methods,
    readiness: readinessOf(c.methods, shadow),
    deprecated: deprecatedCalls(methods),
    verdict: verdicts.client(c.methods),
    switchReadiness: switchReadinessOf(c.methods),
    ...(routes === undefined ? {} : { routes }),
    ...(known === undefined ? {} : { knownClient: known }),
    ...(login === undefined ? {} : { login }),
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
      const served = withReadiness(c, shadow, verdicts, options);
      breaks.add(clientLabel(c), served.verdict);
      return served;
    },
    tables: () => ({ fleet: fleet.rows(), breaks: breaks.rows() }),
  };
}

/** The served report: `snapshot` with shadow mode's state, the fleet table, readiness, deprecations and dated verdicts. */
export function withCutover(snapshot: ReportSnapshot, shadow: ShadowStatus, options: CutoverOptions = {}): CutoverSnapshot {
  const served = createServed(shadow, options);
  const clients = markShared(snapshot.clients.map((c) => served.add(c)));
  return { ...snapshot, shadow, ...served.tables(), clients, ...routesOf(options) };
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
  markShared(clients);
  return { ...head, shadow, ...served.tables(), clients, ...routesOf(options) };
}

/** Each client that shares its User-Agent with another gets what tells it apart. */
function markShared(clients: CutoverClientReport[]): CutoverClientReport[] {
  sharedUserAgents(clients).forEach((shared, i) => {
    if (shared !== undefined) (clients[i] as CutoverClientReport).sharedUserAgent = shared;
  });
  return clients;
}

const routesOf = (options: CutoverOptions): { routes?: RoutesStatus } =>
  options.routes === undefined ? {} : { routes: options.routes.status };
