/**
 * Everything the runner changes in a recorded request before replaying it, in one place:
 * - placeholders (`<ADMIN_KEY>`, `<DEMO_KEY>`, keys learned or created during the run);
 * - record ids in the positions the corpus marks volatile (and `call_kw` ids), through the run's id table;
 * - `session_id` cookies, through the run's session table.
 * Passwords are never changed: every request carries the password it was recorded with.
 * Requests are edited in place (XML-RPC by source span, JSON-RPC re-serialised the way Python's
 * `json.dumps` wrote it), so every other byte stays as recorded.
 */
import { parseJson, stringifyJson } from '../../src/json/index.ts';
import type { Value } from '../../src/value.ts';
import type { LegacyCallInfo } from './legacy-call.ts';
import { parseTaggedCall, type Tagged } from '../../src/cutover/compare/xmlrpc-tagged.ts';

/** The placeholder pattern of the corpus: `<ADMIN_KEY>`, `<NEW_KEY_1>`, `<GENERATED_KEY>`. */
export const placeholderPattern = /<([A-Z][A-Z0-9_]*_KEY(?:_\d+)?)>/g;

/** Placeholder names appearing in a text. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(placeholderPattern)].map((m) => m[1] ?? ''))];
}

/** Replaces every bound placeholder; returns the new text and the names left unbound. */
export function fillPlaceholders(text: string, bindings: ReadonlyMap<string, string>): { text: string; unbound: string[] } {
  const unbound = new Set<string>();
  const out = text.replace(placeholderPattern, (whole, name: string) => {
    const value = bindings.get(name);
    if (value === undefined) {
      unbound.add(name);
      return whole;
    }
    return value;
  });
  return { text: out, unbound: [...unbound] };
}

/**
 * Binds placeholders a recorded JSON answer shows (`"default_key": "<NEW_KEY_1>"`) to the values at
 * the same place in the run's answer. Returns the names bound.
 */
export function learnPlaceholders(recorded: Value, actual: Value, bind: (name: string, value: string) => void): string[] {
  const learned: string[] = [];
  const walk = (r: Value, a: Value | undefined): void => {
    if (typeof r === 'string') {
      const m = /^<([A-Z][A-Z0-9_]*_KEY(?:_\d+)?)>$/.exec(r);
      if (m && typeof a === 'string') {
        bind(m[1] ?? '', a);
        learned.push(m[1] ?? '');
      }
    } else if (Array.isArray(r) && Array.isArray(a)) {
      r.forEach((item, i) => walk(item, a[i]));
    } else if (r instanceof Map && a instanceof Map) {
      for (const [k, v] of r) walk(v, a.get(k));
    }
  };
  walk(recorded, actual);
  return learned;
}

/** Python's `json.dumps` (default separators, `ensure_ascii=True`): how the recorded JSON-RPC clients wrote. */
export function pythonJsonDumps(value: Value): string {
  return stringifyJson(value, { python: true, ensureAscii: true });
}

function intScalars(t: Tagged): Tagged[] {
  if (t.kind === 'scalar') return ['int', 'i4', 'i8', 'i1', 'i2', 'biginteger'].includes(t.tag) ? [t] : [];
  if (t.kind === 'array') return t.items.flatMap(intScalars);
  return [];
}

/**
 * Rewrites the record ids of an object call's first positional argument (an int or a list of ints)
 * through `map`; ids `map` does not know stay. XML-RPC is edited by span, JSON-RPC re-serialised.
 */
export function rewriteCallIds(protocol: string, body: string, call: LegacyCallInfo, map: (id: bigint) => bigint | undefined): string {
  if (call.object === undefined) return body;
  if (protocol === 'jsonrpc') {
    const envelope = parseJson(body);
    const args = envelope instanceof Map ? (envelope.get('params') as Map<string, Value> | undefined)?.get('args') : undefined;
    if (!Array.isArray(args)) return body;
    const swap = (v: Value): Value => {
      if (typeof v === 'number' || typeof v === 'bigint') {
        const m = map(BigInt(v));
        return m === undefined ? v : Number(m);
      }
      return Array.isArray(v) ? v.map(swap) : v;
    };
    if (call.method === 'execute_kw' && Array.isArray(args[5]) && args[5].length > 0) args[5][0] = swap(args[5][0] as Value);
    else if (call.method === 'execute' && args.length > 5) args[5] = swap(args[5] as Value);
    return pythonJsonDumps(envelope);
  }
  const params = parseTaggedCall(body).params;
  const holder = call.method === 'execute_kw' ? params[5]?.value : undefined;
  const target = call.method === 'execute_kw' ? (holder?.kind === 'array' ? holder.items[0] : undefined) : params[5]?.value;
  if (target === undefined) return body;
  const edits = intScalars(target)
    .map((s) => ({ span: s.span, to: map(BigInt((s as { text: string }).text.trim())) }))
    .filter((e) => e.to !== undefined)
    .sort((a, b) => b.span[0] - a.span[0]);
  let out = body;
  for (const { span, to } of edits) out = `${out.slice(0, span[0])}${String(to)}${out.slice(span[1])}`;
  return out;
}

/** Rewrites `ids` of a JSON-2 body (an int or a list) through `map`. */
export function rewriteJson2Ids(body: Value, map: (id: bigint) => bigint | undefined): Value {
  if (!(body instanceof Map) || !body.has('ids')) return body;
  const swap = (v: Value): Value => {
    if (typeof v === 'number' || typeof v === 'bigint') {
      const m = map(BigInt(v));
      return m === undefined ? v : Number(m);
    }
    return Array.isArray(v) ? v.map(swap) : v;
  };
  const copy = new Map(body);
  copy.set('ids', swap(body.get('ids') as Value));
  return copy;
}

/** The `session_id` of a Cookie or Set-Cookie header value. */
export function sessionIdOf(header: string): string | undefined {
  return /(?:^|[;,]\s*)session_id=([^;,\s]+)/.exec(header)?.[1];
}

/** A Cookie header value with its `session_id` replaced. */
export function withSessionId(cookie: string, sessionId: string): string {
  return cookie.replace(/(^|;\s*)session_id=[^;\s]+/, `$1session_id=${sessionId}`);
}

/**
 * Rewrites the ids of a `/web/dataset/call_kw` request (`params.args[0]`, an id or a list of ids)
 * through `map`, re-serialised as Python wrote it; other bodies are returned unchanged.
 */
export function rewriteCallKwIds(body: string, map: (id: bigint) => bigint | undefined): string {
  const envelope = parseJson(body);
  const params = envelope instanceof Map ? envelope.get('params') : undefined;
  const args = params instanceof Map ? params.get('args') : undefined;
  if (!Array.isArray(args) || args.length === 0) return body;
  const swap = (v: Value): Value => {
    if (typeof v === 'number' || typeof v === 'bigint') {
      const m = map(BigInt(v));
      return m === undefined ? v : Number(m);
    }
    return Array.isArray(v) ? v.map(swap) : v;
  };
  const first = args[0] as Value;
  if (!(typeof first === 'number' || Array.isArray(first))) return body;
  args[0] = swap(first);
  return pythonJsonDumps(envelope);
}

/** A recorded value with every `"<NAME_KEY>"` string the run has bound replaced by its value. */
export function fillValuePlaceholders(value: Value, bindings: ReadonlyMap<string, string>): Value {
  if (typeof value === 'string') {
    const m = /^<([A-Z][A-Z0-9_]*_KEY(?:_\d+)?)>$/.exec(value);
    return m !== null && bindings.has(m[1] ?? '') ? (bindings.get(m[1] ?? '') as string) : value;
  }
  if (Array.isArray(value)) return value.map((v) => fillValuePlaceholders(v, bindings));
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, fillValuePlaceholders(v, bindings)]));
  return value;
}
