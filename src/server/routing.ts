/**
 * Route modes on the client port (`src/cutover/routes/`, docs/cutover.md): before a legacy call is
 * translated, its route decides who answers it. `translate` (and every call when no routes file
 * and no other `--default-mode` is set) goes on as the gateway always served it; `deny` answers a
 * fault in the caller's dialect naming the rule, sending nothing; `native` sends the client's own
 * body to Odoo's own legacy endpoint and answers Odoo's bytes; `verify` does the same and hands the
 * call to the verifier. Where the upstream no longer serves a legacy service natively (a 404, or
 * `Invalid service name: db` on saas-19.1 and later), `native` and `verify` fall back to translate
 * for that service, said once in the log and in the report.
 */
import { isPasswordLogin } from '../legacy/surface.ts';
import { besideCall, callCaller, type CallOrigin, type Dialect, type LegacyCall } from '../call.ts';
import { LegacyError, upstreamErrorName } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { GatewayMetrics } from '../metrics/metrics.ts';
import { viewAnswer, type AnswerView } from '../cutover/shadow/answer-view.ts';
import { createGoneServices, goneReason, type GoneService } from '../cutover/shadow/legacy-gone.ts';
import type { HttpAnswer } from '../cutover/shadow/compare-answers.ts';
import type { CallFacts, Route } from '../cutover/routes/match.ts';
import type { RouteTable } from '../cutover/routes/route-table.ts';
import type { Verifier } from '../cutover/routes/verify.ts';
import type { LegacyEndpointClient } from '../upstream/index.ts';
import { decodeRequest as decodeJsonRpc, encodeError } from '../wire/jsonrpc/index.ts';
import type { CallOutcome, WireResponse } from '../wire/response.ts';
import { decodeRequest as decodeXmlRpc, encodeFault } from '../wire/xmlrpc/index.ts';
import { isInt, type Value } from '../value.ts';

/** One legacy call offered to routing, once its body is read. */
export interface RoutedRequest {
  dialect: Dialect;
  /** The path the client posted to (as routed). */
  path: string;
  /** `/xmlrpc*`: the service the path names; `/jsonrpc`: undefined (the body names it). */
  service: string | undefined;
  contentType: string | undefined;
  body: Uint8Array;
  origin: CallOrigin;
  onOutcome: (outcome: CallOutcome) => void;
  /** The gateway's own answer to the body (translate), uncounted: what verify compares. */
  translate: (origin: CallOrigin) => Promise<WireResponse>;
  /** Runs a callback once the client's answer is out. */
  whenSent: (run: () => void) => void;
}

export interface RoutingDeps {
  table: RouteTable;
  /** Odoo's own legacy endpoints, on a pool for the clients' native traffic. */
  client: LegacyEndpointClient;
  verifier: Verifier;
  maxDepth: number;
  maxAnswerBytes: number;
  /** The deadline of verify's own translation of a call. */
  callTimeoutMs: number;
  log: Logger;
  metrics: Pick<GatewayMetrics, 'observeRoute'>;
  /** The login a uid is known to have (object calls' login selector). */
  knownLogin: (db: string, uid: number | bigint) => string | undefined;
  /** A login Odoo's own endpoint accepted: remembered as a web login would be. */
  rememberLogin: (db: string, uid: number | bigint, login: string) => void;
  /** An object call's JSON-2 placeholder body, bound without sending (verify's check of writes). */
  bind: (call: LegacyCall, origin: CallOrigin) => Promise<{ json2Body: string } | { fault: string }>;
  now?: () => number;
}

export interface Routing {
  /** Serves the call when its route is not `translate`; undefined: translate it as always. */
  serve(request: RoutedRequest): Promise<WireResponse | undefined>;
  /** The services native/verify fell back to translate for. */
  gone(): GoneService[];
  /** The routes a client (User-Agent, address, database) took lately: rule and mode, most recent last. */
  routesOf(userAgent: string, ip: string, database: string | undefined): Route[];
}

/** Clients whose routes are remembered for the report (the least recently seen leaves first). */
const maxRemembered = 10_000;

/** The db functions whose second parameter names a database (the first is the master password). */
const dbNamedSecond = new Set(['create_database', 'duplicate_database', 'drop', 'dump', 'restore', 'rename', 'migrate_databases']);

/** The call's facts for the route selectors; the login only where the call carries or implies one. */
export function callFacts(
  call: LegacyCall | undefined,
  service: string,
  origin: Pick<CallOrigin, 'userAgent' | 'ip'>,
  knownLogin: RoutingDeps['knownLogin'],
): CallFacts & { uid?: number | bigint } {
  const base = { userAgent: origin.userAgent, ip: origin.ip, service };
  if (call === undefined) return { ...base, method: `${service}.` };
  const p = call.params;
  const str = (v: Value | undefined) => (typeof v === 'string' ? v : undefined);
  if (call.service === 'object') {
    const database = str(p[0]);
    const uid = p[1] !== undefined && isInt(p[1]) ? p[1] : undefined;
    const model = str(p[3]);
    const method = str(p[4]);
    return {
      ...base,
      method: model !== undefined && method !== undefined ? `${model}.${method}` : `object.${call.method}`,
      database,
      login: database !== undefined && uid !== undefined ? knownLogin(database, uid) : undefined,
      ...(uid === undefined ? {} : { uid }),
    };
  }
  const method = `${call.service}.${call.method}`;
  if (isPasswordLogin(call.service, call.method)) return { ...base, method, database: str(p[0]), login: str(p[1]) };
  if (call.service === 'db')
    return { ...base, method, database: call.method === 'db_exist' ? str(p[0]) : dbNamedSecond.has(call.method) ? str(p[1]) : undefined };
  return { ...base, method };
}

/** The deny fault: AccessError-like (v2 fault 4), naming the rule and the call, never an argument. */
export function deniedError(route: Route, facts: CallFacts): LegacyError {
  const rule = route.rule === undefined ? '--default-mode deny' : `the route rule ${JSON.stringify(route.rule)}`;
  return new LegacyError('access_error', {
    name: 'legacy_rpc_gateway.RouteDenied',
    message: `${facts.method} is refused by the gateway: ${rule} denies it (--routes-file).`,
  });
}

/** A native answer's outcome for the access log, the metrics and the report (no message: it may quote values). */
function nativeOutcome(facts: CallFacts, call: LegacyCall | undefined, view: AnswerView): CallOutcome {
  const [model, modelMethod] =
    call?.service === 'object' && typeof call.params[3] === 'string' && typeof call.params[4] === 'string'
      ? [call.params[3], call.params[4]]
      : [undefined, undefined];
  const outcome: CallOutcome = { service: facts.service, method: call?.method ?? '', model, modelMethod };
  if (view.kind === 'result') {
    if (call !== undefined && isPasswordLogin(call.service, call.method) && view.value === false) outcome.refusedLogin = true;
    return outcome;
  }
  if (view.kind === 'other') return outcome;
  const code = view.code.trim();
  const kind = view.accessDenied
    ? 'access_denied'
    : code === '4' || code.endsWith('AccessError')
      ? 'access_error'
      : code === '2' || code.startsWith('warning --') || /UserError|ValidationError|MissingError$/.test(code)
        ? 'user_error'
        : 'internal';
  outcome.error = new LegacyError(kind, { name: 'legacy_rpc_gateway.NativeFault', message: "Odoo's own legacy endpoint answered a fault" });
  return outcome;
}

function decode(request: RoutedRequest, maxDepth: number): { call: LegacyCall | undefined; id: Value } {
  if (request.dialect === 'jsonrpc') {
    const decoded = decodeJsonRpc(new TextDecoder().decode(request.body), maxDepth);
    if (!('call' in decoded)) return { call: undefined, id: null };
    return { call: decoded.call instanceof LegacyError ? undefined : decoded.call, id: decoded.id };
  }
  const call = decodeXmlRpc(request.body, request.dialect, request.service ?? '', { maxDepth });
  return { call: call instanceof LegacyError ? undefined : call, id: null };
}

function faultAnswer(dialect: Dialect, id: Value, err: LegacyError): WireResponse {
  return dialect === 'jsonrpc'
    ? { status: 200, contentType: 'application/json; charset=utf-8', body: encodeError(id, err) }
    : { status: 200, contentType: 'text/xml; charset=utf-8', body: encodeFault(err, dialect) };
}

export function createRouting(deps: RoutingDeps): Routing {
  const { table, client, verifier, log, metrics } = deps;
  const gone = createGoneServices(log, deps.now, 'native and verify routes fall back to translate');
  const taken = new Map<string, Map<string, Route>>();
  const clientKey = (userAgent: string, ip: string, database: string | undefined) => `${userAgent}\u0000${ip}\u0000${database ?? ''}`;
  function remember(facts: CallFacts, route: Route): void {
    const key = clientKey(facts.userAgent, facts.ip, facts.database);
    const routes = taken.get(key) ?? new Map<string, Route>();
    taken.delete(key);
    const label = `${route.rule ?? ''}\u0000${route.mode}`;
    routes.delete(label);
    routes.set(label, route);
    if (routes.size > 8) routes.delete(routes.keys().next().value as string);
    taken.set(key, routes);
    if (taken.size > maxRemembered) taken.delete(taken.keys().next().value as string);
  }

  async function askLegacy(request: RoutedRequest) {
    const { userAgent, ip, host, proto, requestId } = request.origin;
    return client.post(request.path, request.body, request.contentType, { userAgent, ip, host, proto, requestId });
  }

  return {
    gone: () => gone.list(),
    routesOf: (userAgent, ip, database) => [...(taken.get(clientKey(userAgent, ip, database))?.values() ?? [])],
    async serve(request) {
      // the snapshot this call keeps, whatever a reload does meanwhile
      const routes = table.current();
      if (routes.rules.length === 0 && routes.defaultMode === 'translate') return undefined;
      const { call, id } = decode(request, deps.maxDepth);
      const service = call?.service ?? request.service ?? '';
      const facts = callFacts(call, service, request.origin, deps.knownLogin);
      const route = routes.select(facts);
      remember(facts, route);
      if (route.mode === 'translate') {
        metrics.observeRoute('translate', 'answered');
        return undefined;
      }
      if (route.mode === 'deny') {
        const err = deniedError(route, facts);
        metrics.observeRoute('deny', 'denied');
        const [model, modelMethod] =
          facts.method.includes('.') && service === 'object' ? splitModelMethod(facts.method) : [undefined, undefined];
        request.onOutcome({ service, method: call?.method ?? '', model, modelMethod, error: err });
        return faultAnswer(request.dialect, id, err);
      }
      if (gone.has(service)) {
        metrics.observeRoute(route.mode, 'fallback');
        return undefined;
      }
      let answer;
      try {
        answer = await askLegacy(request);
      } catch (err) {
        const error = LegacyError.from(err);
        metrics.observeRoute(route.mode, 'failed');
        request.onOutcome({ service, method: call?.method ?? '', error });
        return faultAnswer(request.dialect, id, error);
      }
      if (answer.bytes === undefined || answer.text === undefined) {
        const error = new LegacyError('upstream_invalid', {
          name: upstreamErrorName,
          message: `Odoo's own answer is larger than --max-answer (${deps.maxAnswerBytes} bytes)`,
        });
        metrics.observeRoute(route.mode, 'failed');
        request.onOutcome({ service, method: call?.method ?? '', error });
        return faultAnswer(request.dialect, id, error);
      }
      const view = viewAnswer(request.dialect, answer.text);
      const goneWhy = goneReason(service, request.path, answer.status, view);
      if (goneWhy !== undefined) {
        // Odoo ran nothing: it has no such service. The gateway serves it, from now on too.
        gone.mark(service, goneWhy);
        metrics.observeRoute(route.mode, 'fallback');
        return undefined;
      }
      metrics.observeRoute(route.mode, 'answered');
      const outcome = nativeOutcome(facts, call, view);
      learnIdentity(deps, request.origin, facts, call, view);
      request.onOutcome(outcome);
      const legacy: HttpAnswer = { status: answer.status, contentType: answer.contentType, body: answer.text };
      if (route.mode === 'verify' && call !== undefined) {
        verifier.offer(
          {
            dialect: request.dialect,
            body: request.body,
            origin: request.origin,
            call: outcome,
            legacy,
            translate: () => request.translate(besideCall(request.origin, 'verify', AbortSignal.timeout(deps.callTimeoutMs))),
            askLegacy: async () => {
              try {
                const again = await askLegacy(request);
                if (again.text === undefined) return new Error('the legacy answer is too large to compare');
                return { status: again.status, contentType: again.contentType, body: again.text };
              } catch (err) {
                return err instanceof Error ? err : new Error(String(err));
              }
            },
            bind: () => deps.bind(call, request.origin),
          },
          request.whenSent,
        );
      }
      return { status: answer.status, contentType: answer.contentType, body: answer.bytes };
    },
  };
}

function splitModelMethod(name: string): [string, string] {
  const at = name.lastIndexOf('.');
  return [name.slice(0, at), name.slice(at + 1)];
}

/** A login Odoo accepted teaches uid → login (as a web login does); every native call gets its report identity. */
function learnIdentity(
  deps: RoutingDeps,
  origin: CallOrigin,
  facts: CallFacts & { uid?: number | bigint },
  call: LegacyCall | undefined,
  view: AnswerView,
) {
  if (facts.database === undefined || call === undefined) return;
  if (call.service === 'common' && facts.login !== undefined) {
    const uid = view.kind === 'result' && isInt(view.value) ? view.value : undefined;
    origin.values.set(callCaller, { database: facts.database, login: facts.login, ...(uid === undefined ? {} : { uid }) });
    if (uid !== undefined) deps.rememberLogin(facts.database, uid, facts.login);
  } else if (call.service === 'object' && facts.uid !== undefined) {
    origin.values.set(callCaller, { database: facts.database, uid: facts.uid });
  }
}
