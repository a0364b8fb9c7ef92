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
}

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
  /** The report now. */
  snapshot(): ReportSnapshot;
  /** Replaces the content with a saved snapshot (at start), keeping the most recently seen clients. */
  restore(snapshot: ReportSnapshot): void;
  /** Changes since start: a persister saves only when it moved. */
  readonly revision: number;
  readonly size: number;
}

/** A method's counts with its times in epoch ms, as the report keeps them (in memory and in Redis). */
export type MethodCounts = Omit<MethodReport, 'model' | 'modelMethod' | 'firstSeen' | 'lastSeen'> & {
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
    }));
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
        method.lastSeen = at;
      }
      touch(key, client);
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
