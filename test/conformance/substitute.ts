/**
 * Everything the runner changes in a recorded request before replaying it, in one place:
 * - placeholders (`<ADMIN_KEY>`, `<DEMO_KEY>`, keys learned or created during the run);
 * - the **minting substitution**: until password→key minting lands (#4), a user's real plain password
 *   in the password position (`params[2]` of object execute/execute_kw and of common
 *   login/authenticate) is replaced by that user's API key, and the case is reported as "needs
 *   minting". Only that position changes (the login `admin` stays); wrong passwords stay;
 * - record ids in the positions the corpus marks volatile, through the run's id table.
 * Requests are edited in place (XML-RPC by source span, JSON-RPC re-serialised the way Python's
 * `json.dumps` wrote it), so every other byte stays as recorded.
 */
import { parseJson, stringifyJson } from '../../src/json/index.ts';
import type { Value } from '../../src/value.ts';
import type { LegacyCallInfo } from './legacy-call.ts';
import { parseTaggedCall, type Tagged } from './xmlrpc-tagged.ts';

/** A simulator user, as `sim.users(db)` lists them. */
export interface SimUser {
  uid: number;
  login: string;
  password: string;
  key: string;
  name: string;
}

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

/** Where a legacy call carries a password, or undefined. */
export function passwordPosition(call: LegacyCallInfo): number | undefined {
  if (call.service === 'object' && (call.method === 'execute' || call.method === 'execute_kw') && call.params.length >= 3) return 2;
  if (call.service === 'common' && (call.method === 'login' || call.method === 'authenticate') && call.params.length >= 3) return 2;
  return undefined;
}

/**
 * The user whose real plain password the call sends in the password position (never an API key,
 * never a wrong password), or undefined.
 */
export function plainPasswordOwner(call: LegacyCallInfo, users: readonly SimUser[]): SimUser | undefined {
  const at = passwordPosition(call);
  if (at === undefined) return undefined;
  const password = call.params[at];
  if (typeof password !== 'string' || password === '') return undefined;
  return users.find((u) => u.password === password);
}

/** Replaces `params[index]` of an XML-RPC `methodCall` with a `<string>`, leaving every other byte. */
export function replaceXmlrpcParam(body: string, index: number, text: string): string {
  const param = parseTaggedCall(body).params[index];
  if (param === undefined) throw new Error(`no params[${index}] in the request`);
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `${body.slice(0, param.span[0])}<value><string>${escaped}</string></value>${body.slice(param.span[1])}`;
}

/** Replaces `params.args[index]` of a JSON-RPC request, re-serialised as Python wrote it. */
export function replaceJsonrpcArg(body: string, index: number, value: Value): string {
  const envelope = parseJson(body);
  const args = envelope instanceof Map ? (envelope.get('params') as Map<string, Value> | undefined)?.get('args') : undefined;
  if (!Array.isArray(args) || index >= args.length) throw new Error(`no params.args[${index}] in the request`);
  args[index] = value;
  return pythonJsonDumps(envelope);
}

/** Replaces the call's `params[index]` with a string, for either dialect. */
export function replaceParam(protocol: string, body: string, index: number, text: string): string {
  return protocol === 'jsonrpc' ? replaceJsonrpcArg(body, index, text) : replaceXmlrpcParam(body, index, text);
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
