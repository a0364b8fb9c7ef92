/**
 * Reads the `methods` of a `GET /doc-bearer/<model>.json` answer (Odoo: `addons/api_doc`) into
 * signatures: `parameters` in declaration order with `kind` (absent = POSITIONAL_OR_KEYWORD) and
 * `default` (absent = required), `api` containing `"model"` for `@api.model` methods.
 */
import { isStruct, type Value } from '../value.ts';
import { defaultTextFromValue } from './default-text.ts';
import { qualnameFromModel } from './qualname.ts';
import { paramKinds, type MethodSignature, type Param, type ParamKind } from './signature.ts';

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

function paramFromDoc(name: string, doc: Value): Param | undefined {
  if (!identifier.test(name) || !isStruct(doc)) return undefined;
  const kind = doc.get('kind') ?? 'POSITIONAL_OR_KEYWORD';
  if (typeof kind !== 'string' || !(paramKinds as readonly string[]).includes(kind)) return undefined;
  const param: Param = { name, kind: kind as ParamKind };
  return doc.has('default') ? { ...param, default: defaultTextFromValue(doc.get('default')) } : param;
}

/**
 * One method's signature from its `/doc-bearer` entry, source `discovered`. The qualname is derived
 * from the introducing model the entry names (`model`, `core` for BaseModel); the resolver replaces
 * it with the table's where the table knows the method. `undefined` when the entry is malformed.
 */
export function signatureFromDoc(method: string, doc: Value, fallbackModel: string): MethodSignature | undefined {
  if (!identifier.test(method) || !isStruct(doc)) return undefined;
  const parameters = doc.get('parameters') ?? new Map<string, Value>();
  if (!isStruct(parameters)) return undefined;
  const params: Param[] = [];
  for (const [name, paramDoc] of parameters) {
    const param = paramFromDoc(name, paramDoc);
    if (param === undefined) return undefined;
    params.push(param);
  }
  const api = doc.get('api');
  const introducedBy = doc.get('model');
  return {
    params,
    apiModel: Array.isArray(api) && api.includes('model'),
    qualname: qualnameFromModel(typeof introducedBy === 'string' && introducedBy !== '' ? introducedBy : fallbackModel, method),
    source: 'discovered',
  };
}

/**
 * Every well-formed method of a `/doc-bearer/<model>.json` body, by name. `undefined` when the body
 * is not a model document (no `methods` object); malformed entries are left out, so the built-in
 * table or the fallback serves them.
 */
export function parseDocMethods(body: Value, model: string): Map<string, MethodSignature> | undefined {
  if (!isStruct(body)) return undefined;
  const methods = body.get('methods') ?? null;
  if (!isStruct(methods)) return undefined;
  const out = new Map<string, MethodSignature>();
  for (const [method, doc] of methods) {
    const sig = signatureFromDoc(method, doc, model);
    if (sig !== undefined) out.set(method, sig);
  }
  return out;
}
