/**
 * The gateway's Prometheus metrics (the one door to prom-client): legacy calls by dialect, service,
 * method and outcome; upstream latency by route; credential cache hits and misses, key exchanges,
 * retirements and throttled attempts; passthrough answers; requests in flight; with `--redis-url`,
 * whether Redis answers and the commands that failed. One registry per gateway, so tests can run
 * several in one process.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { collectProcessMetrics, type LoopActivity } from './event-loop-lag.ts';
import type { Dialect } from '../call.ts';
import { unknownOutcomeOf } from '../errors.ts';
import type { CredentialEvents } from '../credentials/index.ts';
import { deprecatedMethodNames, deprecationOf } from '../cutover/equivalents/deprecations.ts';
import type { ShadowOutcome } from '../report/migration-report.ts';
import type { RedisLinkEvents } from '../state/index.ts';
import { successorMethodNames } from '../successors/index.ts';
import type { Lane, WorkShareEvents } from '../upstream/work-shares.ts';
import { outcomeName, type CallOutcome } from '../wire/response.ts';
import { methodLabel, otherLabel, serviceLabel, statusClassLabel, upstreamRouteLabel } from './labels.ts';
import { createOperatorMetrics, type OperatorMetrics } from './operator-metrics.ts';
import { createSeenLabels } from './seen-labels.ts';

const prefix = 'legacy_rpc_gateway_';
/**
 * Seconds, from a cached `version` (a few ms) to Odoo's default `limit_time_real` (120 s) and on to a
 * `--call-timeout` matched to a longer one (600 s, #44 item 5): a call past 120 s still falls in a
 * bucket, so a dashboard's quantiles do not stop at 120 s.
 */
const callBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** The databases and models named in `object_*` series; others are `other` (`seen-labels.ts`). */
export const maxDatabaseLabels = 10;
export const maxModelLabels = 40;

/** What the gateway records; every label is bounded (`labels.ts`). */
/** The modes of `src/cutover/routes/` (a fixed set: a bounded label). */
export type RouteModeLabel = 'native' | 'verify' | 'translate' | 'deny';

export interface GatewayMetrics {
  /** One finished legacy call. */
  observeCall(dialect: Dialect, outcome: CallOutcome, seconds: number): void;
  /**
   * One finished `object` call by database and model (`db` undefined: none known), both bounded: a
   * name is its own label once a call naming it succeeded, up to `maxDatabaseLabels` / `maxModelLabels`.
   */
  observeObjectCall(db: string | undefined, outcome: CallOutcome, seconds: number): void;
  /** One upstream exchange of the legacy services (`path` below the upstream URL; no status: no answer). */
  observeUpstream(path: string, status: number | undefined, seconds: number): void;
  /** The waits for a share of the upstream connections (work-shares.ts). */
  readonly workShares: WorkShareEvents;
  /** Reports `busy()` as the upstream exchanges running per lane at each scrape. */
  trackWorkShares(busy: () => Record<Lane, number>): void;
  /** One passthrough request (no status: the upstream could not be reached). */
  observePassthrough(status: number | undefined): void;
  /** The credentials layer's counters. */
  readonly credentials: CredentialEvents;
  /** The shared store's state and failures (exposed only when the gateway was built with Redis). */
  readonly redis: RedisLinkEvents;
  /** Reports `count()` as the in-flight requests gauge at each scrape. */
  trackInFlight(count: () => number): void;
  /** Told when the first request starts and the last one ends: the event-loop lag is sampled in between. */
  readonly loop: LoopActivity;
  /** A client cut off by `--send-timeout`, or a connection refused by `--max-connections`. */
  clientLimit(kind: 'send_timeout' | 'connection_cap'): void;
  /** Reports `count()` as the open client connections gauge at each scrape. */
  trackConnections(count: () => number): void;
  /** One shadow result: the shadowed call and what the comparison found. */
  observeShadow(call: CallOutcome, outcome: ShadowOutcome): void;
  /** One legacy call answered through the successor of a method the upstream no longer has. */
  observeSuccessor(method: string): void;
  /**
   * One legacy call by the mode its route gave it (`src/cutover/routes/`) and what became of it:
   * `answered`, `fallback` (native/verify served by translate: the upstream dropped the service),
   * `denied`, `failed` (Odoo's legacy endpoint could not be reached).
   */
  observeRoute(mode: RouteModeLabel, outcome: 'answered' | 'fallback' | 'denied' | 'failed'): void;
  /** One verify check: the call and what it found (the outcomes of shadow mode, and `bound`). */
  observeVerify(call: CallOutcome, outcome: ShadowOutcome): void;
  /** Reports `count()` as the verify checks in flight at each scrape. */
  trackVerifyInFlight(count: () => number): void;
  /** Reports `count()` as the shadow calls in flight at each scrape. */
  trackShadowInFlight(count: () => number): void;
  /** build_info, upstream up/down, passthrough latency, policy refusals (`operator-metrics.ts`). */
  readonly operations: OperatorMetrics;
  /** The exposition's content type. */
  readonly contentType: string;
  /** The exposition text for `/metrics`. */
  text(): Promise<string>;
}

/** Creates the registry and its metrics; `processMetrics` adds prom-client's process and Node.js metrics. */
export function createMetrics({
  processMetrics = true,
  redis = false,
}: { processMetrics?: boolean; redis?: boolean } = {}): GatewayMetrics {
  const registers = [new Registry()];
  const [registry] = registers as [Registry];
  // the event-loop lag is sampled only while something is in flight (event-loop-lag.ts)
  const loop = processMetrics ? collectProcessMetrics(registry) : undefined;

  const callLabels = ['dialect', 'service', 'method', 'outcome'] as const;
  const calls = new Counter({
    name: `${prefix}calls_total`,
    help: 'Legacy calls answered, by dialect, service, method (model method for object) and outcome (ok or the error kind; a login answered False is access_denied, like fault 3).',
    labelNames: callLabels,
    registers,
  });
  const callSeconds = new Histogram({
    name: `${prefix}call_duration_seconds`,
    help: 'Legacy call latency, from the request to the answer.',
    labelNames: callLabels,
    buckets: callBuckets,
    registers,
  });
  const objectCalls = new Counter({
    name: `${prefix}object_calls_total`,
    help: `object calls by database, model and outcome: the first ${maxDatabaseLabels} databases and ${maxModelLabels} models a call succeeded on are named, any other is "other".`,
    labelNames: ['db', 'model', 'outcome'] as const,
    registers,
  });
  const objectSeconds = new Histogram({
    name: `${prefix}object_call_duration_seconds`,
    help: 'object call latency by database and model (named as in object_calls_total).',
    labelNames: ['db', 'model'] as const,
    buckets: callBuckets,
    registers,
  });
  const databaseLabels = createSeenLabels(maxDatabaseLabels);
  const modelLabels = createSeenLabels(maxModelLabels);
  const upstreamSeconds = new Histogram({
    name: `${prefix}upstream_request_duration_seconds`,
    help: 'Upstream requests made for legacy calls, by route and status class (error: no answer).',
    labelNames: ['route', 'status'] as const,
    buckets: callBuckets,
    registers,
  });
  const cacheLookups = new Counter({
    name: `${prefix}credential_cache_lookups_total`,
    help: 'Credential look-ups: hit when no upstream check or key exchange had to start.',
    labelNames: ['cache', 'result'] as const,
    registers,
  });
  const keyExchanges = new Counter({
    name: `${prefix}key_exchanges_total`,
    help: 'Passwords traded for API keys (mint) and keys renewed (renew), by outcome.',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const retirements = new Counter({
    name: `${prefix}key_retirements_total`,
    help: 'Minted keys retired: revoked, already gone, or left to expire (unavailable).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const throttled = new Counter({
    name: `${prefix}throttled_attempts_total`,
    help: 'Login attempts refused locally by the failed-login throttle.',
    registers,
  });
  const passthrough = new Counter({
    name: `${prefix}passthrough_requests_total`,
    help: 'Requests passed through to the upstream, by status class (error: unreachable).',
    labelNames: ['status'] as const,
    registers,
  });
  const redisRegisters = redis ? registers : [];
  const redisUp = new Gauge({
    name: `${prefix}redis_up`,
    help: 'Whether the shared store (--redis-url) answers: 1 up, 0 away (the gateway serves with in-process state meanwhile).',
    registers: redisRegisters,
  });
  const redisFailures = new Counter({
    name: `${prefix}redis_failures_total`,
    help: 'Redis commands that failed or timed out, by operation; the gateway went on without them.',
    labelNames: ['op'] as const,
    registers: redisRegisters,
  });
  const shadowCalls = new Counter({
    name: `${prefix}shadow_calls_total`,
    help: 'Shadow mode: sampled legacy calls by service, method and outcome (equal, intended, differs, error, dropped).',
    labelNames: ['service', 'method', 'outcome'] as const,
    registers,
  });
  const deprecatedCalls = new Counter({
    name: `${prefix}deprecated_calls_total`,
    help: 'Legacy calls of methods Odoo 19 marks deprecated (the first to go in a later version), by method.',
    labelNames: ['method'] as const,
    registers,
  });
  const unknownOutcomes = new Counter({
    name: `${prefix}unknown_outcomes_total`,
    help: 'Legacy calls that may write, cut by --call-timeout or the shutdown grace period after Odoo was sent them: answered "outcome unknown" (Odoo may have committed them), by cause.',
    labelNames: ['cause'] as const,
    registers,
  });
  const successorCalls = new Counter({
    name: `${prefix}successor_calls_total`,
    help: 'Legacy calls answered through the successor of a method a later Odoo removed (--successors), by legacy method.',
    labelNames: ['method'] as const,
    registers,
  });
  const routeCalls = new Counter({
    name: `${prefix}route_calls_total`,
    help: 'Legacy calls by the mode their route gave them (native, verify, translate, deny) and outcome (answered, fallback, denied, failed).',
    labelNames: ['mode', 'outcome'] as const,
    registers,
  });
  const verifyCalls = new Counter({
    name: `${prefix}verify_calls_total`,
    help: 'verify routes: checked calls by service, method and outcome (equal, intended, differs, error, dropped, bound).',
    labelNames: ['service', 'method', 'outcome'] as const,
    registers,
  });
  let verifyInFlight: () => number = () => 0;
  new Gauge({
    name: `${prefix}verify_in_flight`,
    help: 'verify checks in flight (bounded by --verify-max-in-flight).',
    registers,
    collect() {
      this.set(verifyInFlight());
    },
  });
  let shadowInFlight: () => number = () => 0;
  new Gauge({
    name: `${prefix}shadow_in_flight`,
    help: 'Shadow calls in flight (bounded by --shadow-max-in-flight).',
    registers,
    collect() {
      this.set(shadowInFlight());
    },
  });
  const waitingCalls = new Gauge({
    name: `${prefix}upstream_waiting_calls`,
    help: 'Legacy calls (call), key exchanges (keys) and db transfers (db) waiting for a free upstream connection of their share, and legacy calls known slow waiting for the slow lane (slow).',
    labelNames: ['work'] as const,
    registers,
  });
  for (const work of ['call', 'keys', 'db', 'slow'] as const) waitingCalls.set({ work }, 0);
  const queueSeconds = new Histogram({
    name: `${prefix}upstream_queue_wait_seconds`,
    help: 'Time legacy calls, key exchanges and db transfers waited for an upstream connection of their share, and calls known slow for the slow lane (slow) (0 when one was free).',
    labelNames: ['work'] as const,
    buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
  const queueTimeouts = new Counter({
    name: `${prefix}upstream_queue_timeouts_total`,
    help: 'Calls that waited --queue-timeout for an upstream connection and failed.',
    labelNames: ['work'] as const,
    registers,
  });
  const borrowed = new Counter({
    name: `${prefix}upstream_borrowed_connections_total`,
    help: 'Calls known slow that found the slow lane full and ran on an ordinary connection, which --light-reserve left free for the others.',
    registers,
  });
  let busyLanes: () => Record<Lane, number> = () => ({ call: 0, keys: 0, db: 0, slow: 0 });
  new Gauge({
    name: `${prefix}upstream_busy_connections`,
    help: 'Upstream exchanges running per share: call, keys, db, and slow (calls known slow, and calls that ran past --slow-call and gave their share back).',
    labelNames: ['lane'] as const,
    registers,
    collect() {
      for (const [lane, n] of Object.entries(busyLanes())) this.set({ lane }, n);
    },
  });
  const sendTimeouts = new Counter({
    name: `${prefix}send_timeouts_total`,
    help: 'Clients cut off because they read nothing of their answer for --send-timeout.',
    registers,
  });
  const connectionsRefused = new Counter({
    name: `${prefix}connections_refused_total`,
    help: 'Client connections answered 503 because --max-connections were open.',
    registers,
  });
  let connections: () => number = () => 0;
  new Gauge({
    name: `${prefix}client_connections`,
    help: 'Client-port connections open (bounded by --max-connections).',
    registers,
    collect() {
      this.set(connections());
    },
  });
  let inFlight: () => number = () => 0;
  new Gauge({
    name: `${prefix}in_flight_requests`,
    help: 'Client-port requests being answered, passthrough and websocket tunnels included.',
    registers,
    collect() {
      this.set(inFlight());
    },
  });

  const operations = createOperatorMetrics(registers);

  return {
    workShares: {
      waiting: (work: Lane, delta: 1 | -1) => waitingCalls.inc({ work }, delta),
      waited: (work: Lane, seconds: number) => queueSeconds.observe({ work }, seconds),
      timedOut: (work: Lane) => queueTimeouts.inc({ work }),
      borrowed: () => borrowed.inc(),
    },
    trackWorkShares(busy) {
      busyLanes = busy;
    },
    operations,
    observeCall(dialect, outcome, seconds) {
      const labels = {
        dialect,
        service: serviceLabel(outcome.service),
        method: methodLabel(outcome.service, outcome.method, outcome.modelMethod),
        outcome: outcomeName(outcome),
      };
      calls.inc(labels);
      callSeconds.observe(labels, seconds);
      const unknown = unknownOutcomeOf(outcome.error);
      if (unknown !== undefined) unknownOutcomes.inc({ cause: unknown });
      const modelMethod = outcome.modelMethod;
      // a fixed set of names: the label stays bounded
      if (
        outcome.service === 'object' &&
        modelMethod !== undefined &&
        deprecatedMethodNames.has(modelMethod) &&
        deprecationOf(outcome.model, modelMethod) !== undefined
      ) {
        deprecatedCalls.inc({ method: modelMethod });
      }
    },
    observeObjectCall(db, outcome, seconds) {
      if (outcome.service !== 'object') return;
      const name = outcomeName(outcome);
      const ok = name === 'ok';
      const labels = {
        db: db === undefined ? otherLabel : databaseLabels.label(db, ok),
        model: modelLabels.label(outcome.model ?? '', ok),
      };
      objectCalls.inc({ ...labels, outcome: name });
      objectSeconds.observe(labels, seconds);
    },
    observeShadow(call, outcome) {
      shadowCalls.inc({ service: serviceLabel(call.service), method: methodLabel(call.service, call.method, call.modelMethod), outcome });
    },
    observeSuccessor(method) {
      // the successor table's few names: the label stays bounded
      if (successorMethodNames.includes(method)) successorCalls.inc({ method });
    },
    trackShadowInFlight(count) {
      shadowInFlight = count;
    },
    observeRoute(mode, outcome) {
      routeCalls.inc({ mode, outcome });
    },
    observeVerify(call, outcome) {
      verifyCalls.inc({ service: serviceLabel(call.service), method: methodLabel(call.service, call.method, call.modelMethod), outcome });
    },
    trackVerifyInFlight(count) {
      verifyInFlight = count;
    },
    observeUpstream(path, status, seconds) {
      upstreamSeconds.observe({ route: upstreamRouteLabel(path), status: statusClassLabel(status) }, seconds);
    },
    observePassthrough(status) {
      passthrough.inc({ status: statusClassLabel(status) });
    },
    credentials: {
      cacheLookup: (cache, hit) => cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' }),
      keyExchange: (kind, outcome) => keyExchanges.inc({ kind, outcome }),
      retirement: (outcome) => retirements.inc({ outcome }),
      throttled: () => throttled.inc(),
    },
    redis: {
      state: (up) => redisUp.set(up ? 1 : 0),
      failure: (op) => redisFailures.inc({ op }),
    },
    trackInFlight(count) {
      inFlight = count;
    },
    loop: loop ?? { busy() {}, idle() {} },
    clientLimit(kind) {
      (kind === 'send_timeout' ? sendTimeouts : connectionsRefused).inc();
    },
    trackConnections(count) {
      connections = count;
    },
    contentType: registry.contentType,
    text: () => registry.metrics(),
  };
}
