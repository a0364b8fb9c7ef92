/**
 * Reads what a recorded legacy request asks for — service, method, params, and for `object` calls
 * the model, ORM method, positional args and kwargs — from its raw XML-RPC or JSON-RPC body, with
 * the runner's own reader. Unreadable bodies (the malformed-XML cases) give `undefined`.
 */
import { parseJson } from '../../src/json/index.ts';
import type { Value } from '../../src/value.ts';
import { parseTaggedCall, taggedToValue } from '../../src/cutover/compare/xmlrpc-tagged.ts';

/** A decoded legacy request. */
export interface LegacyCallInfo {
  service: string;
  method: string;
  params: Value[];
  /** For `object` execute/execute_kw with at least five params. */
  object?: { db: Value; uid: Value; password: Value; model: string; method: string; args: Value[]; kwargs: Value };
}

/** The service an XML-RPC path addresses: `/xmlrpc/2/object` → `object`. */
export function serviceFromPath(path: string): string | undefined {
  return /^\/xmlrpc\/(?:2\/)?([^/?]+)/.exec(path)?.[1];
}

function objectPart(service: string, method: string, params: Value[]): LegacyCallInfo['object'] {
  if (service !== 'object' || params.length < 5) return undefined;
  const [db, uid, password, model, ormMethod] = params;
  if (typeof model !== 'string' || typeof ormMethod !== 'string') return undefined;
  if (method === 'execute_kw') {
    const args = params[5];
    return {
      db: db ?? null,
      uid: uid ?? null,
      password: password ?? null,
      model,
      method: ormMethod,
      args: Array.isArray(args) ? args : [],
      kwargs: params[6] ?? null,
    };
  }
  if (method === 'execute') {
    return { db: db ?? null, uid: uid ?? null, password: password ?? null, model, method: ormMethod, args: params.slice(5), kwargs: null };
  }
  return undefined;
}

/** Decodes a recorded request; `undefined` when the body is not a readable call. */
export function decodeLegacyCall(protocol: string, path: string, body: string): LegacyCallInfo | undefined {
  if (protocol === 'xmlrpc1' || protocol === 'xmlrpc2') {
    const service = serviceFromPath(path);
    if (service === undefined) return undefined;
    try {
      const call = parseTaggedCall(body);
      const params = call.params.map((p) => taggedToValue(p.value));
      return { service, method: call.methodName, params, object: objectPart(service, call.methodName, params) };
    } catch {
      return undefined;
    }
  }
  if (protocol === 'jsonrpc') {
    try {
      const envelope = parseJson(body);
      const params = envelope instanceof Map ? envelope.get('params') : undefined;
      if (!(params instanceof Map)) return undefined;
      const service = params.get('service');
      const method = params.get('method');
      const args = params.get('args');
      if (typeof service !== 'string' || typeof method !== 'string' || !Array.isArray(args)) return undefined;
      return { service, method, params: args, object: objectPart(service, method, args) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}
