/**
 * Helpers for the simulator's own tests: raw JSON-2 calls over HTTP and a comparison of decoded
 * values that keeps Python's int/float distinction (dict member order is checked separately).
 */
import { parseJson, stringifyJson } from '../src/json/index.ts';
import { PyFloat, type Value } from '../src/value.ts';
import type { Simulator } from './index.ts';

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body decoded losslessly, when it is JSON. */
  value: Value | undefined;
}

export interface Json2CallOptions {
  key?: string | null;
  db?: string | null;
  method?: string;
  contentType?: string | null;
  body?: string;
  headers?: Record<string, string>;
}

/** POSTs (by default) a body to a simulator path and decodes the answer. */
export async function rawCall(sim: Simulator, path: string, opts: Json2CallOptions = {}): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== null && opts.key !== undefined) headers.authorization = `bearer ${opts.key}`;
  if (opts.db !== null && opts.db !== undefined) headers['x-odoo-database'] = opts.db;
  if (opts.contentType !== null) headers['content-type'] = opts.contentType ?? 'application/json';
  const method = opts.method ?? 'POST';
  const res = await fetch(sim.url + path, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : (opts.body ?? ''),
  });
  const text = await res.text();
  let value: Value | undefined;
  try {
    value = parseJson(text);
  } catch {
    value = undefined;
  }
  return { status: res.status, headers: res.headers, text, value };
}

/** A JSON-2 call with a JSON body. */
export function json2(sim: Simulator, model: string, method: string, body: Value, opts: Json2CallOptions = {}): Promise<RawAnswer> {
  return rawCall(sim, `/json/2/${model}/${method}`, { ...opts, body: stringifyJson(body) });
}

/** Deep equality of decoded values: ints ≠ floats, arrays ordered, dict member order ignored. */
export function sameValue(a: Value | undefined, b: Value | undefined): boolean {
  if (a instanceof PyFloat || b instanceof PyFloat) {
    return a instanceof PyFloat && b instanceof PyFloat && a.value === b.value;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map) || !(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !sameValue(v, b.get(k))) return false;
    return true;
  }
  return a === b;
}

/** A Map as a plain object, for readable assertion diffs. */
export function plain(v: Value | undefined): unknown {
  if (v instanceof PyFloat) return { float: v.value };
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, plain(x)]));
  return v;
}
