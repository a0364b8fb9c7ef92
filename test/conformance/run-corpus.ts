/**
 * Runs the corpus in recorded order against a simulator and a gateway in front of it: prepares each
 * request (`substitute.ts`: placeholders, ids, session cookies — never passwords), replays it
 * (`replay.ts`), learns created ids (`id-map.ts`), compares the answer and the upstream request
 * (`compare.ts`). Legacy cases go through the gateway; JSON-2 and web-session cases (the routes the
 * gateway mints keys over) go to the simulator. Returns one outcome per case, unclassified.
 */
import { readFileSync } from 'node:fs';
import type { Value } from '../../src/value.ts';
import type { CaseOutcome } from './classify.ts';
import { compareHttp, compareJsonValues, parseJsonText, type Difference } from '../../src/cutover/compare/compare.ts';
import { compareLegacyAnswer } from './compare-case.ts';
import { runDatabaseSteps } from './db-scenario.ts';
import { compareDumpAnswer } from './dump-answer.ts';
import { IdMap, pairCreatedIds } from './id-map.ts';
import { headerValue, referencedIds, scopeOf, sectionsOf, type ConformanceCase } from './load-cases.ts';
import { headersToSend, sendRequest, type HttpAnswer } from './replay.ts';
import {
  fillPlaceholders,
  fillValuePlaceholders,
  learnPlaceholders,
  placeholdersIn,
  pythonJsonDumps,
  rewriteCallIds,
  rewriteCallKwIds,
  rewriteJson2Ids,
  sessionIdOf,
  withSessionId,
} from './substitute.ts';
import { runWebDatabaseCase } from './web-database-case.ts';
import { parseTaggedResponse, taggedToValue } from '../../src/cutover/compare/xmlrpc-tagged.ts';

/** One upstream request the simulator saw (its `log`). */
export interface SimLogEntry {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What the runner needs from the simulator (the `startSimulator` handle). */
export interface SimulatorHandle {
  url: string;
  keyFor(db: string, login: string): string;
  readonly log: readonly SimLogEntry[];
  clearLog(): void;
  reset(): void | Promise<void>;
}

/** A key of the corpus the simulator does not have, and how to make an equivalent one in its key store. */
export interface KeySpec {
  placeholder: string;
  login: string;
  scope: string | null;
  /** Odoo datetime, or null for no expiry. */
  expiration: string | null;
  /** Where the recorded server's key came from. */
  origin: string;
}

const inDays = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10) + ' 00:00:00';

/**
 * Keys the corpus used but the simulator cannot hold on its own (INDEX.md conventions): two made with
 * odoo-bin shell, two made by the JSON-2 key flow (7-day keys). Used only when the run has not bound
 * the placeholder itself (the key flow's answer binds `<NEW_KEY_1>` when the simulator models it).
 */
export const keyEquivalents: readonly KeySpec[] = [
  { placeholder: 'SCOPE_FOO_KEY', login: 'admin', scope: 'foo', expiration: null, origin: "odoo-bin shell, scope 'foo'" },
  {
    placeholder: 'EXPIRED_KEY',
    login: 'admin',
    scope: null,
    expiration: '2020-01-01 00:00:00',
    origin: 'odoo-bin shell, expired 2020-01-01',
  },
  {
    placeholder: 'NEW_KEY_1',
    login: 'admin',
    scope: null,
    expiration: inDays(7),
    origin: 'the JSON-2 key flow (auth-json2-keyflow-3-run_check)',
  },
  {
    placeholder: 'NEW_DEMO_KEY',
    login: 'demo',
    scope: null,
    expiration: inDays(7),
    origin: 'the JSON-2 key flow (auth-json2-demo-keyflow-3-run_check)',
  },
];

/**
 * Web sessions the corpus uses but never shows being opened (the recorder logged in off the record),
 * by the start of the recorded `session_id`, and the login that opens an equivalent one.
 */
export const sessionEquivalents: readonly { cookiePrefix: string; db: string; login: string; password: string; origin: string }[] = [
  {
    cookiePrefix: 'uwSVu2y1',
    db: 'gw',
    login: 'demo',
    password: 'demo',
    origin: 'a fresh demo login before retiring the minted key (sess-retire-*)',
  },
  {
    cookiePrefix: 'Zj0MFvGa',
    db: 'gw2',
    login: 'admin',
    password: 'admin',
    origin: 'an admin login on gw2 (multidb-json2-session-gw2-sec-fetch)',
  },
];

/** Recorded effects on keys: after `caseId` ran, the key was gone on the recorded server. */
export const keyRemovals: readonly { caseId: string; placeholder: string; why: string }[] = [
  {
    caseId: 'auth-json2-keyflow-7-remove-run_check',
    placeholder: 'NEW_KEY_1',
    why: 'run_check with the password removed the key (INDEX.md §7)',
  },
];

/** The simulator's key store, as far as the runner uses it. */
export interface KeyStoreAccess {
  /** Adds a key for `login` in `db`; returns the key text. */
  add(db: string, spec: KeySpec): string;
  /** Removes a key by its text. */
  remove(key: string): void;
}

/** What {@link runCorpus} runs, against what. */
export interface CorpusRunOptions {
  sim: SimulatorHandle;
  gatewayUrl: string;
  /** Cases in recorded order (`orderCases`). */
  cases: readonly ConformanceCase[];
  /** Only these cases are sent (the others are skipped, sections still reset). Default: all. */
  only?: (c: ConformanceCase) => boolean;
  /** The simulator's key store, when its API allows adding keys (with scope and expiry). */
  keyStore?: KeyStoreAccess;
  /** Cases to double-check against the simulator's own JSON-2 answer (`cause: 'corpus'` entries). */
  relativeCheck?: ReadonlySet<string>;
  /** Moves the clock the simulator and the gateway share to a case's recording time. */
  setClock?: (epochMs: number) => void;
}

const adminLogin = 'admin';

function seedMaxIds(): Map<string, bigint> {
  const dir = new URL('../../fixtures/odoo-data/', import.meta.url);
  const out = new Map<string, bigint>();
  for (const model of ['res.partner', 'res.partner.category', 'sale.order', 'sale.order.line', 'res.users', 'product.product']) {
    try {
      const data = JSON.parse(readFileSync(new URL(`${model}.json`, dir), 'utf8')) as { records: { id: number }[] };
      out.set(model, BigInt(Math.max(...data.records.map((r) => r.id))));
    } catch {
      // a model without a seed file: its ids are never provisioned
    }
  }
  return out;
}

/** Runs the cases; never throws for a single case (a runner error becomes that case's outcome). */
export async function runCorpus(options: CorpusRunOptions): Promise<CaseOutcome[]> {
  const { sim, gatewayUrl, cases } = options;
  const sections = sectionsOf(cases);
  const ids = new IdMap();
  const seedMax = seedMaxIds();
  const bindings = new Map<string, string>();
  /** Recorded `session_id` → this run's, learned from Set-Cookie answers or opened as stand-ins. */
  const sessions = new Map<string, string>();
  /** Placeholders bound to keys the runner made (not learned from an answer). */
  const madeKeys = new Set<string>();
  const bindBase = () => {
    bindings.set('ADMIN_KEY', sim.keyFor('gw', 'admin'));
    bindings.set('DEMO_KEY', sim.keyFor('gw', 'demo'));
  };
  bindBase();
  const outcomes: CaseOutcome[] = [];
  let currentSection = 0;

  /** Makes sure a recorded id the request uses exists in this run: a stand-in for records the corpus never shows being created. */
  async function ensureRecord(db: string, model: string, recorded: bigint, notes: string[]): Promise<void> {
    if (ids.lookup(model, recorded) !== undefined) return;
    const max = seedMax.get(model);
    if (max === undefined || recorded <= max) return;
    const answer = await sendRequest(sim.url, {
      method: 'POST',
      path: `/json/2/${model}/create`,
      headers: [
        ['Authorization', `bearer ${sim.keyFor(db, adminLogin)}`],
        ['Content-Type', 'application/json'],
        ['X-Odoo-Database', db],
      ],
      body: JSON.stringify({ vals_list: [{ name: `conformance stand-in for recorded id ${recorded}` }] }),
    });
    const created = parseJsonText(answer.body);
    const id = Array.isArray(created) ? created[0] : undefined;
    if (answer.status !== 200 || (typeof id !== 'number' && typeof id !== 'bigint')) {
      throw new Error(
        `could not create a stand-in ${model} for recorded id ${recorded}: HTTP ${answer.status} ${answer.body.slice(0, 200)}`,
      );
    }
    ids.learn(model, recorded, BigInt(id), 'stand-in');
    notes.push(`stand-in ${model} ${id} for recorded id ${recorded} (its creation is not in the corpus)`);
  }

  /** Binds placeholders, making equivalent keys on first use; returns the names left unbound. */
  function bindFor(text: string, db: string, made: string[]): string[] {
    for (const name of placeholdersIn(text)) {
      if (bindings.has(name)) continue;
      const spec = keyEquivalents.find((k) => k.placeholder === name);
      if (spec === undefined || options.keyStore === undefined) continue;
      bindings.set(name, options.keyStore.add(db, spec));
      madeKeys.add(name);
      made.push(`<${name}>: an equivalent key made through the simulator's key store (${spec.origin})`);
    }
    return placeholdersIn(text).filter((n) => !bindings.has(n));
  }

  for (let i = 0; i < cases.length; i++) {
    const c = cases[i] as ConformanceCase;
    const section = sections[i] ?? 0;
    if (section !== currentSection) {
      currentSection = section;
      await sim.reset();
      ids.clear();
      for (const name of [...bindings.keys()]) if (name !== 'ADMIN_KEY' && name !== 'DEMO_KEY') bindings.delete(name);
      madeKeys.clear();
      sessions.clear();
      bindBase();
    }
    if (c.recordedAt !== undefined) options.setClock?.(c.recordedAt);
    const scope = scopeOf(c);
    const outcome: CaseOutcome = { case: c, scope, section, differences: [], notes: [] };
    outcomes.push(outcome);
    if (scope.kind === 'out-of-scope' || (options.only !== undefined && !options.only(c))) continue;
    try {
      // the database-manager steps the recorder took off the record (db-scenario.ts)
      outcome.notes.push(...(await runDatabaseSteps(c.id, sim.url)));
      if (scope.kind === 'json2' && c.protocol === 'web-database') await runWebDatabaseCase(c, outcome, sim.url, gatewayUrl);
      else if (scope.kind === 'json2' && c.protocol === 'web-session') await runWebSessionCase(c, outcome);
      else if (scope.kind === 'json2') await runJson2Case(c, outcome);
      else await runLegacyCase(c, outcome);
    } catch (err) {
      outcome.runnerError = err instanceof Error ? `${err.message}` : String(err);
    }
    for (const removal of keyRemovals.filter((r) => r.caseId === c.id && madeKeys.has(r.placeholder))) {
      const key = bindings.get(removal.placeholder);
      if (key !== undefined) options.keyStore?.remove(key);
      outcome.notes.push(`<${removal.placeholder}> removed through the key store: ${removal.why}`);
    }
  }
  return outcomes;

  async function runLegacyCase(c: ConformanceCase, outcome: CaseOutcome): Promise<void> {
    const legacy = c.legacy;
    if (legacy === undefined) return;
    const db = typeof c.call?.params[0] === 'string' ? c.call.params[0] : 'gw';
    const unbound = bindFor(legacy.requestBody, db, outcome.notes);
    if (unbound.length > 0) {
      outcome.unbound = unbound;
      return;
    }
    let body = fillPlaceholders(legacy.requestBody, bindings).text;
    const call = c.call;

    for (const ref of referencedIds(c, 'legacy')) {
      for (const id of ref.ids) await ensureRecord(db, ref.model, id, outcome.notes);
    }
    if (call?.object !== undefined && c.volatile.includes('legacy.request_body')) {
      const model = call.object.model;
      body = rewriteCallIds(c.protocol, body, call, (id) => ids.lookup(model, id));
    }

    for (const extra of c.extraExchanges) {
      await sendRequest(gatewayUrl, {
        method: extra.method,
        path: extra.path,
        headers: headersToSend(extra.requestHeaders),
        body: fillPlaceholders(extra.requestBody, bindings).text,
      });
    }
    sim.clearLog();
    const answer = await sendRequest(gatewayUrl, {
      method: legacy.method,
      path: legacy.path,
      headers: headersToSend(legacy.requestHeaders),
      body,
    });
    const upstream = [...sim.log];
    outcome.actual = { status: answer.status, contentType: answer.contentType, body: answer.body };

    learnCreatedIds(c, answer, outcome);
    outcome.idsAtCompare = new Map(
      ids.entries().flatMap((m) => {
        const run = ids.lookupAnyModel(m.recorded);
        return run === undefined ? [] : [[m.recorded, run] as [bigint, bigint]];
      }),
    );
    outcome.differences.push(...compareLegacyAnswer(c, answer, (recorded) => ids.lookupAnyModel(recorded)));
    if (legacy.truncated) outcome.differences.push(...compareDumpAnswer(c, answer.body));
    if (c.equivalent === true && c.json2 !== undefined) outcome.differences.push(...compareUpstream(c, upstream));
    if (options.relativeCheck?.has(c.id) && c.json2 !== undefined) outcome.relativeDifferences = await relativeCheck(c, answer);
  }

  function valueOfAnswer(protocol: string, body: string): Value | undefined {
    if (protocol === 'jsonrpc') {
      const env = parseJsonText(body);
      return env instanceof Map ? env.get('result') : undefined;
    }
    try {
      const r = parseTaggedResponse(body);
      return r.kind === 'params' && r.params[0] !== undefined ? taggedToValue(r.params[0]) : undefined;
    } catch {
      return undefined;
    }
  }

  function learnCreatedIds(c: ConformanceCase, answer: HttpAnswer, outcome: CaseOutcome): void {
    const obj = c.call?.object;
    if (obj === undefined || c.legacyDecoded?.kind !== 'ok' || !['create', 'name_create', 'copy'].includes(obj.method)) return;
    const pairs = pairCreatedIds(c.legacyDecoded.value, valueOfAnswer(c.protocol, answer.body));
    for (const [recorded, actual] of pairs ?? []) {
      ids.learn(obj.model, recorded, actual, c.id);
      outcome.notes.push(`id map: ${obj.model} ${recorded} → ${actual}`);
    }
  }

  function compareUpstream(c: ConformanceCase, upstream: readonly SimLogEntry[]): Difference[] {
    const j = c.json2;
    if (j === undefined) return [];
    const candidates = upstream.filter((r) => r.method === j.method && r.path === j.path);
    if (candidates.length === 0) {
      return [
        {
          path: 'upstream',
          message: `no upstream ${j.method} ${j.path}; the gateway sent ${JSON.stringify(upstream.map((r) => `${r.method} ${r.path}`))}`,
        },
      ];
    }
    const expectedDb = headerValue(j.requestHeaders, 'X-Odoo-Database');
    let best: Difference[] | undefined;
    for (const r of candidates) {
      const diffs: Difference[] = [];
      const dbHeader = r.headers['x-odoo-database'];
      if (expectedDb !== undefined && dbHeader !== expectedDb)
        diffs.push({ path: 'upstream.X-Odoo-Database', message: `expected ${expectedDb}, got ${String(dbHeader)}` });
      if (j.requestBody.kind === 'json') {
        const actual = parseJsonText(r.body);
        if (actual === undefined) diffs.push({ path: 'upstream.body', message: `not JSON: ${r.body.slice(0, 200)}` });
        else {
          diffs.push(
            ...compareJsonValues(
              j.requestBody.value,
              actual,
              {
                ignoreMemberOrder: true,
                volatilePaths: c.volatile.includes('json2.request_body.ids') ? ['ids'] : [],
                mapId: (recorded) => ids.lookupAnyModel(recorded),
              },
              'upstream.body',
            ),
          );
        }
      }
      if (diffs.length === 0) return [];
      best ??= diffs;
    }
    return best ?? [];
  }

  async function relativeCheck(c: ConformanceCase, answer: HttpAnswer): Promise<Difference[]> {
    const j = c.json2;
    if (j === undefined || j.requestBody.kind !== 'json') return [{ path: 'relative', message: 'no JSON-2 request recorded' }];
    // The recorded JSON-2 request as its client sent it (same user's key), ids mapped like the legacy call's.
    const model = /^\/json\/2\/([^/]+)\//.exec(j.path)?.[1] ?? '';
    const value = c.volatile.includes('json2.request_body.ids')
      ? rewriteJson2Ids(j.requestBody.value, (id) => ids.lookup(model, id))
      : j.requestBody.value;
    const simAnswer = await sendRequest(sim.url, {
      method: j.method,
      path: j.path,
      headers: headersToSend(j.requestHeaders).map(([k, v]) => [k, fillPlaceholders(v, bindings).text] as [string, string]),
      body: pythonJsonDumps(value),
    });
    const expected = parseJsonText(simAnswer.body);
    const actual = valueOfAnswer(c.protocol, answer.body);
    if (expected === undefined || actual === undefined) return [{ path: 'relative', message: 'no comparable answers' }];
    return compareJsonValues(expected, actual, {}, 'relative');
  }

  async function runJson2Case(c: ConformanceCase, outcome: CaseOutcome): Promise<void> {
    const j = c.json2;
    if (j === undefined) return;
    const db = headerValue(j.requestHeaders, 'X-Odoo-Database') || 'gw';
    const texts = [
      ...j.requestHeaders.map(([, v]) => v),
      j.requestBody.kind === 'text' ? j.requestBody.text : j.requestBody.kind === 'json' ? pythonJsonDumps(j.requestBody.value) : '',
    ];
    const unbound = texts.flatMap((t) => bindFor(t, db, outcome.notes));
    if (unbound.length > 0) {
      outcome.unbound = [...new Set(unbound)];
      return;
    }
    let value = j.requestBody.kind === 'json' ? j.requestBody.value : undefined;
    if (value !== undefined && c.volatile.includes('json2.request_body.ids')) {
      const model = /^\/json\/2\/([^/]+)\//.exec(j.path)?.[1] ?? '';
      for (const ref of referencedIds(c, 'json2')) for (const id of ref.ids) await ensureRecord(db, ref.model, id, outcome.notes);
      value = rewriteJson2Ids(value, (id) => ids.lookup(model, id));
    }
    const body =
      j.requestBody.kind === 'json'
        ? fillPlaceholders(pythonJsonDumps(value as Value), bindings).text
        : j.requestBody.kind === 'text'
          ? fillPlaceholders(j.requestBody.text, bindings).text
          : '';
    const headers = await bindSessions(
      headersToSend(j.requestHeaders).map(([k, v]) => [k, fillPlaceholders(v, bindings).text] as [string, string]),
      outcome,
    );
    if (headers === undefined) return;
    const omitContentLength = body === '' && headerValue(j.requestHeaders, 'Content-Length') === undefined;
    const answer = await sendRequest(sim.url, { method: j.method, path: j.path, headers, body, omitContentLength });
    outcome.actual = { status: answer.status, contentType: answer.contentType, body: answer.body };
    outcome.differences.push(...compareHttp({ status: j.status, contentType: j.responseContentType }, answer));

    const actual = /json/.test(answer.contentType) ? parseJsonText(answer.body) : answer.body;
    if (actual === undefined) {
      outcome.differences.push({ path: 'body', message: `not JSON: ${answer.body.slice(0, 200)}` });
      return;
    }
    const volatilePaths = c.volatile
      .filter((v) => v.startsWith('json2.response_body'))
      .map((v) => v.replace(/^json2\.response_body\.?/, ''));
    const [, model = '', method = ''] = /^\/json\/2\/([^/]+)\/([^/]+)$/.exec(j.path) ?? [];
    const own = learnFromAnswer(c, { model, method }, j.responseBody, actual, j.status === 200 && answer.status === 200, outcome);
    const expected = fillValuePlaceholders(j.responseBody, bindings);
    if (typeof expected === 'string' && typeof actual === 'string' && !/json/.test(j.responseContentType)) {
      if (expected !== actual)
        outcome.differences.push({
          path: 'body',
          message: `expected ${JSON.stringify(expected).slice(0, 300)}, got ${JSON.stringify(actual).slice(0, 300)}`,
        });
    } else {
      outcome.differences.push(
        ...compareJsonValues(expected, actual, { volatilePaths, tailPaths: ['debug'], mapId: (r) => own.get(r) ?? ids.lookupAnyModel(r) }),
      );
    }
  }

  /**
   * A web-session case (the routes minting uses: `/web/session/*`, `/web/dataset/call_kw`, and the
   * minted key on JSON-2), replayed against the simulator with the run's cookies, ids and keys.
   */
  async function runWebSessionCase(c: ConformanceCase, outcome: CaseOutcome): Promise<void> {
    const legacy = c.legacy;
    if (legacy === undefined) return;
    const unbound = [...legacy.requestHeaders.map(([, v]) => v), legacy.requestBody].flatMap((t) => bindFor(t, 'gw', outcome.notes));
    if (unbound.length > 0) {
      outcome.unbound = [...new Set(unbound)];
      return;
    }
    const params = (parseJsonText(legacy.requestBody) as Map<string, Value> | undefined)?.get?.('params');
    const model = params instanceof Map && typeof params.get('model') === 'string' ? (params.get('model') as string) : '';
    const method = params instanceof Map && typeof params.get('method') === 'string' ? (params.get('method') as string) : '';
    let body = fillPlaceholders(legacy.requestBody, bindings).text;
    if (legacy.path.startsWith('/web/dataset/call_kw')) body = rewriteCallKwIds(body, (id) => ids.lookup(model, id));
    const headers = await bindSessions(
      headersToSend(legacy.requestHeaders).map(([k, v]) => [k, fillPlaceholders(v, bindings).text] as [string, string]),
      outcome,
    );
    if (headers === undefined) return;
    const answer = await sendRequest(sim.url, { method: legacy.method, path: legacy.path, headers, body });
    outcome.actual = { status: answer.status, contentType: answer.contentType, body: answer.body };
    outcome.differences.push(...compareHttp({ status: legacy.status, contentType: legacy.responseContentType }, answer));
    learnSession(legacy.responseHeaders, answer.headers['set-cookie'], outcome);
    const recorded = parseJsonText(legacy.responseBody);
    const actual = parseJsonText(answer.body);
    if (recorded === undefined || actual === undefined) {
      if (legacy.responseBody !== answer.body)
        outcome.differences.push({
          path: 'body',
          message: `expected ${JSON.stringify(legacy.responseBody).slice(0, 300)}, got ${JSON.stringify(answer.body).slice(0, 300)}`,
        });
      return;
    }
    const resultOf = (v: Value) => (v instanceof Map && v.has('jsonrpc') ? (v.get('result') ?? null) : v);
    const target = legacy.path.startsWith('/json/2/')
      ? (/^\/json\/2\/([^/]+)\/([^/]+)$/.exec(legacy.path) ?? []).slice(1)
      : [model, method];
    const own = learnFromAnswer(
      c,
      { model: target[0] ?? '', method: target[1] ?? '' },
      resultOf(recorded),
      resultOf(actual),
      legacy.status === 200 && answer.status === 200,
      outcome,
    );
    const volatilePaths = c.volatile
      .filter((v) => v.startsWith('legacy.response_body'))
      .map((v) => v.replace(/^legacy\.response_body\.?/, ''));
    outcome.differences.push(
      ...compareJsonValues(fillValuePlaceholders(recorded, bindings), actual, {
        volatilePaths,
        tailPaths: ['error.data.debug', 'debug'],
        mapId: (r) => own.get(r) ?? ids.lookupAnyModel(r),
      }),
    );
  }

  /**
   * Learns what an answer shows about this run: placeholders, and ids — of records `create` made, of
   * the record an action opens (`res_model`/`res_id`), of API keys a `search_read` lists (keys are
   * never the recorded server's). Returns the ids this answer paired (recorded → run).
   */
  function learnFromAnswer(
    c: ConformanceCase,
    target: { model: string; method: string },
    recorded: Value,
    actual: Value,
    ok: boolean,
    outcome: CaseOutcome,
  ): Map<bigint, bigint> {
    for (const name of learnPlaceholders(recorded, actual, (n, v) => bindings.set(n, v)))
      outcome.notes.push(`learned <${name}> from the answer`);
    const own = new Map<bigint, bigint>();
    if (!ok) return own;
    const learn = (model: string, r: bigint, a: bigint) => {
      own.set(r, a);
      if (ids.lookup(model, r) === a) return;
      try {
        ids.learn(model, r, a, c.id);
        outcome.notes.push(`id map: ${model} ${r} → ${a}`);
      } catch (err) {
        outcome.notes.push(`id map: ${(err as Error).message}`);
      }
    };
    if (['create', 'name_create', 'copy'].includes(target.method))
      for (const [r, a] of pairCreatedIds(recorded, actual) ?? []) learn(target.model, r, a);
    const asInt = (v: Value | undefined) => (typeof v === 'number' || typeof v === 'bigint' ? BigInt(v) : undefined);
    if (
      recorded instanceof Map &&
      actual instanceof Map &&
      typeof recorded.get('res_model') === 'string' &&
      recorded.get('res_model') === actual.get('res_model')
    ) {
      const r = asInt(recorded.get('res_id'));
      const a = asInt(actual.get('res_id'));
      if (r !== undefined && a !== undefined) learn(recorded.get('res_model') as string, r, a);
    }
    if (
      target.model === 'res.users.apikeys' &&
      target.method === 'search_read' &&
      Array.isArray(recorded) &&
      Array.isArray(actual) &&
      recorded.length === actual.length
    ) {
      recorded.forEach((row, i) => {
        const r = row instanceof Map ? asInt(row.get('id')) : undefined;
        const other = actual[i];
        const a = other instanceof Map ? asInt(other.get('id')) : undefined;
        if (r !== undefined && a !== undefined) learn('res.users.apikeys', r, a);
      });
    }
    return own;
  }

  /** Maps a recorded Set-Cookie session to the one the simulator set. */
  function learnSession(recordedHeaders: readonly [string, string][], actualSetCookie: string | undefined, outcome: CaseOutcome): void {
    const recorded = recordedHeaders
      .filter(([k]) => k.toLowerCase() === 'set-cookie')
      .map(([, v]) => sessionIdOf(v))
      .find((v) => v !== undefined);
    const run = actualSetCookie === undefined ? undefined : sessionIdOf(actualSetCookie);
    if (recorded === undefined || run === undefined || sessions.get(recorded) === run) return;
    sessions.set(recorded, run);
    outcome.notes.push(`session map: recorded session ${recorded.slice(0, 8)}… → this run's`);
  }

  /** Replaces recorded session cookies by this run's; opens a stand-in session where the corpus shows none. */
  async function bindSessions(headers: [string, string][], outcome: CaseOutcome): Promise<[string, string][] | undefined> {
    const out: [string, string][] = [];
    for (const [name, value] of headers) {
      const recorded = name.toLowerCase() === 'cookie' ? sessionIdOf(value) : undefined;
      if (recorded === undefined) {
        out.push([name, value]);
        continue;
      }
      const run = sessions.get(recorded) ?? (await openStandInSession(recorded, outcome));
      if (run === undefined) {
        outcome.unbound = ['session_id cookie'];
        return undefined;
      }
      out.push([name, withSessionId(value, run)]);
    }
    return out;
  }

  async function openStandInSession(recorded: string, outcome: CaseOutcome): Promise<string | undefined> {
    const spec = sessionEquivalents.find((e) => recorded.startsWith(e.cookiePrefix));
    if (spec === undefined) return undefined;
    const answer = await sendRequest(sim.url, {
      method: 'POST',
      path: '/web/session/authenticate',
      headers: [['Content-Type', 'application/json']],
      body: pythonJsonDumps(
        new Map<string, Value>([
          ['jsonrpc', '2.0'],
          ['method', 'call'],
          [
            'params',
            new Map<string, Value>([
              ['db', spec.db],
              ['login', spec.login],
              ['password', spec.password],
            ]),
          ],
          ['id', null],
        ]),
      ),
    });
    const run = answer.headers['set-cookie'] === undefined ? undefined : sessionIdOf(answer.headers['set-cookie']);
    if (run === undefined)
      throw new Error(`could not open a stand-in session (${spec.origin}): HTTP ${answer.status} ${answer.body.slice(0, 200)}`);
    sessions.set(recorded, run);
    outcome.notes.push(`stand-in session: ${spec.origin}`);
    return run;
  }
}
