/**
 * The migration report: per legacy client (database, login, User-Agent and source address) which
 * services, models and methods it called, how often, how many failed, first and last seen — what an
 * operator needs to find the integrations still on XML-RPC/JSON-RPC (docs/migration-report.md).
 * Bounded in entries and bytes, whatever names clients send:
 * - at most `maxClients` clients; when one more arrives, the least recently seen anonymous client
 *   leaves first (no credentials, or none Odoo accepted), an authenticated one only when no
 *   anonymous one is left; one credential (database and login) makes at most
 *   {@link authenticatedPerCredential} of them authenticated, so one valid password sent under many
 *   User-Agents or addresses cannot push the other credentials' clients out;
 * - at most {@link maxMethodsPerClient} methods per client and {@link maxMethodNames} distinct method
 *   names fleet-wide: calls past the first bound are counted in the client's `unlistedCalls`, names
 *   past the second are listed as `other` (as the metrics labels fold them);
 * - an estimate of the serialized size kept under `maxBytes`: anonymous clients leave to make room,
 *   then new method entries are only counted;
 * - client-supplied strings cut to a fixed length.
 * The snapshot says how many entries were dropped and why (`dropped`).
 */
import { legacyServices, type Dialect } from '../call.ts';

/** Authenticated clients one credential may hold: a tenth of `maxClients`, at least one. */
export const authenticatedPerCredential = (maxClients: number): number => Math.max(1, Math.floor(maxClients / 10));

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
  /** The fault was the gateway's, not one Odoo's own legacy endpoint would have answered (`fault-origin.ts`). */
  gatewayFault?: boolean | undefined;
  /** The database the call named with its credentials (absent: a call without credentials). */
  database?: string | undefined;
  /**
   * Who the credentials name, never a password: `login:` and a stable hash of the login, or `uid:`
   * and the uid when the login is not known yet (`call-identity.ts`).
   */
  user?: string | undefined;
  /**
   * For `object` calls: the placeholder body of the JSON-2 request the call bound to
   * (`cutover/equivalents/placeholders.ts`), computed only when the report has none yet for the method.
   */
  json2Body?: (() => string) | undefined;
  /** Answered through the successor of a method the upstream no longer has (`src/successors/`). */
  successor?: boolean | undefined;
}

/** What shadow mode found for one sampled call (`src/cutover/shadow/`). */
export type ShadowOutcome = 'equal' | 'intended' | 'differs' | 'error' | 'dropped' | 'bound';

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
  /**
   * `verify` routes: calls that can change state, run once by Odoo, whose binding (positional →
   * named) the gateway checked without sending them (`src/cutover/routes/verify.ts`).
   */
  bound?: number;
  /** Intended differences by COMPATIBILITY.md section title. */
  deviations?: Record<string, number>;
}

/** One difference that persisted, as stored: redacted and truncated (`src/cutover/shadow/redact.ts`). */
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
  /** For `bound`: the placeholder JSON-2 body the call binds to (kept when the method has none yet). */
  json2Body?: string;
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
  /** Of `faults`, those that were the gateway's own (the others Odoo would have answered too), once there was one. */
  gatewayFaults?: number;
  /** Shadow mode's results, once a call of this method was sampled. */
  shadow?: ShadowCounts;
  /** The last differences that persisted, oldest first. */
  differences?: ShadowDifference[];
}

/** One legacy client. */
export interface ClientReport {
  userAgent: string;
  ip: string;
  /** The database its calls named (absent for calls without credentials). */
  database?: string;
  /** `login:<hash>` or `uid:<n>` (absent for calls without credentials). */
  user?: string;
  /** A call of it with credentials succeeded: it leaves the report after every anonymous client. */
  authenticated?: boolean;
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

/** What the bounds dropped since the report started (or since the saved report it continues). */
export interface DroppedCounts {
  /** Anonymous clients that left to make room (client or byte bound). */
  anonymousClients: number;
  /** Authenticated clients that left to make room: only when no anonymous client was left. */
  authenticatedClients: number;
  /** Calls counted but not listed under their method (a client's method bound, or the byte bound). */
  unlistedCalls: number;
  /** Calls listed under `other` because their method name came past the fleet-wide name bound. */
  foldedCalls: number;
}

/** The whole report, as `/gateway/report.json` serves it and the report file holds it. */
export interface ReportSnapshot {
  version: 1;
  generatedAt: string;
  /** What the bounds dropped (absent in reports saved by older gateways). */
  dropped?: DroppedCounts;
  /** Most recently seen first. */
  clients: ClientReport[];
}

/** A snapshot whose clients are made as they are read ({@link MigrationReport.snapshotLazily}); a snapshot is one too. */
export type LazyReportSnapshot = Omit<ReportSnapshot, 'clients'> & { clients: Iterable<ClientReport> };

/** No entry dropped yet. */
export const noneDropped = (): DroppedCounts => ({ anonymousClients: 0, authenticatedClients: 0, unlistedCalls: 0, foldedCalls: 0 });

/** The live report. */
export interface MigrationReport {
  /** Counts one call. */
  record(call: ReportedCall): void;
  /** Counts one shadow result for the method of the call it shadowed. */
  recordShadow(result: ReportedShadow): void;
  /** The report now. */
  snapshot(): ReportSnapshot;
  /**
   * The report as {@link snapshot} gives it, each client's entry made only when it is read: a save
   * reading it in pieces holds the event loop for one piece, not the whole report. The clients and
   * their order are those at the call; each one's counts are those when it is read.
   */
  snapshotLazily(): LazyReportSnapshot;
  /** Replaces the content with a saved snapshot (at start), keeping the most recently seen clients. */
  restore(snapshot: ReportSnapshot): void;
  /** Changes since start: a persister saves only when it moved. */
  readonly revision: number;
  readonly size: number;
}

/** A method's counts with its times in epoch ms, as the report keeps them (in memory and in Redis). */
export type MethodCounts = Omit<
  MethodReport,
  'model' | 'modelMethod' | 'firstSeen' | 'lastSeen' | 'json2Body' | 'shadow' | 'differences'
> & {
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
      service: m.service,
      method: m.method,
      ...(m.model === undefined ? {} : { model: m.model }),
      ...(m.modelMethod === undefined ? {} : { modelMethod: m.modelMethod }),
      calls: m.calls,
      faults: m.faults,
      firstSeen: iso(m.firstSeen),
      lastSeen: iso(m.lastSeen),
      ...(m.json2Body === undefined ? {} : { json2Body: m.json2Body }),
      ...(m.successorCalls === undefined ? {} : { successorCalls: m.successorCalls }),
      ...(m.gatewayFaults === undefined ? {} : { gatewayFaults: m.gatewayFaults }),
      ...(m.shadow === undefined ? {} : { shadow: m.shadow }),
      ...(m.differences === undefined || m.differences.length === 0 ? {} : { differences: m.differences }),
    }));
}

/** No shadow result yet. */
export const emptyShadowCounts = (): ShadowCounts => ({ equal: 0, intended: 0, differs: 0, errors: 0, dropped: 0 });

const shadowField: Record<ShadowOutcome, Exclude<keyof ShadowCounts, 'deviations'>> = {
  equal: 'equal',
  intended: 'intended',
  differs: 'differs',
  error: 'errors',
  dropped: 'dropped',
  bound: 'bound',
};

/** Adds one shadow result to a method's counts (the in-process report and its Redis delta alike). */
function addShadow(entry: MethodCounts, result: ReportedShadow): void {
  const counts = entry.shadow ?? emptyShadowCounts();
  const field = shadowField[result.outcome];
  counts[field] = (counts[field] ?? 0) + 1;
  if (result.json2Body !== undefined && entry.json2Body === undefined && result.json2Body.length <= maxJson2BodyLength)
    entry.json2Body = result.json2Body;
  if (result.outcome === 'intended' && result.deviation !== undefined) {
    counts.deviations = { ...counts.deviations, [result.deviation]: (counts.deviations?.[result.deviation] ?? 0) + 1 };
  }
  entry.shadow = counts;
  if (result.difference !== undefined)
    entry.differences = [...(entry.differences ?? []), result.difference].slice(-maxDifferencesPerMethod);
}

interface ClientEntry {
  userAgent: string;
  ip: string;
  database: string | undefined;
  user: string | undefined;
  authenticated: boolean;
  firstSeen: number;
  lastSeen: number;
  calls: number;
  faults: number;
  dialects: Map<string, number>;
  services: Map<string, number>;
  methods: Map<string, MethodEntry>;
  unlistedCalls: number;
  /** Estimated bytes of the client and its methods in the serialized report. */
  bytes: number;
}

/** Distinct method names (service, method, model, model method) listed fleet-wide; later ones are `other`. */
export const maxMethodNames = 1000;
/** Longest placeholder JSON-2 body kept (a larger one is left out). */
export const maxJson2BodyLength = 4096;
/** Default bound of the report's estimated serialized size (`--report-max-bytes`). */
export const defaultReportMaxBytes = 8 * 1024 * 1024;

const cut = (s: string): string => (s.length > maxLabelLength ? s.slice(0, maxLabelLength) : s);
/** One key of up to four names: each part is `-` (absent) or its length, `:` and itself, so no two lists of names share a key. */
const keyOf = (a?: string, b?: string, c?: string, d?: string): string => `${keyPart(a)}${keyPart(b)}${keyPart(c)}${keyPart(d)}`;
const keyPart = (s: string | undefined): string => (s === undefined ? '-' : `${s.length}:${s}`);
const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
const len = (s: string | undefined): number => (s === undefined ? 0 : s.length);
/** A method entry's serialized size: its strings plus the fixed fields (counts, two ISO times, names). */
const methodBytes = (m: Pick<MethodEntry, 'service' | 'method' | 'model' | 'modelMethod' | 'json2Body'>): number =>
  160 + len(m.service) + len(m.method) + len(m.model) + len(m.modelMethod) + len(m.json2Body);
const clientBytes = (c: Pick<ClientEntry, 'userAgent' | 'ip' | 'database' | 'user'>): number =>
  320 + len(c.userAgent) + len(c.ip) + len(c.database) + len(c.user);

/** The fleet-wide `other` name a method name past {@link maxMethodNames} is listed under. */
function otherName(service: string, model: string | undefined, modelMethod: string | undefined) {
  return {
    service,
    method: 'other',
    model: model === undefined ? undefined : 'other',
    modelMethod: modelMethod === undefined ? undefined : 'other',
  };
}

/**
 * Creates an empty report of at most `maxClients` clients and about `maxBytes` serialized bytes;
 * `now` is the clock (tests pass a fixed one).
 */
export function createMigrationReport({
  maxClients,
  maxBytes = defaultReportMaxBytes,
  now = Date.now,
}: {
  maxClients: number;
  maxBytes?: number;
  now?: () => number;
}): MigrationReport {
  if (!Number.isInteger(maxClients) || maxClients < 1) throw new Error(`maxClients must be a positive integer, got ${maxClients}`);
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new Error(`maxBytes must be a positive integer, got ${maxBytes}`);
  // Two pools, each a Map iterating in insertion order: re-inserting on every call keeps the least
  // recently seen first. Anonymous clients leave before any authenticated one.
  const anonymous = new Map<string, ClientEntry>();
  const authenticated = new Map<string, ClientEntry>();
  // how many clients list each method name (a name no client lists any more frees its place)
  const names = new Map<string, number>();
  let bytes = 0;
  let dropped = noneDropped();
  let revision = 0;

  const poolOf = (entry: ClientEntry) => (entry.authenticated ? authenticated : anonymous);
  // authenticated clients per credential (database and login), bounded by authenticatedPerCredential
  const perCredential = new Map<string, number>();
  const maxPerCredential = authenticatedPerCredential(maxClients);
  const credentialOf = (c: { database?: string | undefined; user?: string | undefined }) => `${c.database}\u0000${c.user}`;
  const mayAuthenticate = (c: { database?: string | undefined; user?: string | undefined }) =>
    (perCredential.get(credentialOf(c)) ?? 0) < maxPerCredential;
  /** Moves the client to the authenticated pool (it leaves after every anonymous client). */
  function authenticate(key: string, client: ClientEntry): void {
    anonymous.delete(key);
    client.authenticated = true;
    perCredential.set(credentialOf(client), (perCredential.get(credentialOf(client)) ?? 0) + 1);
  }
  const find = (key: string) => authenticated.get(key) ?? anonymous.get(key);

  function remove(key: string, entry: ClientEntry): void {
    poolOf(entry).delete(key);
    if (entry.authenticated) {
      const n = (perCredential.get(credentialOf(entry)) ?? 1) - 1;
      if (n <= 0) perCredential.delete(credentialOf(entry));
      else perCredential.set(credentialOf(entry), n);
    }
    bytes -= entry.bytes;
    for (const nameKey of entry.methods.keys()) {
      const n = (names.get(nameKey) ?? 1) - 1;
      if (n <= 0) names.delete(nameKey);
      else names.set(nameKey, n);
    }
  }

  /** Drops the least recently seen client other than `keep`, anonymous first; false when none is left. */
  function evictOne(keep: string): boolean {
    for (const [pool, counter] of [
      [anonymous, 'anonymousClients'],
      [authenticated, 'authenticatedClients'],
    ] as const) {
      for (const [key, entry] of pool) {
        if (key === keep) continue;
        remove(key, entry);
        dropped[counter]++;
        return true;
      }
    }
    return false;
  }

  /** Makes `entry` the most recently seen of its pool and enforces the client bound. */
  function touch(key: string, entry: ClientEntry): void {
    poolOf(entry).delete(key);
    poolOf(entry).set(key, entry);
    while (anonymous.size + authenticated.size > maxClients && evictOne(key));
  }

  /** The least recently seen key of `pool` other than `keep`. */
  function oldestBut(pool: Map<string, ClientEntry>, keep: string): string | undefined {
    for (const key of pool.keys()) if (key !== keep) return key;
    return undefined;
  }

  /** Room for `more` bytes: anonymous clients other than `keep` leave first. */
  function roomFor(more: number, keep: string, mayEvictAuthenticated: boolean): boolean {
    while (bytes + more > maxBytes) {
      const victim = oldestBut(anonymous, keep) ?? (mayEvictAuthenticated ? oldestBut(authenticated, keep) : undefined);
      if (victim === undefined) return false;
      const entry = find(victim) as ClientEntry;
      remove(victim, entry);
      dropped[entry.authenticated ? 'authenticatedClients' : 'anonymousClients']++;
    }
    return true;
  }

  /**
   * The client's entry, created if there is room: anonymous clients leave for it, authenticated ones
   * only for a client about to authenticate. `undefined`: no room for an anonymous newcomer.
   */
  function clientFor(
    key: string,
    fields: { userAgent: string; ip: string; database: string | undefined; user: string | undefined },
    at: number,
    authenticating: boolean,
  ): ClientEntry | undefined {
    const known = find(key);
    if (known !== undefined) return known;
    const entry: ClientEntry = {
      ...fields,
      authenticated: false,
      firstSeen: at,
      lastSeen: at,
      calls: 0,
      faults: 0,
      dialects: new Map(),
      services: new Map(),
      methods: new Map(),
      unlistedCalls: 0,
      bytes: clientBytes(fields),
    };
    if (!roomFor(entry.bytes, key, authenticating)) {
      dropped.anonymousClients++;
      return undefined;
    }
    bytes += entry.bytes;
    anonymous.set(key, entry);
    return entry;
  }

  /** The client's entry for a method, created when the bounds allow; `undefined`: count it as unlisted. */
  function methodFor(
    clientKey: string,
    client: ClientEntry,
    name: { service: string; method: string; model: string | undefined; modelMethod: string | undefined },
    at: number,
    folded: () => void,
  ): MethodEntry | undefined {
    let key = keyOf(name.service, name.method, name.model, name.modelMethod);
    let method = client.methods.get(key);
    if (method !== undefined) return method;
    if (!names.has(key) && names.size >= maxMethodNames) {
      name = otherName(name.service, name.model, name.modelMethod);
      key = keyOf(name.service, name.method, name.model, name.modelMethod);
      folded();
      method = client.methods.get(key);
      if (method !== undefined) return method;
    }
    if (client.methods.size >= maxMethodsPerClient) return undefined;
    // every field written out, those set later too: one object shape for every entry, no spread
    const entry: MethodEntry = {
      service: name.service,
      method: name.method,
      model: name.model,
      modelMethod: name.modelMethod,
      calls: 0,
      faults: 0,
      firstSeen: at,
      lastSeen: at,
      json2Body: undefined,
      shadow: undefined,
      differences: undefined,
    };
    const size = methodBytes(entry);
    if (!roomFor(size, clientKey, false)) return undefined;
    client.methods.set(key, entry);
    client.bytes += size;
    bytes += size;
    names.set(key, (names.get(key) ?? 0) + 1);
    return entry;
  }

  /** The report, each client's entry made when it is read. */
  function lazySnapshot(): LazyReportSnapshot {
    const iso = (ms: number) => new Date(ms).toISOString();
    // most recently touched first within a pool; the (stable) sort then merges the pools by last seen
    const all = [...[...authenticated.values()].reverse(), ...[...anonymous.values()].reverse()].sort((a, b) => b.lastSeen - a.lastSeen);
    const clientReport = (c: ClientEntry): ClientReport => ({
      userAgent: c.userAgent,
      ip: c.ip,
      ...(c.database === undefined ? {} : { database: c.database }),
      ...(c.user === undefined ? {} : { user: c.user }),
      ...(c.authenticated ? { authenticated: true } : {}),
      firstSeen: iso(c.firstSeen),
      lastSeen: iso(c.lastSeen),
      calls: c.calls,
      faults: c.faults,
      dialects: Object.fromEntries(c.dialects),
      services: Object.fromEntries(c.services),
      methods: methodReports(c.methods.values()),
      unlistedCalls: c.unlistedCalls,
    });
    return {
      version: 1,
      generatedAt: iso(now()),
      dropped: { ...dropped },
      clients: (function* clientReports() {
        for (const c of all) yield clientReport(c);
      })(),
    };
  }

  return {
    record(call) {
      const at = now();
      const userAgent = cut(call.userAgent);
      const database = call.database === undefined ? undefined : cut(call.database);
      const user = call.user === undefined ? undefined : cut(call.user);
      const key = keyOf(userAgent, call.ip, database, user);
      const credentialed = database !== undefined && user !== undefined && !call.failed;
      const authenticating = credentialed && (find(key)?.authenticated === true || mayAuthenticate({ database, user }));
      const client = clientFor(key, { userAgent, ip: call.ip, database, user }, at, authenticating);
      revision++;
      if (client === undefined) return;
      // its credentials were accepted: from now on it leaves after every anonymous client
      if (!client.authenticated && authenticating) authenticate(key, client);
      client.lastSeen = at;
      client.calls++;
      if (call.failed) client.faults++;
      bump(client.dialects, call.dialect);
      const service = cut(call.service);
      // per-service counts name the three legacy services; any other name a client sends is `other`
      bump(client.services, (legacyServices as readonly string[]).includes(service) ? service : 'other');
      const name = {
        service,
        method: cut(call.method),
        model: call.model === undefined ? undefined : cut(call.model),
        modelMethod: call.modelMethod === undefined ? undefined : cut(call.modelMethod),
      };
      const method = methodFor(key, client, name, at, () => dropped.foldedCalls++);
      if (method === undefined) {
        client.unlistedCalls++;
        dropped.unlistedCalls++;
      } else {
        method.calls++;
        if (call.failed) method.faults++;
        if (call.failed && call.gatewayFault === true) method.gatewayFaults = (method.gatewayFaults ?? 0) + 1;
        if (call.successor === true) method.successorCalls = (method.successorCalls ?? 0) + 1;
        method.lastSeen = at;
        // the JSON-2 equivalent is kept from a call that succeeded: a failed one may have bound wrongly
        if (method.json2Body === undefined && call.json2Body !== undefined && !call.failed) {
          const body = call.json2Body();
          if (body.length <= maxJson2BodyLength) {
            method.json2Body = body;
            client.bytes += body.length;
            bytes += body.length;
          }
        }
      }
      touch(key, client);
    },

    recordShadow(result) {
      const at = now();
      const userAgent = cut(result.userAgent);
      // shadow results name the client by User-Agent and address: the most recently seen entry of it
      const name = {
        service: cut(result.service),
        method: cut(result.method),
        model: result.model === undefined ? undefined : cut(result.model),
        modelMethod: result.modelMethod === undefined ? undefined : cut(result.modelMethod),
      };
      const key =
        findShadowClient(userAgent, result.ip, keyOf(name.service, name.method, name.model, name.modelMethod)) ??
        keyOf(userAgent, result.ip, undefined, undefined);
      const client = clientFor(key, { userAgent, ip: result.ip, database: undefined, user: undefined }, at, false);
      if (client === undefined) return;
      touch(key, client);
      const method = methodFor(key, client, name, at, () => undefined);
      if (method === undefined) return;
      const before = (method.differences ?? []).reduce((n, d) => n + differenceBytes(d), 0) + len(method.json2Body);
      addShadow(method, result);
      const after = (method.differences ?? []).reduce((n, d) => n + differenceBytes(d), 0) + len(method.json2Body);
      client.bytes += after - before;
      bytes += after - before;
      revision++;
    },

    snapshot() {
      const { clients, ...head } = lazySnapshot();
      return { ...head, clients: [...clients] };
    },

    snapshotLazily: lazySnapshot,

    restore(snapshot) {
      for (const [key, entry] of [...anonymous, ...authenticated]) remove(key, entry);
      dropped = { ...noneDropped(), ...snapshot.dropped };
      const ms = (iso: string) => Date.parse(iso);
      // oldest first, so the most recently seen end up last (least likely to leave)
      const saved = [...snapshot.clients].sort((a, b) => ms(a.lastSeen) - ms(b.lastSeen));
      for (const c of saved) {
        const key = keyOf(c.userAgent, c.ip, c.database, c.user);
        const client = clientFor(
          key,
          { userAgent: c.userAgent, ip: c.ip, database: c.database, user: c.user },
          ms(c.firstSeen),
          c.authenticated === true && mayAuthenticate(c),
        );
        if (client === undefined) continue;
        const wasAuthenticated = !client.authenticated && c.authenticated === true && mayAuthenticate(c);
        Object.assign(client, {
          lastSeen: ms(c.lastSeen),
          calls: c.calls,
          faults: c.faults,
          dialects: new Map(Object.entries(c.dialects)),
          services: new Map(Object.entries(c.services)),
          unlistedCalls: c.unlistedCalls,
        });
        if (wasAuthenticated) authenticate(key, client);
        // oldest first, so the methods called earliest take the places, as when they were recorded
        for (const m of [...c.methods].sort((a, b) => ms(a.firstSeen) - ms(b.firstSeen))) {
          const method = methodFor(
            key,
            client,
            { service: m.service, method: m.method, model: m.model, modelMethod: m.modelMethod },
            ms(m.firstSeen),
            () => undefined,
          );
          if (method === undefined) {
            client.unlistedCalls += m.calls;
            continue;
          }
          method.calls += m.calls;
          method.faults += m.faults;
          if (m.gatewayFaults !== undefined) method.gatewayFaults = (method.gatewayFaults ?? 0) + m.gatewayFaults;
          method.lastSeen = Math.max(method.lastSeen, ms(m.lastSeen));
          if (typeof m.json2Body === 'string' && method.json2Body === undefined && m.json2Body.length <= maxJson2BodyLength)
            method.json2Body = m.json2Body;
          if (m.shadow !== undefined) method.shadow = { ...emptyShadowCounts(), ...m.shadow };
          if (Array.isArray(m.differences)) method.differences = m.differences.slice(-maxDifferencesPerMethod);
          const extra = len(method.json2Body) + (method.differences ?? []).reduce((n, d) => n + differenceBytes(d), 0);
          client.bytes += extra;
          bytes += extra;
        }
        touch(key, client);
      }
      revision++;
    },

    get revision() {
      return revision;
    },
    get size() {
      return anonymous.size + authenticated.size;
    },
  };

  /**
   * The entry a shadow result of this User-Agent and address belongs to: the most recently seen one
   * that lists the method (the shadowed call was recorded there), else the most recently seen one.
   */
  function findShadowClient(userAgent: string, ip: string, methodKey: string): string | undefined {
    let found: string | undefined;
    let foundLists = false;
    for (const pool of [anonymous, authenticated]) {
      for (const [key, c] of pool) {
        if (c.userAgent !== userAgent || c.ip !== ip) continue;
        const lists = c.methods.has(methodKey);
        const better =
          found === undefined || (lists && !foundLists) || (lists === foundLists && c.lastSeen >= (find(found) as ClientEntry).lastSeen);
        if (better) [found, foundLists] = [key, lists];
      }
    }
    return found;
  }
}

const differenceBytes = (d: ShadowDifference): number =>
  80 + d.at.length + d.dialect.length + d.gateway.length + d.legacy.length + d.differences.reduce((n, x) => n + x.length + 4, 0);
