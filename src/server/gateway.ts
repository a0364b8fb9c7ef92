/**
 * The composition root: builds upstream, credentials, signatures, services, metrics, the migration
 * report and the two apps (client port, admin port) from a validated Config, and starts or
 * gracefully stops their HTTP servers.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ConfigError, type Config } from '../config.ts';
import { LegacyError, upstreamErrorName } from '../errors.ts';
import { createBaseUrls, createCredentials, type CredentialEvents, type Credentials } from '../credentials/index.ts';
import { createCommonService } from '../legacy/common.ts';
import { createDbService } from '../legacy/db.ts';
import { createDispatch } from '../legacy/dispatch.ts';
import { bindObjectCall, createObjectService, boundJson2Body } from '../legacy/object.ts';
import { createLegacyLang } from '../legacy/legacy-lang.ts';
import { createRpcPolicy } from '../legacy/rpc-policy.ts';
import { createVersionCache } from '../legacy/version-cache.ts';
import type { Logger } from '../log.ts';
import { createMetrics, type GatewayMetrics } from '../metrics/metrics.ts';
import { downReasonOf, type UpstreamState } from '../metrics/operator-metrics.ts';
import { createCallIdentities, type CallIdentities } from '../report/call-identity.ts';
import { createReportPersistence } from '../report/report-persistence.ts';
import { createSharedReport, type SharedReport } from '../report/shared-report.ts';
import { createShadow, maxCompareBytes, placeholderBody, shadowMethodsOf, type Shadow } from '../cutover/index.ts';
import { createRouteTable, createVerifier, RoutesFileError, type RouteTable, type Verifier } from '../cutover/routes/index.ts';
import type { VerifyResult } from '../cutover/routes/verify.ts';
import { createSignatureResolverFromConfig, type SignatureResolver } from '../signatures/index.ts';
import { createSuccessors, servedBySuccessor, successorMethodNames } from '../successors/index.ts';
import { createSharedState } from '../state/index.ts';
import type { CallTracer } from '../tracing/call-tracer.ts';
import { loadCallTracer } from '../tracing/load-tracer.ts';
import { traceUpstreamHttp } from '../tracing/traced-http.ts';
import {
  createHealthCheck,
  createPassthroughClient,
  createTunnelOpener,
  createUpstream,
  createLegacyEndpointClient,
  createUpstreamHttp,
  observeUpstreamHttp,
  shareUpstreamHttp,
  createUpstreamShares,
  type HealthCheck,
  type Upstream,
} from '../upstream/index.ts';
import { outcomeName } from '../wire/response.ts';
import { isGatewayFault } from '../report/fault-origin.ts';
import { createAdminApp } from './admin-app.ts';
import { createApp, isGatewayPath } from './app.ts';
import { createClientGuard } from './client-guard.ts';
import { continueUnlessTooLarge } from './expect-continue.ts';
import { createInFlight } from './in-flight.ts';
import { closeServer, drainServer, listen, portOf, urlOf } from './listen.ts';
import { passthrough } from './passthrough.ts';
import { createReadiness } from './readiness.ts';
import { createRouting, type Routing } from './routing.ts';
import { createStartupCheck, type StartupCheck } from '../upstream/startup-check.ts';
import { upgradeTunnel } from './upgrade.ts';

export interface GatewayOptions {
  /** Replaces the signature resolver built from config (tests mutate the table through it). */
  signatures?: SignatureResolver;
  /** The credentials' clock (key expiry, renewal, re-validation, throttling); tests move it. */
  now?: () => number;
  /** Where the `OTEL_*` variables are read (traces); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** The tracer `startGateway` loaded from them (none: no traces, no span, no SDK loaded). */
  tracer?: CallTracer | undefined;
}

/** Builds the two Hono apps and what they use, without sockets. */
export function createGateway(config: Config, log: Logger, options: GatewayOptions = {}) {
  // --shadow-methods under the allowlist's rules (a method that can change state stops the start)
  const shadowMethods = shadowMethodsOf(config);
  const metrics = createMetrics({ redis: config.redisUrl !== undefined });
  // each kind of work waits for a share of its own (work-shares.ts); the metrics time Odoo alone
  const shares = createUpstreamShares(config, metrics.workShares);
  metrics.trackWorkShares(shares.busy);
  // an upstream answer (not a proxy's 5xx) tells the start-up check Odoo is back: /readyz's reason refreshes now
  let upstreamAnswered = () => {};
  const observeUpstream: typeof metrics.observeUpstream = (path, status, seconds) => {
    // after the answer has gone on, as the call's own metrics (app.ts): ~20 µs off a call's critical path
    setImmediate(() => metrics.observeUpstream(path, status, seconds));
    if (status !== undefined && status < 500) upstreamAnswered();
  };
  const observed = shareUpstreamHttp(observeUpstreamHttp(createUpstreamHttp(config), observeUpstream), shares);
  const { tracer } = options;
  // with traces exported, each upstream request of a legacy call is a child span of the call's
  const http = tracer === undefined ? observed : traceUpstreamHttp(observed);
  const upstream = createUpstream(config, http);
  const clock = options.now === undefined ? {} : { now: options.now };
  // --redis-url: what the replicas share (connects in the background; serves without it meanwhile)
  const state = createSharedState(config, log, { events: metrics.redis, ...clock });
  // A bad --credentials-file stops the start here.
  // one table for the gateway's own logins and the passed-through ones (passthrough-login.ts)
  const baseUrls = createBaseUrls({ upstream, serviceKeys: config.serviceKey, upstreamUrl: config.upstream });
  // the caller's language for object calls; a key check's context_get already answers it
  const legacyLang = createLegacyLang(upstream);
  const credentials = createCredentials(config, upstream, {
    log,
    onKeyContext: legacyLang.remember,
    baseUrls,
    events: countedAsRefusals(metrics),
    ...clock,
    ...(state === undefined ? {} : { shared: state.credentials }),
  });
  const versions = createVersionCache(upstream, config.versionCacheTtlMs);
  // Overrides file, /doc-bearer discovery, built-in table; a bad signatures file stops the start here.
  const signatures = options.signatures ?? createSignatureResolverFromConfig(config, upstream, log, { serie: versions.serie });
  const successors = createSuccessors({
    mode: config.successors,
    upstream,
    metadataKey: (db) => config.serviceKey?.keyFor(db),
    onServed: (_origin, method) => metrics.observeSuccessor(method),
  });
  // the database and login each call ran as, for the migration report (never the password)
  const identities = createCallIdentities({ stateSecret: config.stateSecret, showLogins: config.reportShowLogins });
  const dispatch = createDispatch({
    common: createCommonService({ upstream, credentials, versions }),
    object: createObjectService({
      upstream,
      credentials,
      legacyLang,
      signatures,
      successors,
      series: versions.serie,
      rpcPolicy: createRpcPolicy({ upstream, serviceKeyFor: (db) => config.serviceKey?.keyFor(db), log, ...clock }),
    }),
    db: createDbService({
      web: upstream.webDatabase,
      versions,
      probeDatabase: (db, origin) => credentials.probeDatabase(db, origin),
      json2: (call, origin) => upstream.json2(call, origin),
      // calls that name no database use --service-db's key
      serviceKey: config.serviceDb === undefined ? undefined : config.serviceKey?.keyFor(config.serviceDb),
      serviceDb: config.serviceDb,
      log,
    }),
  });
  // the migration report: this replica's, and with --redis-url the replicas' together
  const report = createSharedReport({ maxClients: config.reportSize, maxBytes: config.reportMaxBytes, store: state?.report, log });
  // --shadow-sample: the upstream's own legacy endpoints answer each sampled read-only call too
  const shadow: Shadow | undefined =
    config.shadowSample > 0
      ? createShadow({
          settings: { samplePercent: config.shadowSample, maxInFlight: config.shadowMaxInFlight, methods: shadowMethods },
          client: createLegacyEndpointClient(config, { connections: config.shadowMaxInFlight, maxAnswerBytes: maxCompareBytes }),
          log,
          onResult(result) {
            metrics.observeShadow(result.call, result.outcome);
            report.recordShadow(reportedComparison(result));
          },
        })
      : undefined;
  if (shadow !== undefined) metrics.trackShadowInFlight(() => shadow.inFlight);
  const shadowStatus = () => ({
    enabled: shadow !== undefined,
    samplePercent: config.shadowSample,
    maxInFlight: config.shadowMaxInFlight,
    methods: [...shadowMethods],
    gone: shadow?.gone() ?? [],
  });
  const routes = createRoutes(config, log, {
    shadowMethods,
    signatures,
    credentials,
    identities,
    metrics,
    report,
  });
  const passthroughClient = createPassthroughClient(config);
  const inFlight = createInFlight(metrics.loop);
  // aborted when the shutdown grace period is over: calls still running answer a fault
  const shutdown = new AbortController();
  // its own connections: slow legacy calls filling their pool do not make the replica unready
  const health = createHealthCheck(config);
  const startupCheck = createStartupCheck(config, http, upstream, log, undefined, versions.remember);
  upstreamAnswered = () => void startupCheck.retryNow();
  const readiness = createReadiness({
    startup: () => startupCheck.state(),
    retryStartup: () => startupCheck.retryNow(),
    isDraining: () => inFlight.draining,
    checkUpstream: (signal) => health.check(signal),
    timeoutMs: Math.min(config.callTimeoutMs, 5000),
    ...(state === undefined ? {} : { sharedStore: () => (state.link.up ? 'up' : 'away') }),
  });
  // upstream_up / upstream_down on /metrics: the same health check as /readyz, at each scrape
  metrics.operations.trackUpstream(() => upstreamState(health, config));
  return {
    startupCheck,
    app: createApp({
      config,
      log,
      dispatch,
      passthrough: passthrough({
        forward: passthroughClient.forward,
        config,
        log,
        onAnswer(status, seconds) {
          metrics.observePassthrough(status);
          metrics.operations.observePassthrough(status, seconds);
        },
        onSessionLogin(db, uid, login, baseUrl) {
          identities.learn(db, uid, login);
          credentials.rememberLogin(db, uid, login);
          baseUrls.learn(db, baseUrl);
        },
        loginBaseUrl: (db, origin) => baseUrls.known(db, origin),
        onDatabaseForm: () => upstream.webDatabase.forgetManager(),
      }),
      identityOf: (origin) => identities.of(origin),
      onCall(dialect, origin, outcome, seconds) {
        metrics.observeCall(dialect, outcome, seconds);
        metrics.operations.observeCall(outcome);
        const request = origin.values.get(boundJson2Body);
        const json2Body = request === undefined ? undefined : () => placeholderBody(request);
        const identity = identities.of(origin);
        metrics.observeObjectCall(identity?.database, outcome, seconds);
        report.record({
          dialect,
          userAgent: origin.userAgent,
          ip: origin.ip,
          service: outcome.service,
          method: outcome.method,
          model: outcome.model,
          modelMethod: outcome.modelMethod,
          failed: outcomeName(outcome) !== 'ok',
          gatewayFault: outcome.error !== undefined && isGatewayFault(outcome.error),
          json2Body,
          database: identity?.database,
          user: identity?.user,
          successor: origin.values.get(servedBySuccessor) !== undefined,
        });
      },
      shadow,
      routing: routes?.routing,
      shutdown: shutdown.signal,
      tracer,
    }),
    /** Ends the calls still running with a fault in their dialect (the grace period is over). */
    abortCalls() {
      shutdown.abort(
        new LegacyError('upstream_unavailable', {
          name: upstreamErrorName,
          message: `the gateway is shutting down: the call did not finish within --shutdown-grace (${config.shutdownGraceMs} ms)`,
        }),
      );
    },
    admin: createAdminApp({
      metrics,
      report,
      readiness,
      token: config.adminToken,
      shadow: shadowStatus,
      routes: routes === undefined ? undefined : routesStatus(routes),
      routesToken: config.routesToken,
      // what the report's dated verdicts say the gateway serves through successors
      successorMethods: config.successors === 'off' ? [] : successorMethodNames,
      loginOf: config.reportShowLogins ? identities.loginOf : undefined,
    }),
    upstream,
    credentials,
    metrics,
    report,
    inFlight,
    state,
    shadow,
    routes,
    /** Retires the minted keys, sends the last report counts, then closes Redis and the upstream pools (after the server stopped taking calls). */
    async close() {
      // the shadows and verify checks in flight finish first: their results go into the last report counts
      await shadow?.close();
      await routes?.close();
      await credentials.close();
      await report.stop();
      await state?.close();
      await Promise.all([upstream.close(), passthroughClient.close(), health.close()]);
      // the spans still buffered are sent
      await tracer?.close();
    },
  };
}

export interface RunningGateway {
  url: string;
  port: number;
  /** The admin port's base URL (`/metrics`, `/readyz`, `/gateway/report`). */
  adminUrl: string;
  upstream: Upstream;
  credentials: Credentials;
  metrics: GatewayMetrics;
  report: SharedReport;
  /** Shadow mode, when `--shadow-sample` is above 0. */
  shadow: Shadow | undefined;
  /** Route modes, when `--routes-file` or a `--default-mode` other than translate is set. */
  routes: GatewayRoutes | undefined;
  /** The start-up check of the upstream (reachable, version, JSON-2, api_doc, base URL), retried until it answers. */
  startupCheck: StartupCheck;
  /**
   * Graceful stop (docs/architecture.md §8): stops accepting, lets in-flight calls finish for up to
   * `--shutdown-grace`, closes what is left, retires the minted keys, saves the migration report,
   * closes the pools and the admin port.
   */
  close(): Promise<void>;
}

/** Starts listening on `config.host:config.port` and the admin port (port 0 picks a free one). */
export async function startGateway(config: Config, log: Logger, options: GatewayOptions = {}): Promise<RunningGateway> {
  // OpenTelemetry's SDK is loaded only when the OTEL_* variables ask for traces
  const tracer = options.tracer ?? (await loadCallTracer(options.env ?? process.env, log));
  const gateway = createGateway(config, log, { ...options, tracer });
  const { app, admin, upstream, credentials, metrics, report, inFlight, state, shadow, routes } = gateway;
  // the file keeps this replica's own counts (the shared ones live in Redis)
  const persistence = createReportPersistence({ report: report.local, file: config.reportFile, log });
  await persistence.load();
  // A moment for Redis, so the first calls already share their keys; it is never waited for longer.
  await state?.link.ready(Math.min(2000, config.redisTimeoutMs * 4));
  // --send-timeout and --max-connections (client-guard.ts)
  const guard = createClientGuard({
    sendTimeoutMs: config.sendTimeoutMs,
    maxConnections: config.maxConnections,
    onSendTimeout: () => metrics.clientLimit('send_timeout'),
    onRefused: () => {
      metrics.clientLimit('connection_cap');
      metrics.operations.refused('max_connections');
    },
  });
  const fetch: typeof app.fetch = (req, env: { incoming?: IncomingMessage } | undefined, ...rest) =>
    guard.refuses(env?.incoming?.socket) ? guard.refusal() : app.fetch(req, env, ...rest);
  const server = await listen(fetch, config.host, config.port, config.requestTimeoutMs);
  guard.attach(server as Server);
  server.on('request', (_req, res) => inFlight.trackResponse(res));
  server.on('checkContinue', continueUnlessTooLarge(server as Server, config.maxBodyBytes, isGatewayPath));
  const tunnel = upgradeTunnel({ open: createTunnelOpener(config), config, log, inFlight, isOwnedPath: isGatewayPath });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    guard.refuses(socket) ? guard.refuseUpgrade(socket) : tunnel(req, socket, head),
  );
  metrics.trackInFlight(() => inFlight.count);
  metrics.trackConnections(() => guard.open);
  const adminServer = await listen(admin.fetch, config.adminHost, config.adminPort).catch(async (err: unknown) => {
    guard.close();
    await closeServer(server);
    await gateway.close();
    throw err;
  });
  persistence.start();
  report.start();
  const port = portOf(server);
  void gateway.startupCheck.start();
  return {
    startupCheck: gateway.startupCheck,
    url: urlOf(config.host, port),
    port,
    adminUrl: urlOf(config.adminHost, portOf(adminServer)),
    upstream,
    credentials,
    metrics,
    report,
    shadow,
    routes,
    async close() {
      const drained = await drainServer(server, inFlight, config.shutdownGraceMs, () => gateway.abortCalls());
      if (!drained)
        log.warn(
          { graceMs: config.shutdownGraceMs },
          'calls still in flight after the shutdown grace period: answered with a fault where possible, their connections closed',
        );
      guard.close();
      gateway.startupCheck.stop();
      await gateway.startupCheck.start();
      await gateway.close();
      await persistence.stop();
      await closeServer(adminServer);
    },
  };
}

/** The credentials' events for metrics, a throttled login also counted as a policy refusal. */
function countedAsRefusals(metrics: GatewayMetrics): CredentialEvents {
  return {
    ...metrics.credentials,
    throttled() {
      metrics.credentials.throttled();
      metrics.operations.refused('login_throttle');
    },
  };
}

/** One health check of the upstream (`GET /web/health`, 5 s at most): up, or down and why. */
async function upstreamState(health: HealthCheck, config: Config): Promise<UpstreamState> {
  try {
    await health.check(AbortSignal.timeout(Math.min(config.callTimeoutMs, 5000)));
    return { up: true };
  } catch (err) {
    return { up: false, reason: downReasonOf(LegacyError.from(err).kind) };
  }
}

/** Route modes as the gateway runs them: the table (reloadable), the routing, the verifier. */
export interface GatewayRoutes {
  table: RouteTable;
  routing: Routing;
  verifier: Verifier;
  /** Reloads `--routes-file` (SIGHUP, the admin endpoint); a bad file is refused, the routes in force kept. */
  reload(trigger: string): ReturnType<RouteTable['reload']>;
  close(): Promise<void>;
}

/** The routes of `--routes-file` / `--default-mode`; undefined when every call is translated, as always. */
function createRoutes(
  config: Config,
  log: Logger,
  deps: {
    shadowMethods: string[];
    signatures: SignatureResolver;
    credentials: Credentials;
    identities: CallIdentities;
    metrics: GatewayMetrics;
    report: SharedReport;
  },
): GatewayRoutes | undefined {
  if (config.routesFile === undefined && config.defaultMode === 'translate') return undefined;
  let table: RouteTable;
  try {
    table = createRouteTable(config.routesFile, config.defaultMode, log);
  } catch (err) {
    if (err instanceof RoutesFileError) throw new ConfigError(err.problems.map((p) => `--routes-file / ROUTES_FILE: ${p}`));
    throw err;
  }
  const { metrics, report, credentials } = deps;
  const verifier = createVerifier({
    settings: { samplePercent: config.verifySample, maxInFlight: config.verifyMaxInFlight, methods: deps.shadowMethods },
    log,
    onResult(result) {
      metrics.observeVerify(result.call, result.outcome);
      report.recordShadow(reportedComparison(result));
    },
  });
  metrics.trackVerifyInFlight(() => verifier.inFlight);
  // the clients' own traffic, natively: a pool as large as the translated calls' (db calls run longer)
  const client = createLegacyEndpointClient(
    { ...config, callTimeoutMs: Math.max(config.callTimeoutMs, config.dbTimeoutMs) },
    { connections: config.upstreamConnections, maxAnswerBytes: config.maxAnswerBytes },
  );
  const routing = createRouting({
    table,
    client,
    verifier,
    maxDepth: config.maxDepth,
    maxAnswerBytes: config.maxAnswerBytes,
    callTimeoutMs: config.callTimeoutMs,
    log,
    metrics,
    knownLogin: (db, uid) => credentials.knownLogin?.(db, uid),
    rememberLogin(db, uid, login) {
      deps.identities.learn(db, uid, login);
      credentials.rememberLogin(db, uid, login);
    },
    async bind(call, origin) {
      const bound = await bindObjectCall(deps.signatures, call, origin).catch((err: unknown) => LegacyError.from(err));
      return bound instanceof LegacyError ? { fault: `${bound.name}: ${bound.message}` } : { json2Body: placeholderBody(bound.body) };
    },
  });
  return {
    table,
    routing,
    verifier,
    reload: (trigger) => table.reload(trigger),
    async close() {
      await verifier.idle();
      await client.close();
    },
  };
}

/** What the admin port shows of the routes: the rules in force, the fallbacks, and a client's route. */
function routesStatus(routes: GatewayRoutes) {
  return {
    reload: (trigger: string) => routes.reload(trigger),
    routesOf: routes.routing.routesOf,
    status: () => {
      const current = routes.table.current();
      return {
        file: routes.table.file,
        defaultMode: current.defaultMode,
        rules: current.rules.map((r) => ({ name: r.name, mode: r.mode, line: r.line })),
        fallbacks: routes.routing.gone(),
      };
    },
  };
}

/** A compared call (shadow mode's or `verify`'s) as the migration report records it. */
function reportedComparison(result: VerifyResult): Parameters<SharedReport['recordShadow']>[0] {
  const { call } = result;
  return {
    userAgent: result.userAgent,
    ip: result.ip,
    service: call.service,
    method: call.method,
    model: call.model,
    modelMethod: call.modelMethod,
    outcome: result.outcome,
    ...(result.deviation === undefined ? {} : { deviation: result.deviation }),
    ...(result.difference === undefined ? {} : { difference: result.difference }),
    ...(result.json2Body === undefined ? {} : { json2Body: result.json2Body }),
  };
}
