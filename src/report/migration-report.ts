/**
 * The migration report (design §8): per legacy client (User-Agent and source address) which
 * services, models and methods it called, how often, how many failed, first and last seen — what an
 * operator needs to find the integrations still on XML-RPC/JSON-RPC. Bounded: the least recently
 * seen client leaves first, a client keeps a fixed number of distinct methods (later ones are only
 * counted), and client-supplied strings are cut to a fixed length.
 */
import type { Dialect } from '../call.ts';

/** Distinct (service, method, model, model method) entries kept per client. */
export const maxMethodsPerClient = 200;
/** Longest User-Agent, model or method name kept (they are client input). */
export const maxLabelLength = 200;

/** One finished legacy call, as the report needs it (never arguments). */
export interface ReportedCall {
  dialect: Dialect;
  userAgent: string;
  ip: string;
  service: string;
  method: string;
  model?: string | undefined;
  modelMethod?: string | undefined;
  failed: boolean;
  /**
   * For `object` calls: the placeholder body of the JSON-2 request the call bound to
   * (`equivalents/placeholders.ts`), computed only when the report has none yet for the method.
   */
  json2Body?: (() => string) | undefined;
  /** Answered through the successor of a method the upstream no longer has (`src/successors/`). */
  successor?: boolean | undefined;
}

/** What shadow mode found for one sampled call (`src/shadow/`). */
export type ShadowOutcome = 'equal' | 'intended' | 'differs' | 'error' | 'dropped';

/** Shadow results of one method. */
export interface ShadowCounts {
  /** The legacy endpoint answered the same. */
  equal: number;
  /** It answered differently, as an intended deviation of COMPATIBILITY.md describes. */
  intended: number;
  /** It answered differently, twice. */
  differs: number;
  /** No comparison: the legacy endpoint failed or answered something else than a legacy answer. */
  errors: number;
  /** Sampled, but the bound on shadow calls in flight was full. */
  dropped: number;
  /** Intended differences by COMPATIBILITY.md section title. */
  deviations?: Record<string, number>;
}

/** One difference that persisted, as stored: redacted and truncated (`src/shadow/redact.ts`). */
export interface ShadowDifference {
  /** ISO 8601. */
  at: string;
  dialect: string;
  /** `path: what differs`, at most a few. */
  differences: string[];
  /** The gateway's answer and the legacy endpoint's, rendered with their XML-RPC/JSON types. */
  gateway: string;
  legacy: string;
}

/** One shadow result, for the method entry of the call it shadowed. */
export interface ReportedShadow {
  userAgent: string;
  ip: string;
  service: string;
  method: string;
  model?: string | undefined;
  modelMethod?: string | undefined;
  outcome: ShadowOutcome;
  /** For `intended`: the COMPATIBILITY.md section title. */
  deviation?: string;
  /** For `differs`: what is kept. */
  difference?: ShadowDifference;
}

/** Differences kept per method, the most recent. */
export const maxDifferencesPerMethod = 3;

/** One method a client called. Times are ISO 8601. */
export interface MethodReport {
  service: string;
  method: string;
  model?: string;
  modelMethod?: string;
  calls: number;
  faults: number;
  firstSeen: string;
  lastSeen: string;
  /** For `object` calls: the placeholder body of the JSON-2 request the gateway sent. */
  json2Body?: string;
  /** Calls answered through the method's successor, once there was one. */
  successorCalls?: number;
  /** Shadow mode's results, once a call of this method was sampled. */
  shadow?: ShadowCounts;
  /** The last differences that persisted, oldest first. */
  differences?: ShadowDifference[];
}

/** One legacy client. */
export interface ClientReport {
  userAgent: string;
  ip: string;
  firstSeen: string;
  lastSeen: string;
  calls: number;
  faults: number;
  /** Calls per dialect (`xmlrpc1`, `xmlrpc2`, `jsonrpc`). */
  dialects: Record<string, number>;
  /** Calls per service. */
  services: Record<string, number>;
  /** Most recently called first. */
  methods: MethodReport[];
  /** Calls to methods beyond {@link maxMethodsPerClient} (counted in `calls`, not listed). */
  unlistedCalls: number;
}

/** The whole report, as `/gateway/report.json` serves it and the report file holds it. */
export interface ReportSnapshot {
  version: 1;
  generatedAt: string;
  /** Most recently seen first. */
  clients: ClientReport[];
}

/** The live report. */
export interface MigrationReport {
  /** Counts one call. */
  record(call: ReportedCall): void;
  /** Counts one shadow result for the method of the call it shadowed. */
  recordShadow(result: ReportedShadow): void;
  /** The report now. */
  snapshot(): ReportSnapshot;
  /** Replaces the content with a saved snapshot (at start), keeping the most recently seen clients. */
  restore(snapshot: ReportSnapshot): void;
  /** Changes since start: a persister saves only when it moved. */
  readonly revision: number;
  readonly size: number;
}

/** A method's counts with its times in epoch ms, as the report keeps them (in memory and in Redis). */
export type MethodCounts = Omit<MethodReport, 'model' | 'modelMethod' | 'firstSeen' | 'lastSeen' | 'json2Body' | 'shadow' | 'differences'> & {
  json2Body?: string | undefined;
  shadow?: ShadowCounts | undefined;
  differences?: ShadowDifference[] | undefined;
  model?: string | undefined;
  modelMethod?: string | undefined;
  firstSeen: number;
  lastSeen: number;
};

type MethodEntry = MethodCounts;

/** A client's methods as the report shows them: most recently called first, times in ISO 8601. */
export function methodReports(methods: Iterable<MethodCounts>): MethodReport[] {
  const iso = (ms: number) => new Date(ms).toISOString();
  return [...methods]
    .sort((a, b) => b.lastSeen - a.lastSeen)
    .map((m) => ({
      service: m.service, method: m.method,
      ...(m.model === undefined ? {} : { model: m.model }),
      ...(m.modelMethod === undefined ? {} : { modelMethod: m.modelMethod }),
      calls: m.calls, faults: m.faults, firstSeen: iso(m.firstSeen), lastSeen: iso(m.lastSeen),
      ...(m.json2Body === undefined ? {} : { json2Body: m.json2Body }),
      ...(m.successorCalls === undefined ? {} : { successorCalls: m.successorCalls }),
      ...(m.shadow === undefined ? {} : { shadow: m.shadow }),
      ...(m.differences === undefined || m.differences.length === 0 ? {} : { differences: m.differences }),
    }));
}

/** No shadow result yet. */
export const emptyShadowCounts = (): ShadowCounts => ({ equal: 0, intended: 0, differs: 0, errors: 0, dropped: 0 });

const shadowField: Record<ShadowOutcome, Exclude<keyof ShadowCounts, 'deviations'>> = {
  equal: 'equal', intended: 'intended', differs: 'differs', error: 'errors', dropped: 'dropped',
};

/** Adds one shadow result to a method's counts (the in-process report and its Redis delta alike). */
function addShadow(entry: MethodCounts, result: ReportedShadow): void {
  const counts = entry.shadow ?? emptyShadowCounts();
  counts[shadowField[result.outcome]]++;
  if (result.outcome === 'intended' && result.deviation !== undefined) {
    counts.deviations = { ...counts.deviations, [result.deviation]: (counts.deviations?.[result.deviation] ?? 0) + 1 };
  }
  entry.shadow = counts;
  if (result.difference !== undefined) entry.differences = [...(entry.differences ?? []), result.difference].slice(-maxDifferencesPerMethod);
}

interface ClientEntry {
  userAgent: string;
  ip: string;
  firstSeen: number;
  lastSeen: number;
  calls: number;
  faults: number;
  dialects: Map<string, number>;
  services: Map<string, number>;
  methods: Map<string, MethodEntry>;
  unlistedCalls: number;
}

const cut = (s: string): string => (s.length > maxLabelLength ? s.slice(0, maxLabelLength) : s);
const keyOf = (...parts: Array<string | undefined>): string => JSON.stringify(parts);
const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

/** Creates an empty report of at most `maxClients` clients; `now` is the clock (tests pass a fixed one). */
export function createMigrationReport({ maxClients, now = Date.now }: { maxClients: number; now?: () => number }): MigrationReport {
  if (!Number.isInteger(maxClients) || maxClients < 1) throw new Error(`maxClients must be a positive integer, got ${maxClients}`);
  // A Map iterates in insertion order: re-inserting on every call keeps the least recently seen first.
  const clients = new Map<string, ClientEntry>();
  let revision = 0;

  function touch(key: string, entry: ClientEntry): void {
    clients.delete(key);
    clients.set(key, entry);
    while (clients.size > maxClients) clients.delete(clients.keys().next().value as string);
  }

  return {
    record(call) {
      const at = now();
      const userAgent = cut(call.userAgent);
      const key = keyOf(userAgent, call.ip);
      const client = clients.get(key) ?? {
        userAgent, ip: call.ip, firstSeen: at, lastSeen: at, calls: 0, faults: 0,
        dialects: new Map(), services: new Map(), methods: new Map(), unlistedCalls: 0,
      };
      client.lastSeen = at;
      client.calls++;
      if (call.failed) client.faults++;
      bump(client.dialects, call.dialect);
      const service = cut(call.service);
      bump(client.services, service);
      const model = call.model === undefined ? undefined : cut(call.model);
      const modelMethod = call.modelMethod === undefined ? undefined : cut(call.modelMethod);
      const methodKey = keyOf(service, cut(call.method), model, modelMethod);
      let method = client.methods.get(methodKey);
      if (method === undefined && client.methods.size < maxMethodsPerClient) {
        method = { service, method: cut(call.method), model, modelMethod, calls: 0, faults: 0, firstSeen: at, lastSeen: at };
        client.methods.set(methodKey, method);
      }
      if (method === undefined) client.unlistedCalls++;
      else {
        method.calls++;
        if (call.failed) method.faults++;
        if (call.successor === true) method.successorCalls = (method.successorCalls ?? 0) + 1;
        method.lastSeen = at;
        if (method.json2Body === undefined && call.json2Body !== undefined) method.json2Body = call.json2Body();
      }
      touch(key, client);
      revision++;
    },

    recordShadow(result) {
      const at = now();
      const userAgent = cut(result.userAgent);
      const key = keyOf(userAgent, result.ip);
      // a client seen by this report already (or, in a Redis delta, seen since its last flush)
      let client = clients.get(key);
      if (client === undefined) {
        client = { userAgent, ip: result.ip, firstSeen: at, lastSeen: at, calls: 0, faults: 0, dialects: new Map(), services: new Map(), methods: new Map(), unlistedCalls: 0 };
        touch(key, client);
      }
      const service = cut(result.service);
      const model = result.model === undefined ? undefined : cut(result.model);
      const modelMethod = result.modelMethod === undefined ? undefined : cut(result.modelMethod);
      const methodKey = keyOf(service, cut(result.method), model, modelMethod);
      let method = client.methods.get(methodKey);
      if (method === undefined && client.methods.size < maxMethodsPerClient) {
        method = { service, method: cut(result.method), model, modelMethod, calls: 0, faults: 0, firstSeen: at, lastSeen: at };
        client.methods.set(methodKey, method);
      }
      if (method === undefined) return;
      addShadow(method, result);
      revision++;
    },

    snapshot() {
      const iso = (ms: number) => new Date(ms).toISOString();
      const out: ClientReport[] = [];
      for (const c of clients.values()) {
        out.push({
          userAgent: c.userAgent, ip: c.ip, firstSeen: iso(c.firstSeen), lastSeen: iso(c.lastSeen), calls: c.calls, faults: c.faults,
          dialects: Object.fromEntries(c.dialects), services: Object.fromEntries(c.services),
          methods: methodReports(c.methods.values()),
          unlistedCalls: c.unlistedCalls,
        });
      }
      return { version: 1, generatedAt: iso(now()), clients: out.reverse() };
    },

    restore(snapshot) {
      clients.clear();
      const ms = (iso: string) => Date.parse(iso);
      // oldest first, so the most recently seen end up last (least likely to leave)
      const saved = [...snapshot.clients].sort((a, b) => ms(a.lastSeen) - ms(b.lastSeen));
      for (const c of saved) {
        const methods = new Map<string, MethodEntry>();
        for (const m of c.methods.slice(0, maxMethodsPerClient)) {
          methods.set(keyOf(m.service, m.method, m.model, m.modelMethod), {
            service: m.service, method: m.method, model: m.model, modelMethod: m.modelMethod,
            calls: m.calls, faults: m.faults, firstSeen: ms(m.firstSeen), lastSeen: ms(m.lastSeen),
            ...(typeof m.json2Body === 'string' ? { json2Body: m.json2Body } : {}),
            ...(m.shadow === undefined ? {} : { shadow: { ...emptyShadowCounts(), ...m.shadow } }),
            ...(Array.isArray(m.differences) ? { differences: m.differences.slice(-maxDifferencesPerMethod) } : {}),
          });
        }
        touch(keyOf(c.userAgent, c.ip), {
          userAgent: c.userAgent, ip: c.ip, firstSeen: ms(c.firstSeen), lastSeen: ms(c.lastSeen), calls: c.calls, faults: c.faults,
          dialects: new Map(Object.entries(c.dialects)), services: new Map(Object.entries(c.services)), methods, unlistedCalls: c.unlistedCalls,
        });
      }
      revision++;
    },

    get revision() {
      return revision;
    },
    get size() {
      return clients.size;
    },
  };
}
