/**
 * The legacy `object` service (`odoo/service/model.py` dispatch → execute_cr → call_kw, 19.0):
 * `execute` / `execute_kw`, with Odoo's checks in Odoo's order, positional → named binding, and
 * one JSON-2 call per legacy call.
 */
import type { CallOrigin, LegacyCall } from '../call.ts';
import type { Credentials } from '../credentials/index.ts';
import { accessDenied, accessError, LegacyError, pythonError, userError } from '../errors.ts';
import { dictFrom } from '../python/dict-from.ts';
import { intValueErrorMessage, parsePythonInt } from '../python/int-text.ts';
import { unpackError } from '../python/unpack-errors.ts';
import { bindArguments, isPrivateMethod, type MethodSignature, type SignatureResolver } from '../signatures/index.ts';
import type { Upstream } from '../upstream/index.ts';
import { isInt, isStruct, isTruthy, PyDecimal, PyFloat, pyTypeName, type JsonText, type Struct, type Value } from '../value.ts';
import { checkedDatabase } from './common.ts';

export interface ObjectDeps {
  upstream: Upstream;
  credentials: Credentials;
  signatures: SignatureResolver;
  /**
   * Hears the JSON-2 request a call binds to, just before it is sent (the migration report shows
   * its shape as the call's JSON-2 equivalent). Holds argument values: it must never log them.
   */
  onJson2?: (origin: CallOrigin, request: { model: string; method: string; body: Struct }) => void;
}

/** What one model call resolved to, before it is sent. */
interface Target {
  db: string;
  model: string;
  method: string;
  /** `args` as the client sent it: normally a list, but Python unpacks any iterable. */
  args: Value;
  kwargs: Struct;
}

/** Creates the `object` dispatcher. Rejects with LegacyError exactly where Odoo raises. */
export function createObjectService(deps: ObjectDeps) {
  const { credentials } = deps;

  return async function dispatchObject(call: LegacyCall, origin: CallOrigin): Promise<Value | JsonText> {
    // db, uid, passwd, model, method_, *args = params
    if (call.argsNotIterable !== undefined) throw pythonError('TypeError', unpackError(call.argsNotIterable));
    const p = call.params;
    if (p.length < 5) throw pythonError('ValueError', `not enough values to unpack (expected at least 5, got ${p.length})`);
    const [dbValue, uidValue, passwd, model, method] = p as [Value, Value, Value, Value, Value];
    const uid = pythonInt(uidValue);
    if (!isTruthy(passwd)) throw accessDenied();
    const db = checkedDatabase(dbValue);
    // Registry(db) opens before the method is looked at: an unknown database wins over local errors.
    const raiseAfterDbCheck = async (err: LegacyError): Promise<never> => {
      await credentials.probeDatabase(db, origin);
      throw err;
    };
    const unpacked = unpackCall(call.method, p.slice(5));
    if (unpacked instanceof LegacyError) return raiseAfterDbCheck(unpacked);
    if (typeof passwd !== 'string') {
      return raiseAfterDbCheck(pythonError('TypeError', `secret must be unicode or bytes, not ${pyTypeName(passwd)}`));
    }
    const kwargs = kwargsFromValue(unpacked.kw);
    if (kwargs instanceof LegacyError) return raiseAfterDbCheck(kwargs);
    return credentials.callAs(db, uid, passwd, origin, (key) =>
      callModel(deps, { db, model: String(model), method: String(method), args: unpacked.args, kwargs }, key, origin),
    );
  };
}

/** `execute` takes every extra param positionally; `execute_kw` takes `(args, kw=None)`. */
function unpackCall(method: string, rest: Value[]): { args: Value; kw: Value } | LegacyError {
  if (method === 'execute') return { args: rest, kw: null };
  if (method !== 'execute_kw') return pythonError('NameError', `Method not available ${method}`);
  if (rest.length === 1) rest = [rest[0] as Value, new Map()];
  if (rest.length < 2) return pythonError('ValueError', `not enough values to unpack (expected 2, got ${rest.length})`);
  if (rest.length > 2) return pythonError('ValueError', 'too many values to unpack (expected 2)');
  return { args: rest[0] as Value, kw: rest[1] as Value };
}

/** `dict(kwargs)` as call_kw does it, after `kw = {}` for `None`. */
function kwargsFromValue(kw: Value): Struct | LegacyError {
  return kw === null ? new Map() : dictFrom(kw);
}

/** Python's `int(x)` on the uid, with its error texts. */
function pythonInt(v: Value): number | bigint {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isInt(v)) return v;
  if (v instanceof PyFloat) {
    if (Number.isNaN(v.value)) throw pythonError('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(v.value)) throw pythonError('OverflowError', 'cannot convert float infinity to integer');
    const t = Math.trunc(v.value);
    return Number.isSafeInteger(t) ? t : BigInt(t);
  }
  if (typeof v === 'string' || v instanceof PyDecimal) {
    const text = typeof v === 'string' ? v : v.text;
    const n = parsePythonInt(text);
    if (n === undefined) throw pythonError('ValueError', intValueErrorMessage(text));
    return n;
  }
  throw pythonError('TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`);
}

/**
 * execute_cr + call_kw: everything after the credentials are known to be good. The result stays the
 * upstream's JSON text (the dialect writes it), except where call_kw looks into it.
 */
async function callModel(deps: ObjectDeps, target: Target, key: string, origin: CallOrigin): Promise<Value | JsonText> {
  const { db, model, method } = target;
  const ensureModel = () => ensureModelExists(deps.upstream, db, model, key, origin);
  if (isPrivateMethod(method)) {
    await ensureModel();
    throw accessError(`Private methods (such as '${model}.${method}') cannot be called remotely.`);
  }
  // discovery may ask /doc-bearer with the key this call runs with (no service key for the db)
  const sig = await deps.signatures.resolve(db, model, method, origin, key);
  const args = positionalArgs(target.args, sig, method);
  if (args instanceof LegacyError) return ensureModel().then(() => Promise.reject(args));
  const request = sig ? requestFromSignature(sig, target, args) : requestFromFallback(target, args);
  if (request instanceof LegacyError) return ensureModel().then(() => Promise.reject(request));

  deps.onJson2?.(origin, { model, method, body: request });
  let answer: JsonText;
  try {
    answer = await deps.upstream.json2Text({ db, key, model, method, body: request }, origin);
  } catch (err) {
    throw errorFromUpstream(err, target, sig);
  }
  if (method !== 'create') return answer;
  // call_kw: `result.id if isinstance(args[0], Mapping) else result.ids` — after the commit.
  const result = answer.value();
  if (args.length === 0) throw pythonError('IndexError', 'list index out of range');
  if (isStruct(args[0] as Value) && Array.isArray(result) && result.length === 1) return result[0] as Value;
  return result;
}

/** `*args` as Python unpacks it: any iterable works (a dict gives its keys, a str its chars). */
function positionalArgs(args: Value, sig: MethodSignature | undefined, method: string): Value[] | LegacyError {
  if (Array.isArray(args)) return args;
  if (isStruct(args)) return [...args.keys()];
  if (typeof args === 'string') return [...args];
  const qualname = sig?.qualname ?? method;
  return pythonError('TypeError', `${qualname}() argument after * must be an iterable, not ${pyTypeName(args)}`);
}

/** `{ids?, context?, ...named}` for a method whose signature is known. */
function requestFromSignature(sig: MethodSignature, target: Target, args: Value[]): Struct | LegacyError {
  const body: Struct = new Map();
  let rest = args;
  if (!sig.apiModel) {
    // `ids, args = args[0], args[1:]`
    if (args.length === 0) return pythonError('IndexError', 'list index out of range');
    body.set('ids', idsFromValue(args[0] as Value));
    rest = args.slice(1);
  }
  const { context, kwargs } = splitContext(target.kwargs);
  const named = bindArguments(sig, target.model, target.method, rest, kwargs);
  if (named instanceof LegacyError) return named;
  if (context !== undefined) body.set('context', context);
  for (const [k, v] of named) body.set(k, v);
  return body;
}

/**
 * A method the gateway has no signature for (design §4 fallback): no positional argument → a
 * model-level call with keywords only; one argument that looks like ids → a record-level call;
 * anything else cannot be named and is refused with a message saying what to do.
 */
function requestFromFallback(target: Target, args: Value[]): Struct | LegacyError {
  const body: Struct = new Map();
  if (args.length === 1 && looksLikeIds(args[0] as Value)) body.set('ids', idsFromValue(args[0] as Value));
  else if (args.length > 0) return unmappable(target);
  const { context, kwargs } = splitContext(target.kwargs);
  if (context !== undefined) body.set('context', context);
  for (const [k, v] of kwargs) body.set(k, v);
  return body;
}

function unmappable(target: Target): LegacyError {
  return pythonError(
    'TypeError',
    `legacy-rpc-gateway cannot map the positional arguments of ${target.model}.${target.method}() to JSON-2 ` +
      'parameter names: its signature is unknown. Pass them as keyword arguments (execute_kw kwargs) ' +
      'or declare the signature in the signatures file (--signatures-file).',
  );
}

/** call_kw pops `context` before calling; a falsy one means "no context". */
function splitContext(kw: Struct): { context: Value | undefined; kwargs: Struct } {
  if (!kw.has('context')) return { context: undefined, kwargs: kw };
  const kwargs = new Map(kw);
  const context = kwargs.get('context') as Value;
  kwargs.delete('context');
  return { context: isTruthy(context) ? context : undefined, kwargs };
}

/** `model.browse(ids)`: falsy → no records, an int → one; anything else is passed on as is. */
function idsFromValue(ids: Value): Value {
  if (!isTruthy(ids)) return [];
  if (isInt(ids)) return [ids];
  return ids;
}

function looksLikeIds(v: Value): boolean {
  return isInt(v) || (Array.isArray(v) && v.every(isInt));
}

/** Probes whether `model` exists without running anything: a private name is refused either way. */
async function ensureModelExists(upstream: Upstream, db: string, model: string, key: string, origin: CallOrigin): Promise<void> {
  try {
    await upstream.json2({ db, key, model, method: '_legacy_rpc_gateway_probe', body: new Map() }, origin);
  } catch (err) {
    if (err instanceof LegacyError && isUnknownModel(err)) throw userError(`Object ${model} doesn't exist`);
    // 403 for the private name: the model exists. Anything else is not ours to report here.
  }
}

function isUnknownModel(err: LegacyError): boolean {
  return err.name === 'werkzeug.exceptions.NotFound' && /^the model '.*' does not exist$/s.test(err.message);
}

/** JSON-2's own refusals → what legacy dispatch raises for the same call (corpus findings §4). */
function errorFromUpstream(err: unknown, target: Target, sig: MethodSignature | undefined): unknown {
  if (!(err instanceof LegacyError)) return err;
  if (err.name === 'werkzeug.exceptions.NotFound') {
    if (isUnknownModel(err)) return userError(`Object ${target.model} doesn't exist`);
    if (/^The method '.*' does not exist$/s.test(err.message)) return pythonError('AttributeError', err.message);
  }
  if (err.name === 'werkzeug.exceptions.UnprocessableEntity') {
    if (/^cannot call .* with ids$/s.test(err.message)) return unmappable(target);
    const qualname = sig?.qualname ?? target.method;
    const missing = /^missing a required argument: '(.*)'$/s.exec(err.message);
    if (missing) return pythonError('TypeError', `${qualname}() missing 1 required positional argument: '${missing[1]}'`);
    return pythonError('TypeError', `${qualname}() ${err.message}`);
  }
  return err;
}
