/**
 * Reads the conformance corpus (`fixtures/conformance/cases/*.json`, parsed losslessly), puts the
 * cases back in the order they were recorded, and says which ones this runner replays.
 *
 * Order: the response `Date` header (second resolution) first. `INDEX.md`'s table is sorted by case
 * id, not by recording time, so ties inside one second are broken from the data itself: JSON-RPC
 * request ids (one counter per recording section), database id sequences (a case that created id n
 * ran after the cases that created smaller ids, and a case that used id n ran after them too), and
 * {@link orderHints} read off the answers; remaining ties keep file order. `extra_exchanges` are
 * replayed before their case.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseJson } from '../../src/json/index.ts';
import { PyFloat, type Value } from '../../src/value.ts';
import { databaseOrderHints } from './db-scenario.ts';
import { decodeLegacyCall, type LegacyCallInfo } from './legacy-call.ts';

/** The corpus folder. */
export const casesUrl = new URL('../../fixtures/conformance/cases/', import.meta.url);

/** One recorded HTTP exchange. */
export interface RecordedExchange {
  method: string;
  path: string;
  /** Request headers in recorded order (placeholders such as `<ADMIN_KEY>` still in place). */
  requestHeaders: [string, string][];
  requestBody: string;
  status: number;
  responseContentType: string;
  responseHeaders: [string, string][];
  responseBody: string;
  /** True when the corpus kept only the start of a big body. */
  truncated: boolean;
}

/** The recorded JSON-2 request body: JSON, raw text (kept as sent), or none. */
export type Json2Body = { kind: 'json'; value: Value } | { kind: 'text'; text: string } | { kind: 'none' };

/** The upstream (JSON-2) side of a case. */
export interface RecordedJson2 {
  method: string;
  path: string;
  requestHeaders: [string, string][];
  requestBody: Json2Body;
  status: number;
  responseContentType: string;
  /** The response body, parsed losslessly (a string when Odoo answered HTML). */
  responseBody: Value;
}

/** One case of the corpus. */
export interface ConformanceCase {
  id: string;
  file: string;
  category: string;
  protocol: string;
  client: string;
  description: string;
  notes: string;
  legacy?: RecordedExchange;
  json2?: RecordedJson2;
  equivalent: boolean | null;
  volatile: string[];
  legacyDecoded?: { kind: 'ok' | 'fault' | 'error' | 'http'; value: Value };
  extraExchanges: RecordedExchange[];
  /** Epoch milliseconds of the recorded response's `Date` header. */
  recordedAt?: number;
  /** `duration_ms` (db cases): the server time of the call, so its request started that much before `recordedAt`. */
  durationMs?: number;
  /** The decoded legacy request, when it is a readable call. */
  call?: LegacyCallInfo;
}

type Obj = Map<string, Value>;
const isObj = (v: Value | undefined): v is Obj => v instanceof Map;
const str = (o: Obj, k: string): string => {
  const v = o.get(k);
  return typeof v === 'string' ? v : '';
};
const headerPairs = (v: Value | undefined): [string, string][] =>
  Array.isArray(v) ? v.filter(Array.isArray).map((p) => [String(p[0]), String(p[1])] as [string, string]) : [];

/** A header's value from recorded pairs (case-insensitive name), or undefined. */
export function headerValue(headers: readonly [string, string][], name: string): string | undefined {
  return headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
}

function readExchange(o: Obj): RecordedExchange {
  const meta = o.get('response_body_meta');
  const responseHeaders = headerPairs(o.get('response_headers'));
  return {
    method: str(o, 'method') || 'POST',
    path: str(o, 'path'),
    requestHeaders: headerPairs(o.get('request_headers')),
    requestBody: str(o, 'request_body'),
    status: Number(o.get('status') ?? 0),
    // the web-session cases name it only in their headers
    responseContentType: str(o, 'response_content_type') || (headerValue(responseHeaders, 'Content-Type') ?? ''),
    responseHeaders,
    responseBody: str(o, 'response_body'),
    truncated: isObj(meta) && meta.get('truncated') === true,
  };
}

function readJson2(o: Obj): RecordedJson2 {
  const body = o.get('request_body');
  const contentType = str(o, 'response_content_type') || (headerValue(headerPairs(o.get('response_headers')), 'Content-Type') ?? '');
  let responseBody = o.get('response_body') ?? null;
  // The later-build cases keep their answer as raw text (no response_content_type): read JSON as a value.
  if (typeof responseBody === 'string' && !o.has('response_content_type') && contentType.startsWith('application/json'))
    responseBody = parseJson(responseBody);
  return {
    method: str(o, 'method') || 'POST',
    path: str(o, 'path'),
    requestHeaders: headerPairs(o.get('request_headers')),
    requestBody:
      body === null || body === undefined
        ? { kind: 'none' }
        : typeof body === 'string'
          ? { kind: 'text', text: body }
          : { kind: 'json', value: body },
    status: Number(o.get('status') ?? 0),
    responseContentType: contentType,
    responseBody,
  };
}

/** Parses one case file's text. */
export function parseCase(file: string, text: string): ConformanceCase {
  const o = parseJson(text);
  if (!isObj(o)) throw new Error(`${file}: not a JSON object`);
  const legacy = isObj(o.get('legacy')) ? readExchange(o.get('legacy') as Obj) : undefined;
  const json2 = isObj(o.get('json2')) ? readJson2(o.get('json2') as Obj) : undefined;
  const decoded = o.get('legacy_decoded');
  const extras = o.get('extra_exchanges');
  const json2Headers = isObj(o.get('json2')) ? headerPairs((o.get('json2') as Obj).get('response_headers')) : [];
  const date = headerValue(legacy?.responseHeaders ?? [], 'Date') ?? headerValue(json2Headers, 'Date');
  const protocol = str(o, 'protocol');
  const c: ConformanceCase = {
    id: str(o, 'id'),
    file,
    category: str(o, 'category'),
    protocol,
    client: str(o, 'client'),
    description: str(o, 'description'),
    notes: str(o, 'notes'),
    equivalent: typeof o.get('equivalent') === 'boolean' ? (o.get('equivalent') as boolean) : null,
    volatile: Array.isArray(o.get('volatile')) ? (o.get('volatile') as Value[]).map(String) : [],
    extraExchanges: Array.isArray(extras) ? extras.filter(isObj).map(readExchange) : [],
  };
  if (legacy !== undefined) c.legacy = legacy;
  if (json2 !== undefined) c.json2 = json2;
  if (isObj(decoded)) c.legacyDecoded = { kind: str(decoded, 'kind') as 'ok', value: decoded.get('value') ?? null };
  if (date !== undefined) c.recordedAt = Date.parse(date);
  const duration = o.get('duration_ms');
  if (duration instanceof PyFloat || typeof duration === 'number') c.durationMs = duration instanceof PyFloat ? duration.value : duration;
  if (legacy !== undefined) {
    const call = decodeLegacyCall(protocol, legacy.path, legacy.requestBody);
    if (call !== undefined) c.call = call;
  }
  return c;
}

/** Reads every case file of the corpus, in file order. */
export function loadCases(dir: URL = casesUrl): ConformanceCase[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => parseCase(f, readFileSync(new URL(f, dir), 'utf8')));
}

// ---------------------------------------------------------------------------------------------
// Scope

/**
 * What the runner does with a case: `legacy` goes through the gateway; `json2` is an upstream
 * exchange (JSON-2, the web session routes the gateway mints keys over, or the `/web/database/*`
 * controllers its db service runs on) checked against the simulator alone.
 */
export type Scope = { kind: 'legacy' } | { kind: 'json2' } | { kind: 'out-of-scope'; issue: string; reason: string };

const inScopeCategories = new Set(['common', 'object', 'types', 'errors', 'multidb', 'auth', 'db']);

/**
 * Legacy cases of the common/object/types/errors/multidb/auth categories are replayed through the
 * gateway, passwords as recorded; `json2` cases (the `later-*` ones on a later-build simulator) and
 * the `web-session` cases (`sess-*`, the routes minting uses) and the `web-database` cases
 * (`webdb-*`, the routes the db service uses) are checked against the simulator.
 */
export function scopeOf(c: ConformanceCase): Scope {
  if (c.protocol === 'web-session' || c.protocol === 'json2' || c.protocol === 'web-database') return { kind: 'json2' };
  if (c.legacy === undefined) {
    return { kind: 'out-of-scope', issue: 'nothing to replay', reason: 'no request reached the server (the client refused to send it)' };
  }
  if (inScopeCategories.has(c.category)) return { kind: 'legacy' };
  return { kind: 'out-of-scope', issue: 'unknown category', reason: `category ${c.category}` };
}

// ---------------------------------------------------------------------------------------------
// Recorded order

/**
 * Ordering facts read off the answers where ids and timestamps cannot tell: `first` ran before
 * `then`, because `then`'s recorded answer shows what `first` did.
 */
export const orderHints: readonly { first: string; then: string; why: string }[] = [
  {
    first: 'obj-write-xmlrpc2',
    then: 'obj-read-html-xmlrpc2',
    why: 'the read returns the (sanitised) comment that write stored on the same record',
  },
  {
    first: 'types-read-empty-fields',
    then: 'types-nested-structs',
    why: 'tag 1 is read with no partners, before nested-structs creates a child tagged 1 and 2',
  },
  ...[
    'auth-json2-session-cookie-and-db-header',
    'auth-json2-session-cookie-own-key',
    'auth-json2-session-cookie-sec-fetch',
    'auth-json2-session-make_key',
  ].map((then) => ({
    first: 'auth-web-session-authenticate',
    then,
    why: 'the JSON-2 request carries the session cookie that login set',
  })),
  {
    first: 'later-apikeys-revoke-ok',
    then: 'later-apikeys-revoke-invalid',
    why: 'revoke-invalid revokes the key revoke-ok revoked ("no longer valid")',
  },
  ...databaseOrderHints,
];

const recordMethodsCreating = new Set(['create', 'name_create', 'copy']);

function asBig(v: Value | undefined): bigint | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : typeof v === 'bigint' ? v : undefined;
}

/** Ids a case's recorded answers show as created, per model (legacy answer and JSON-2 answer). */
export function createdIds(c: ConformanceCase): { model: string; ids: bigint[] }[] {
  const out: { model: string; ids: bigint[] }[] = [];
  const collect = (model: string, method: string, value: Value | undefined) => {
    if (!recordMethodsCreating.has(method) || value === undefined) return;
    const ids: bigint[] = [];
    if (method === 'name_create' && Array.isArray(value)) {
      const id = asBig(value[0]);
      if (id !== undefined) ids.push(id);
    } else if (Array.isArray(value)) {
      for (const v of value) {
        const id = asBig(v);
        if (id !== undefined) ids.push(id);
      }
    } else {
      const id = asBig(value);
      if (id !== undefined) ids.push(id);
    }
    if (ids.length > 0) out.push({ model, ids });
  };
  const obj = c.call?.object;
  if (obj !== undefined && c.legacyDecoded?.kind === 'ok') collect(obj.model, obj.method, c.legacyDecoded.value);
  const m = c.json2 ? /^\/json\/2\/([^/]+)\/([^/?]+)/.exec(c.json2.path) : null;
  if (m && c.json2 && c.json2.status === 200) collect(m[1] ?? '', m[2] ?? '', c.json2.responseBody);
  return out;
}

/**
 * Ids of records a case's requests work on where the corpus marks them volatile (record-level
 * `ids`): the legacy request's, the JSON-2 request's, or both (default).
 */
export function referencedIds(c: ConformanceCase, side: 'legacy' | 'json2' | 'both' = 'both'): { model: string; ids: bigint[] }[] {
  const out: { model: string; ids: bigint[] }[] = [];
  const obj = side === 'json2' ? undefined : c.call?.object;
  if (obj !== undefined && c.volatile.includes('legacy.request_body')) {
    const first = obj.args[0];
    const ids = (Array.isArray(first) ? first : [first]).map(asBig).filter((x) => x !== undefined);
    if (ids.length > 0) out.push({ model: obj.model, ids });
  }
  const m = c.json2 && side !== 'legacy' ? /^\/json\/2\/([^/]+)\//.exec(c.json2.path) : null;
  if (m && c.json2?.requestBody.kind === 'json' && c.volatile.includes('json2.request_body.ids')) {
    const body = c.json2.requestBody.value;
    const raw = body instanceof Map ? body.get('ids') : undefined;
    const ids = (Array.isArray(raw) ? raw : [raw]).map(asBig).filter((x) => x !== undefined);
    if (ids.length > 0) out.push({ model: m[1] ?? '', ids });
  }
  return out;
}

function jsonrpcRequestId(c: ConformanceCase): bigint | undefined {
  if (c.protocol !== 'jsonrpc' || c.legacy === undefined) return undefined;
  try {
    const env = parseJson(c.legacy.requestBody);
    return env instanceof Map ? asBig(env.get('id')) : undefined;
  } catch {
    return undefined;
  }
}

/** Seconds between two cases beyond which a new recording section starts (see {@link sectionsOf}). */
export const sectionGapMs = 15_000;

/**
 * Puts the cases in recorded order: by `Date` second, and inside one second by the constraints
 * described at the top of this module; a case without any timestamp keeps the place of its file
 * neighbour.
 */
export function orderCases(cases: readonly ConformanceCase[]): ConformanceCase[] {
  let last = 0;
  const stamped = cases.map((c) => {
    last = c.recordedAt ?? last;
    return { c, at: c.recordedAt ?? last };
  });
  const bySecond = new Map<number, ConformanceCase[]>();
  for (const { c, at } of stamped) {
    const list = bySecond.get(at) ?? [];
    list.push(c);
    bySecond.set(at, list);
  }
  const seconds = [...bySecond.keys()].sort((a, b) => a - b);
  return seconds.flatMap((s) => orderWithinSecond(bySecond.get(s) ?? []));
}

function orderWithinSecond(group: ConformanceCase[]): ConformanceCase[] {
  if (group.length < 2) return group;
  const n = group.length;
  const after = group.map(() => new Set<number>()); // after[j] holds i: i must come before j
  const index = new Map(group.map((c, i) => [c.id, i]));
  const rpcIds = group.map(jsonrpcRequestId);
  const created = group.map(createdIds);
  const referenced = group.map((c) => referencedIds(c));
  const minCreated = (i: number, model: string): bigint | undefined => {
    const ids = (created[i] ?? []).filter((x) => x.model === model).flatMap((x) => x.ids);
    return ids.length === 0 ? undefined : ids.reduce((a, b) => (a < b ? a : b));
  };
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const ri = rpcIds[i];
      const rj = rpcIds[j];
      if (ri !== undefined && rj !== undefined && ri < rj) after[j]?.add(i);
      // Id sequences only grow: whoever created a smaller id ran first; whoever used an id ran after
      // it was created.
      for (const { model, ids } of created[j] ?? []) {
        const mi = minCreated(i, model);
        if (mi !== undefined && mi < ids.reduce((a, b) => (a < b ? a : b))) after[j]?.add(i);
      }
      for (const { model, ids } of referenced[j] ?? []) {
        const mi = minCreated(i, model);
        if (mi !== undefined && mi <= ids.reduce((a, b) => (a > b ? a : b))) after[j]?.add(i);
      }
    }
  }
  for (const hint of orderHints) {
    const i = index.get(hint.first);
    const j = index.get(hint.then);
    if (i !== undefined && j !== undefined) after[j]?.add(i);
  }
  // Kahn's algorithm, always taking the earliest file among the ready cases.
  const done = new Set<number>();
  const out: ConformanceCase[] = [];
  while (out.length < n) {
    let next = -1;
    for (let k = 0; k < n; k++) {
      if (done.has(k)) continue;
      if ([...(after[k] ?? [])].every((d) => done.has(d))) {
        next = k;
        break;
      }
    }
    if (next === -1) next = [...Array(n).keys()].find((k) => !done.has(k)) ?? 0; // a cycle: fall back to file order
    done.add(next);
    out.push(group[next] as ConformanceCase);
  }
  return out;
}

/**
 * Splits ordered cases into recording sections: a gap of {@link sectionGapMs} or more between an
 * answer and the next request (its answer's time minus its `durationMs`: creating a database takes
 * ~20 s and is no pause). The recorder cleaned up between sections (for instance
 * `auth-legacy-execute-with-apikey` counts 39 partners again after the object and types sections
 * created some, and `types-nil-kwarg-limit` lists 7 tags after `obj-name_create-jsonrpc` made an
 * eighth), so the runner resets the simulator at each boundary. Returns the section number per case.
 */
export function sectionsOf(ordered: readonly ConformanceCase[]): number[] {
  let section = 0;
  let previous: number | undefined;
  return ordered.map((c) => {
    if (c.recordedAt !== undefined) {
      if (previous !== undefined && c.recordedAt - (c.durationMs ?? 0) - previous >= sectionGapMs) section++;
      previous = c.recordedAt;
    }
    return section;
  });
}
