/**
 * Runs the corpus in recorded order against a simulator and a gateway in front of it: prepares each
 * request (`substitute.ts`), replays it (`replay.ts`), learns created ids (`id-map.ts`), compares the
 * answer and the upstream request (`compare.ts`). Returns one outcome per case, unclassified.
 */
import { readFileSync } from 'node:fs';
import type { Value } from '../../src/value.ts';
import type { CaseOutcome } from './classify.ts';
import { compareHttp, compareJsonValues, parseJsonText, type Difference } from './compare.ts';
import { compareLegacyAnswer } from './compare-case.ts';
import { IdMap, pairCreatedIds } from './id-map.ts';
import { headerValue, referencedIds, scopeOf, sectionsOf, type ConformanceCase } from './load-cases.ts';
import { headersToSend, sendRequest, type HttpAnswer } from './replay.ts';
import {
  fillPlaceholders,
  learnPlaceholders,
  passwordPosition,
  placeholdersIn,
  plainPasswordOwner,
  pythonJsonDumps,
  replaceParam,
  rewriteCallIds,
  rewriteJson2Ids,
  type SimUser,
} from './substitute.ts';
import { parseTaggedResponse, taggedToValue } from './xmlrpc-tagged.ts';

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
  users(db: string): SimUser[];
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
  { placeholder: 'EXPIRED_KEY', login: 'admin', scope: null, expiration: '2020-01-01 00:00:00', origin: 'odoo-bin shell, expired 2020-01-01' },
  { placeholder: 'NEW_KEY_1', login: 'admin', scope: null, expiration: inDays(7), origin: 'the JSON-2 key flow (auth-json2-keyflow-3-run_check)' },
  { placeholder: 'NEW_DEMO_KEY', login: 'demo', scope: null, expiration: inDays(7), origin: 'the JSON-2 key flow (auth-json2-demo-keyflow-3-run_check)' },
];

/** Recorded effects on keys: after `caseId` ran, the key was gone on the recorded server. */
export const keyRemovals: readonly { caseId: string; placeholder: string; why: string }[] = [
  { caseId: 'auth-json2-keyflow-7-remove-run_check', placeholder: 'NEW_KEY_1', why: 'run_check with the password removed the key (INDEX.md §7)' },
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
  /** Placeholders bound to keys the runner made (not learned from an answer). */
  const madeKeys = new Set<string>();
  const bindBase = () => {
    bindings.set('ADMIN_KEY', sim.keyFor('gw', 'admin'));
    bindings.set('DEMO_KEY', sim.keyFor('gw', 'demo'));
  };
  bindBase();
  const outcomes: CaseOutcome[] = [];
  let currentSection = 0;

  const usersOf = (db: unknown): SimUser[] => {
    try {
      return typeof db === 'string' ? sim.users(db) : [];
    } catch {
      return [];
    }
  };

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
      throw new Error(`could not create a stand-in ${model} for recorded id ${recorded}: HTTP ${answer.status} ${answer.body.slice(0, 200)}`);
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
      bindBase();
    }
    const scope = scopeOf(c);
    const outcome: CaseOutcome = { case: c, scope, section, differences: [], notes: [] };
    outcomes.push(outcome);
    if (scope.kind === 'out-of-scope' || (options.only !== undefined && !options.only(c))) continue;
    try {
      if (scope.kind === 'json2') await runJson2Case(c, outcome);
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
    const db = typeof c.call?.params[0] === 'string' ? (c.call.params[0] as string) : 'gw';
    const unbound = bindFor(legacy.requestBody, db, outcome.notes);
    if (unbound.length > 0) {
      outcome.unbound = unbound;
      return;
    }
    let body = fillPlaceholders(legacy.requestBody, bindings).text;

    // The minting substitution (see substitute.ts): the one place a recorded request is changed for it.
    const call = c.call;
    if (call !== undefined && passwordPosition(call) !== undefined) {
      const owner = plainPasswordOwner(call, usersOf(call.params[0]));
      if (owner !== undefined) {
        body = replaceParam(c.protocol, body, passwordPosition(call) as number, owner.key);
        outcome.mintingUser = owner.login;
        outcome.notes.push(`needs minting: ${owner.login}'s password replaced by ${owner.login}'s API key`);
      }
    }

    for (const ref of referencedIds(c, 'legacy')) {
      for (const id of ref.ids) await ensureRecord(db, ref.model, id, outcome.notes);
    }
    if (call?.object !== undefined && c.volatile.includes('legacy.request_body')) {
      const model = call.object.model;
      body = rewriteCallIds(c.protocol, body, call, (id) => ids.lookup(model, id));
    }

    for (const extra of c.extraExchanges) {
      await sendRequest(gatewayUrl, { method: extra.method, path: extra.path, headers: headersToSend(extra.requestHeaders), body: fillPlaceholders(extra.requestBody, bindings).text });
    }
    sim.clearLog();
    const answer = await sendRequest(gatewayUrl, { method: legacy.method, path: legacy.path, headers: headersToSend(legacy.requestHeaders), body });
    const upstream = [...sim.log];
    outcome.actual = { status: answer.status, contentType: answer.contentType, body: answer.body };

    learnCreatedIds(c, answer, outcome);
    outcome.idsAtCompare = new Map(ids.entries().flatMap((m) => { const run = ids.lookupAnyModel(m.recorded); return run === undefined ? [] : [[m.recorded, run] as [bigint, bigint]]; }));
    outcome.differences.push(...compareLegacyAnswer(c, answer, (recorded) => ids.lookupAnyModel(recorded)));
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
      return [{ path: 'upstream', message: `no upstream ${j.method} ${j.path}; the gateway sent ${JSON.stringify(upstream.map((r) => `${r.method} ${r.path}`))}` }];
    }
    const expectedDb = headerValue(j.requestHeaders, 'X-Odoo-Database');
    let best: Difference[] | undefined;
    for (const r of candidates) {
      const diffs: Difference[] = [];
      const dbHeader = r.headers['x-odoo-database'];
      if (expectedDb !== undefined && dbHeader !== expectedDb) diffs.push({ path: 'upstream.X-Odoo-Database', message: `expected ${expectedDb}, got ${String(dbHeader)}` });
      if (j.requestBody.kind === 'json') {
        const actual = parseJsonText(r.body);
        if (actual === undefined) diffs.push({ path: 'upstream.body', message: `not JSON: ${r.body.slice(0, 200)}` });
        else {
          diffs.push(
            ...compareJsonValues(j.requestBody.value, actual, {
              ignoreMemberOrder: true,
              volatilePaths: c.volatile.includes('json2.request_body.ids') ? ['ids'] : [],
              mapId: (recorded) => ids.lookupAnyModel(recorded),
            }, 'upstream.body'),
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
    const value = c.volatile.includes('json2.request_body.ids') ? rewriteJson2Ids(j.requestBody.value, (id) => ids.lookup(model, id)) : j.requestBody.value;
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
    const texts = [...j.requestHeaders.map(([, v]) => v), j.requestBody.kind === 'text' ? j.requestBody.text : j.requestBody.kind === 'json' ? pythonJsonDumps(j.requestBody.value) : ''];
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
      j.requestBody.kind === 'json' ? fillPlaceholders(pythonJsonDumps(value as Value), bindings).text : j.requestBody.kind === 'text' ? fillPlaceholders(j.requestBody.text, bindings).text : '';
    const headers = headersToSend(j.requestHeaders).map(([k, v]) => [k, fillPlaceholders(v, bindings).text] as [string, string]);
    const omitContentLength = body === '' && headerValue(j.requestHeaders, 'Content-Length') === undefined;
    const answer = await sendRequest(sim.url, { method: j.method, path: j.path, headers, body, omitContentLength });
    outcome.actual = { status: answer.status, contentType: answer.contentType, body: answer.body };
    outcome.differences.push(...compareHttp({ status: j.status, contentType: j.responseContentType }, answer));

    const actual = /json/.test(answer.contentType) ? parseJsonText(answer.body) : answer.body;
    if (actual === undefined) {
      outcome.differences.push({ path: 'body', message: `not JSON: ${answer.body.slice(0, 200)}` });
      return;
    }
    const volatilePaths = c.volatile.filter((v) => v.startsWith('json2.response_body')).map((v) => v.replace(/^json2\.response_body\.?/, ''));
    if (typeof j.responseBody === 'string' && typeof actual === 'string') {
      if (j.responseBody !== actual) outcome.differences.push({ path: 'body', message: `expected ${JSON.stringify(j.responseBody).slice(0, 300)}, got ${JSON.stringify(actual).slice(0, 300)}` });
    } else {
      outcome.differences.push(
        ...compareJsonValues(j.responseBody, actual, { volatilePaths, tailPaths: ['debug'], mapId: (r) => ids.lookupAnyModel(r) }),
      );
    }
    for (const name of learnPlaceholders(j.responseBody, actual, (n, v) => bindings.set(n, v))) outcome.notes.push(`learned <${name}> from the answer`);
    const m = /^\/json\/2\/([^/]+)\/(create|name_create|copy)$/.exec(j.path);
    if (m && j.status === 200 && answer.status === 200) {
      for (const [recorded, run] of pairCreatedIds(j.responseBody, actual) ?? []) {
        ids.learn(m[1] ?? '', recorded, run, c.id);
        outcome.notes.push(`id map: ${m[1]} ${recorded} → ${run}`);
      }
    }
  }
}
