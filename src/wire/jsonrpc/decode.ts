/**
 * `/jsonrpc` request → LegacyCall, as Odoo's JsonRPCDispatcher and `JSONRPC.jsonrpc(service,
 * method, args)` read it (Odoo: `odoo/http.py` `JsonRPCDispatcher`, fixtures/conformance/INDEX.md findings §5). Never throws.
 */
import type { LegacyCall } from '../../call.ts';
import { LegacyError, pythonError } from '../../errors.ts';
import { JsonSyntaxError, parseJson } from '../../json/index.ts';
import { dictFrom } from '../../python/dict-from.ts';
import { arityError } from '../../python/call-arity.ts';
import { reprValue, strValue, typeNameOf } from '../../python/py-repr.ts';
import { isStruct, pyTypeName, type Value } from '../../value.ts';

/** A body Odoo refuses before any envelope exists: answered with HTTP 400 and an HTML page. */
export class BadJsonRpcBody {
  constructor(readonly description: 'Invalid JSON data' | 'Invalid JSON-RPC data') {}
}

export interface DecodedJsonRpc {
  /** The request `id`, echoed verbatim (absent → null). */
  id: Value;
  call: LegacyCall | LegacyError;
}

const jsonrpcSignature = { name: 'JSONRPC.jsonrpc', params: ['service', 'method', 'args'] };

/** Decodes a request body; `maxDepth` bounds nesting. */
export function decodeRequest(text: string, maxDepth: number): DecodedJsonRpc | BadJsonRpcBody {
  let body: Value;
  try {
    body = parseJson(text, { maxDepth });
  } catch (err) {
    if (err instanceof JsonSyntaxError) return new BadJsonRpcBody('Invalid JSON data');
    throw err;
  }
  if (!isStruct(body)) return new BadJsonRpcBody('Invalid JSON-RPC data');
  const id = body.has('id') ? (body.get('id') as Value) : null;
  // request.params = dict(jsonrequest.get('params', {}), **args); extra keys are dropped.
  const params = dictFrom(body.has('params') ? (body.get('params') as Value) : new Map());
  if (params instanceof LegacyError) return { id, call: params };
  // Called by keyword: Python lists the missing parameters by name.
  const missing = jsonrpcSignature.params.filter((p) => !params.has(p));
  if (missing.length > 0) {
    const message = arityError({ name: jsonrpcSignature.name, params: missing, required: missing.length }, 0) as string;
    return { id, call: pythonError('TypeError', message) };
  }
  const args = params.get('args') as Value;
  const service = params.get('service') as Value;
  if (typeof service !== 'string') return { id, call: serviceLookupError(service) };
  const method = params.get('method') as Value;
  // common's and db's dispatch start with `'exp_' + method`; object's compares it, then names it in its NameError
  if (typeof method !== 'string' && (service === 'common' || service === 'db'))
    return { id, call: pythonError('TypeError', `can only concatenate str (not "${pyTypeName(method)}") to str`) };
  const call: LegacyCall = { dialect: 'jsonrpc', service, method: typeof method === 'string' ? method : strValue(method), params: [] };
  const iterable = Array.isArray(args) ? args : iterableArgs(args);
  if (iterable === undefined) call.argsNotIterable = args;
  else call.params = iterable;
  return { id, call };
}

/**
 * `rpc_dispatchers[service]` (odoo/http.py dispatch_rpc) for a service that is not a str: a list or
 * dict cannot be a key (TypeError), anything else is an unknown one (KeyError with its repr).
 */
function serviceLookupError(service: Value): LegacyError {
  if (Array.isArray(service) || isStruct(service)) return pythonError('TypeError', `unhashable type: '${typeNameOf(service)}'`);
  const repr = reprValue(service);
  // KeyError's argument is the key itself: an int stays an int in the error's `arguments`
  const err = pythonError('KeyError', repr, repr);
  return new LegacyError(err.kind, { name: err.name, message: repr, str: repr, arguments: [service] });
}

/**
 * `dispatch(method, params)` unpacks params; a dict gives its keys, a str its characters. Anything
 * else (null, a number, a bool) is not iterable: `undefined`, and the service raises.
 */
function iterableArgs(args: Value): Value[] | undefined {
  if (isStruct(args)) return [...args.keys()];
  if (typeof args === 'string') return [...args];
  return undefined;
}
