/**
 * Dated verdicts (docs/migration-report.md, "Dated verdicts"): per method, the removals Odoo dated
 * after 19.0 that concern it — its legacy service's, its method's, its model's, from
 * `src/odoo-timeline.ts` — and whether the gateway still answers it there; per client, the earliest
 * series where one of its calls breaks natively, and the earliest where one breaks even through the
 * gateway. Derived when the report is served: each method name's verdict is made once per served
 * report, so a client costs a map lookup per method.
 */
import { compareSeries, methodChangeOf, removalText, removedModels, removedServices, type Removal } from '../odoo-timeline.ts';
import { methodName } from './method-name.ts';
import type { MethodReport } from '../report/migration-report.ts';

/**
 * What this gateway answers of what a later Odoo removed. cutover/ does not import
 * `src/successors/` (docs/architecture.md, "What each folder may import"): the composition root
 * passes its `successorMethodNames` (none with `--successors off`).
 */
export interface GatewayServes {
  /** Methods the gateway answers through their successors where the upstream no longer has them. */
  successorMethods: readonly string[];
}

/** The first series of each kind of Odoo that no longer has something. */
export interface SeriesPair {
  /** The on-premise major: `20.0`. */
  onPremise: string;
  /** The Odoo Online series: `saas-19.1`; absent when no source dates it. */
  online?: string;
}

/** One dated removal that concerns a method. */
export interface DatedRemoval extends SeriesPair {
  /** What is removed: the call's legacy service, its method, its model. */
  what: 'service' | 'method' | 'model';
  /** `db`, `read_group`, `ir.rule`. */
  name: string;
  /** `redefined`: the name is back with another meaning (`read_group` in 20.0). */
  kind: 'removed' | 'redefined';
  /** What a client calls instead: a method, a model. */
  replacement?: string;
  /** Where the date comes from (a pull request, Odoo's documentation). */
  source: string;
  /** The gateway still answers the legacy call there. */
  gatewayServes: boolean;
  /** How: the successor it calls (`formatted_read_group`), the routes it uses (`/web/database/*`). */
  through?: string;
  /** The removal in words: "ir.rule was replaced by ir.access in Odoo 20.0". */
  text: string;
}

/** A method's dated verdict. */
export interface MethodVerdict {
  /** Every dated removal that concerns it, the earliest first. */
  removals: DatedRemoval[];
  /** The first series where a native call of it fails; absent when nothing dates one. */
  native?: SeriesPair;
  /** The first series where it fails even through the gateway; absent when the gateway serves it past every dated removal. */
  gateway?: SeriesPair;
  /** What the gateway does where it is natively gone: "the gateway serves it there through formatted_read_group". */
  gatewayText?: string;
  /** The verdict in words: "natively gone in Odoo 20.0 and Online saas-19.1; the gateway serves it there". */
  line: string;
}

/** Methods a client's verdict names per series; the others are counted. */
export const methodsNamedPerBreak = 5;

/** The series where some of a client's calls break, and which. */
export interface SeriesBreak extends SeriesPair {
  /** The methods that break there (`model.method`, `service.method`), at most {@link methodsNamedPerBreak}. */
  methods: string[];
  /** How many of its methods break there. */
  methodCount: number;
}

/** A client's dated verdict. */
export interface ClientVerdict {
  /** The earliest series where a native call of it breaks; absent when no removal concerns its calls. */
  native?: SeriesBreak;
  /** The earliest series where a call breaks even through the gateway; absent when the gateway serves them all. */
  gateway?: SeriesBreak;
  /** The verdict in words, as the page shows it. */
  line: string;
}

/** Clients named per series in the fleet-wide summary; the others are counted. */
export const clientsNamedPerBreak = 20;

/** One series in the fleet-wide summary: how many clients break there. */
export interface SeriesClients extends SeriesPair {
  /** Clients whose first native break is this series. */
  natively: number;
  /** Clients whose first break even through the gateway is this series. */
  throughGateway: number;
  /** Those clients (at most {@link clientsNamedPerBreak}), as the fleet table names them. */
  clients: string[];
}

/** The `db` service's routes the gateway answers it over once Odoo no longer serves it. */
const dbRoutes = '/web/database/*';

function pairOf(p: SeriesPair): SeriesPair {
  return p.online === undefined ? { onPremise: p.onPremise } : { onPremise: p.onPremise, online: p.online };
}

/** Negative when `a` comes first: by on-premise major, then by Online series (an undated one after). */
export function compareBreaks(a: SeriesPair, b: SeriesPair): number {
  const major = compareSeries(a.onPremise, b.onPremise) ?? 0;
  if (major !== 0) return major;
  if (a.online === undefined || b.online === undefined) return a.online === b.online ? 0 : a.online === undefined ? 1 : -1;
  return compareSeries(a.online, b.online) ?? 0;
}

/** "Odoo 20.0 / Online saas-19.1", as a client's verdict names a series. */
export function seriesText(p: SeriesPair): string {
  return p.online === undefined ? `Odoo ${p.onPremise}` : `Odoo ${p.onPremise} / Online ${p.online}`;
}

const andText = (p: SeriesPair) => removalText({ ...p, source: '' });
const servedHow = (r: DatedRemoval) =>
  r.through === undefined ? '' : r.what === 'service' ? ` over ${r.through}` : ` through ${r.through}`;

function removalsOf(m: Pick<MethodReport, 'service' | 'model' | 'modelMethod'>, successors: ReadonlySet<string>): DatedRemoval[] {
  const out: DatedRemoval[] = [];
  const service: Removal | undefined = Object.hasOwn(removedServices, m.service) ? removedServices[m.service] : undefined;
  if (service !== undefined)
    out.push({
      what: 'service',
      name: m.service,
      kind: 'removed',
      ...pairOf(service),
      source: service.source,
      // the gateway's purpose: common and object over JSON-2, db over the database manager
      gatewayServes: true,
      ...(m.service === 'db' ? { through: dbRoutes } : {}),
      text: `the ${m.service} service is gone in ${removalText(service)}`,
    });
  if (m.service === 'object' && m.model !== undefined && m.modelMethod !== undefined) {
    const change = methodChangeOf(m.model, m.modelMethod);
    if (change !== undefined) {
      const served = successors.has(m.modelMethod);
      const reused =
        change.kind === 'redefined' ? `, and Odoo ${change.redefinedIn ?? change.onPremise} reuses the name for another method` : '';
      out.push({
        what: 'method',
        name: m.modelMethod,
        kind: change.kind,
        ...pairOf(change),
        replacement: change.replacement,
        source: change.source,
        gatewayServes: served,
        ...(served ? { through: change.replacement } : {}),
        text: `${m.modelMethod} was removed in ${removalText(change)}${reused}: use ${change.replacement}`,
      });
    }
    const model = Object.hasOwn(removedModels, m.model) ? removedModels[m.model] : undefined;
    if (model !== undefined)
      out.push({
        what: 'model',
        name: m.model,
        kind: 'removed',
        ...pairOf(model),
        replacement: model.replacement,
        source: model.source,
        gatewayServes: false,
        text: `${m.model} was replaced by ${model.replacement} in ${removalText(model)}`,
      });
  }
  return out.sort(compareBreaks);
}

/** A verdict with what a client's verdict reads of it, made once per method name. */
interface Entry {
  verdict: MethodVerdict;
  /** Only service removals make its first native break (every call of the service breaks then). */
  serviceOnly: boolean;
  /** How the gateway answers it at its first native break, when through a successor. */
  successor?: string;
  /** Why it breaks through the gateway. */
  causes?: string;
}

const samePremise = (a: SeriesPair, b: SeriesPair) => compareSeries(a.onPremise, b.onPremise) === 0;

function entryOf(removals: DatedRemoval[]): Entry {
  const first = removals[0];
  if (first === undefined) return { verdict: { removals, line: 'no dated removal concerns it' }, serviceOnly: false };
  const native = pairOf(first);
  const atNative = removals.filter((r) => samePremise(r, native));
  const unserved = removals.find((r) => !r.gatewayServes);
  const gateway = unserved === undefined ? undefined : pairOf(unserved);
  const causes = gateway === undefined ? undefined : removals.filter((r) => !r.gatewayServes && samePremise(r, gateway)).map((r) => r.text);
  const how = atNative
    .filter((r) => r.gatewayServes)
    .map(servedHow)
    .filter((h) => h !== '')
    .join(' and');
  const gatewayText =
    gateway === undefined
      ? `the gateway serves it there${how}`
      : samePremise(gateway, native)
        ? `it breaks through the gateway too (${(causes ?? []).join('; ')})`
        : `the gateway serves it there${how}, until ${andText(gateway)} (${(causes ?? []).join('; ')})`;
  const successor = atNative.find((r) => r.what === 'method' && r.gatewayServes)?.through;
  return {
    verdict: {
      removals,
      native,
      ...(gateway === undefined ? {} : { gateway }),
      gatewayText,
      line: `natively gone in ${andText(native)}; ${gatewayText}`,
    },
    serviceOnly: atNative.every((r) => r.what === 'service'),
    ...(successor === undefined ? {} : { successor }),
    ...(causes === undefined ? {} : { causes: causes.join('; ') }),
  };
}

/** A client's methods at one series, while they are read. */
interface Tier {
  pair: SeriesPair;
  methods: string[];
  count: number;
  serviceOnly: boolean;
  /**
   * Named methods by what is said of them: `through formatted_read_group` (native tier), `(ir.rule was
   * replaced…)` (gateway tier); at most {@link methodsNamedPerBreak} methods in all.
   */
  notes: Map<string, string[]>;
  noted: number;
}

/** Adds a method at `pair` to the earliest tier: a later series is ignored, an earlier one starts over. */
function tierWith(tier: Tier | undefined, pair: SeriesPair, name: string, serviceOnly: boolean, note: string | undefined): Tier {
  const order = tier === undefined ? -1 : compareSeries(pair.onPremise, tier.pair.onPremise);
  if (tier !== undefined && order !== 0) {
    if (order === undefined || order > 0) return tier;
  }
  const t: Tier =
    tier !== undefined && order === 0
      ? tier
      : { pair: { onPremise: pair.onPremise }, methods: [], count: 0, serviceOnly: true, notes: new Map(), noted: 0 };
  if (pair.online !== undefined && (t.pair.online === undefined || (compareSeries(pair.online, t.pair.online) ?? 0) < 0))
    t.pair.online = pair.online;
  t.count++;
  if (t.methods.length < methodsNamedPerBreak) t.methods.push(name);
  t.serviceOnly &&= serviceOnly;
  if (note !== undefined && t.noted < methodsNamedPerBreak) {
    const names = t.notes.get(note);
    if (names === undefined) t.notes.set(note, [name]);
    else names.push(name);
    t.noted++;
  }
  return t;
}

const breakOf = (t: Tier): SeriesBreak => ({ ...pairOf(t.pair), methods: t.methods, methodCount: t.count });
const namedList = (names: string[], count: number) =>
  `${names.join(', ')}${count > names.length ? ` and ${count - names.length} more` : ''}`;
/** `a, b (why), c (why)`: the methods named with what is said of them, grouped by it. */
const grouped = (t: Tier) => [...t.notes].map(([note, names]) => `${names.join(', ')} ${note}`).join(', ');

function clientLine(native: Tier | undefined, gateway: Tier | undefined): string {
  if (native === undefined) return 'No dated removal concerns its calls.';
  const nativePart = native.serviceOnly
    ? `Works natively until ${seriesText(native.pair)}`
    : `Breaks natively on ${seriesText(native.pair)} (${namedList(native.methods, native.count)})`;
  if (gateway !== undefined)
    return `${nativePart}; breaks on ${seriesText(gateway.pair)} even through the gateway: ${grouped(gateway)}${gateway.count > gateway.noted ? ` and ${gateway.count - gateway.noted} more` : ''}.`;
  if (native.serviceOnly) return `${nativePart}; the gateway serves it after.`;
  return `${nativePart}; through the gateway: works on ${seriesText(native.pair)} and later${native.noted === 0 ? '' : ` (${grouped(native)})`}.`;
}

/** The verdicts of one served report. */
export interface Verdicts {
  /** The verdict of `m`, the same object for every client calling it. */
  of(m: Pick<MethodReport, 'service' | 'method' | 'model' | 'modelMethod'>): MethodVerdict;
  /** A client's verdict from its methods. */
  client(methods: readonly Pick<MethodReport, 'service' | 'method' | 'model' | 'modelMethod'>[]): ClientVerdict;
}

export function createVerdicts(serves: GatewayServes = { successorMethods: [] }): Verdicts {
  const successors = new Set(serves.successorMethods);
  // one entry per method name: the report bounds the names (maxMethodNames)
  const entries = new Map<string, Entry>();
  const entry = (m: Pick<MethodReport, 'service' | 'method' | 'model' | 'modelMethod'>, name = methodName(m)): Entry => {
    let e = entries.get(name);
    if (e === undefined) {
      e = entryOf(removalsOf(m, successors));
      entries.set(name, e);
    }
    return e;
  };
  return {
    of: (m) => entry(m).verdict,
    client(methods) {
      let native: Tier | undefined;
      let gateway: Tier | undefined;
      for (const m of methods) {
        const name = methodName(m);
        const e = entry(m, name);
        const v = e.verdict;
        if (v.native === undefined) continue;
        native = tierWith(native, v.native, name, e.serviceOnly, e.successor === undefined ? undefined : `through ${e.successor}`);
        if (v.gateway !== undefined) gateway = tierWith(gateway, v.gateway, name, false, `(${e.causes ?? ''})`);
      }
      return {
        ...(native === undefined ? {} : { native: breakOf(native) }),
        ...(gateway === undefined ? {} : { gateway: breakOf(gateway) }),
        line: clientLine(native, gateway),
      };
    },
  };
}

/** The fleet-wide summary built client by client: per series, the clients that break there. */
export interface BreaksTable {
  add(label: string, verdict: ClientVerdict): void;
  /** The series, earliest first. */
  rows(): SeriesClients[];
}

export function createBreaksTable(): BreaksTable {
  const rows = new Map<string, SeriesClients>();
  const rowAt = (p: SeriesPair) => {
    let row = rows.get(p.onPremise);
    if (row === undefined) {
      row = { onPremise: p.onPremise, natively: 0, throughGateway: 0, clients: [] };
      rows.set(p.onPremise, row);
    }
    if (p.online !== undefined && (row.online === undefined || (compareSeries(p.online, row.online) ?? 0) < 0)) row.online = p.online;
    return row;
  };
  return {
    add(label, verdict) {
      if (verdict.native !== undefined) rowAt(verdict.native).natively++;
      if (verdict.gateway !== undefined) {
        const row = rowAt(verdict.gateway);
        row.throughGateway++;
        if (row.clients.length < clientsNamedPerBreak) row.clients.push(label);
      }
    },
    rows: () =>
      [...rows.values()].sort(compareBreaks).map((r) => ({
        onPremise: r.onPremise,
        ...(r.online === undefined ? {} : { online: r.online }),
        natively: r.natively,
        throughGateway: r.throughGateway,
        clients: [...r.clients],
      })),
  };
}
