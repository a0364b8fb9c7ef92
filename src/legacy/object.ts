/**
 * The legacy `object` service (`odoo/service/model.py` dispatch → execute_cr → call_kw, 19.0):
 * `execute` / `execute_kw`, with Odoo's checks in Odoo's order, positional → named binding, and
 * one JSON-2 call per legacy call.
 */
import { callCaller, callDatabase, callKey, type CallOrigin, type LegacyCall } from '../call.ts';
import type { Credentials } from '../credentials/index.ts';
import { accessDenied, accessError, cutAfterSendingOf, LegacyError, markUnknownOutcome, pythonError, userError } from '../errors.ts';
import { dictError, dictFrom } from '../python/dict-from.ts';
import { intValueErrorMessage, parsePythonInt } from '../python/int-text.ts';
import { unpackError } from '../python/unpack-errors.ts';
import { parseSeries, removalText, removedModels, seriesHas } from '../odoo-timeline.ts';
import {
  bindArguments,
  changedMethodFault,
  isPrivateMethod,
  modelAbsent,
  type MethodSignature,
  type SignatureResolver,
  type UpstreamChange,
} from '../signatures/index.ts';
import type { Upstream } from '../upstream/index.ts';
import { strValue, typeNameOf } from '../python/py-repr.ts';
import {
  hasNonStringNames,
  isInt,
  isStruct,
  isTruthy,
  PyBinary,
  PyDecimal,
  PyFloat,
  pyTypeName,
  type JsonText,
  type Struct,
  type Value,
} from '../value.ts';
import type { Successors } from '../successors/index.ts';
import { checkedDatabase } from './database-name.ts';
import { identityCheckRefusal, isAdminChecked, isIdentityChecked, isOrmcached, requestAssertionError } from './identity-check.ts';
import { acceptLanguageFor, createLegacyLang, type LegacyLang } from './legacy-lang.ts';
import { mayRefuseMarshal, xmlrpcMarshalFault } from './xmlrpc-marshal-fault.ts';
import type { RpcPolicy } from './rpc-policy.ts';

/**
 * The JSON-2 body a call bound to, set just before it is sent (the migration report shows its shape
 * as the call's JSON-2 equivalent). Holds argument values: it must never be logged.
 */
export const boundJson2Body = callKey<Struct | undefined>('JSON-2 body', undefined);

export interface ObjectDeps {
  upstream: Upstream;
  credentials: Credentials;
  signatures: SignatureResolver;
  /** Answers the methods a later Odoo removed through their successors (`--successors`). */
  successors?: Successors;
  /** The upstream's series as last seen (`server_serie`), undefined while unknown: faults name what it removed. */
  series?: () => string | undefined;
  /** The caller's language as legacy RPC would take it (one per service when not given). */
  legacyLang?: LegacyLang;
  /** What RPC policy modules installed upstream (rpc_helper) refuse before a call runs. */
  rpcPolicy?: RpcPolicy;
}

/** What one model call resolved to, before it is sent (in the call's database: {@link callDatabase}). */
interface Target {
  /** The caller's uid, as `int()` made it. */
  uid: Value;
  /** As the client sent them: Odoo looks them up as they are, strings or not. */
  model: Value;
  method: Value;
  /** `args` as the client sent it: normally a list, but Python unpacks any iterable. */
  args: Value;
  kwargs: Struct;
  /** The answer goes out as XML-RPC, whose marshaller refuses some results JSON encodes. */
  xmlrpc: boolean;
}

/** A target whose model and method passed Odoo's look-ups: both are names. */
type NamedTarget = Omit<Target, 'model' | 'method'> & { model: string; method: string };

/** Creates the `object` dispatcher. Rejects with LegacyError exactly where Odoo raises. */
export function createObjectService(objectDeps: ObjectDeps) {
  const deps = { ...objectDeps, legacyLang: objectDeps.legacyLang ?? createLegacyLang(objectDeps.upstream) };
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
    origin.values.set(callCaller, { database: db });
    // Registry(db) opens before the method is looked at: an unknown database wins over local errors.
    const raiseAfterDbCheck = async (err: LegacyError): Promise<never> => {
      await credentials.probeDatabase(db, origin);
      throw err;
    };
    // NameError and execute_kw's own arity come before the credentials are checked (Odoo 19.0)
    const unpacked = unpackCall(call.method, p.slice(5));
    if (unpacked instanceof LegacyError) return raiseAfterDbCheck(unpacked);
    if (typeof passwd !== 'string') return raiseAfterDbCheck(passwordTypeError(passwd));
    // ... and dict(kw) after them
    origin.values.set(callCaller, { database: db, uid });
    return credentials.callAs(uid, passwd, origin, async (key) => {
      const kwargs = kwargsFromValue(unpacked.kw);
      if (kwargs instanceof LegacyError) throw kwargs;
      return callModel(deps, { uid, model, method, args: unpacked.args, kwargs, xmlrpc: call.dialect !== 'jsonrpc' }, key, origin);
    });
  };
}

/**
 * `_check_uid_passwd(uid, passwd)` with a password that is no str: its ormcache key must be hashable
 * (a list, dict or Binary is not), then passlib names the type with its module (`datetime.datetime`).
 */
function passwordTypeError(passwd: Value): LegacyError {
  if (Array.isArray(passwd) || passwd instanceof Map || passwd instanceof PyBinary)
    return pythonError('TypeError', `unhashable type: '${pyTypeName(passwd)}'`);
  return pythonError('TypeError', `secret must be unicode or bytes, not ${typeNameOf(passwd)}`);
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
async function callModel(
  deps: ObjectDeps & { legacyLang: LegacyLang },
  target: Target,
  key: string,
  origin: CallOrigin,
): Promise<Value | JsonText> {
  const db = callDatabase(origin);
  const model = modelName(target.model);
  const series = deps.series?.();
  const ensureModel = () => ensureModelExists(deps.upstream, model, key, origin, series);
  // rpc_helper's patched execute_cr refuses after the model look-up (a model it names exists), before call_kw
  const refused = await deps.rpcPolicy?.refusal(model, target.method, origin);
  if (refused !== undefined) throw refused;
  // `getattr(model, name)` needs a str; `name.startswith('_')` is the first thing that looks at it
  if (typeof target.method !== 'string') {
    await ensureModel();
    throw pythonError('AttributeError', `'${pyTypeName(target.method)}' object has no attribute 'startswith'`);
  }
  const method = target.method;
  if (isPrivateMethod(method)) {
    await ensureModel();
    throw accessError(`Private methods (such as '${model}.${method}') cannot be called remotely.`);
  }
  // No JSON-2 route can name these (a 303 or a route hint would come back): no model or method has such a name.
  if (!fitsPathSegment(method)) {
    await ensureModel();
    throw methodDoesNotExist(model, method);
  }
  // discovery may ask /doc-bearer with the key this call runs with (no service key for the db)
  const resolved = await deps.signatures.resolve(db, model, method, origin, key);
  // /doc-bearer just said Odoo has no such model: its fault wins over everything left, as the
  // registry look-up does in Odoo, and costs Odoo no second request
  if (resolved === modelAbsent) throw unknownModelError(model, series);
  const sig = resolved;
  const args = positionalArgs(target.args, sig);
  if (args instanceof LegacyError) return ensureModel().then(() => Promise.reject(args));
  const named: NamedTarget = { ...target, model, method };
  const userLang = () => deps.legacyLang.userLang(key, origin);
  // @check_identity refuses any call without an HTTP request, before its arguments are bound
  if (isIdentityChecked(model, method)) {
    await ensureModel();
    if ((await methodExists(deps.upstream, { key, model, method }, origin, series)) === false) throw methodDoesNotExist(model, method);
    throw await identityCheckRefusal(args, target.kwargs, userLang);
  }
  const request = sig ? requestFromSignature(sig, named, args) : requestFromFallback(named, args);
  if (request instanceof LegacyError) {
    // Without a signature the method may not exist at all (one Odoo removed): say so, as Odoo does.
    if (!sig && (await methodExists(deps.upstream, { key, model, method }, origin, series)) === false)
      throw methodDoesNotExist(model, method);
    // @assert_log_admin_access (`*args, **kwargs`) refuses a non-admin before the arguments bind
    if (bindingErrors.has(request) && isAdminChecked(model, method)) {
      await ensureModel();
      if (!(await isAdmin(deps.upstream, { key, uid: target.uid }, origin))) throw accessDenied();
    }
    return ensureModel().then(() => Promise.reject(request));
  }
  const asserted = requestAssertionError(model, method);
  if (asserted !== undefined) throw asserted;
  const ids = request.get('ids');
  if (sig && Array.isArray(ids) && booleanIdReachesSql(ids)) {
    await ensureModel();
    throw booleanIdError();
  }

  const { successors } = deps;
  // the user's own context_get translates nothing, and its answer is the language the lookup would ask for
  const asksLang = model === 'res.users' && method === 'context_get';
  const lang = asksLang ? undefined : await requestLang(request, userLang);
  const call = { db, key, model, method, body: request, acceptLanguage: lang === undefined ? undefined : acceptLanguageFor(lang) };
  // the upstream's method of this name is not 19.0's: its successor answers, or a fault says why
  if (sig?.upstreamChange !== undefined) return serveChanged(deps, call, sig.upstreamChange, origin);
  if (successors?.routes(db, model, method)) return successors.serve(call, origin);
  origin.values.set(boundJson2Body, request);
  let answer: JsonText;
  try {
    answer = await deps.upstream.json2Text(call, origin);
  } catch (err) {
    // the upstream's own answer tells the method is gone: its successor answers from now on
    if (successors?.learnGone(db, model, method, err)) return successors.serve(call, origin);
    // JSON-2 refused one of 19.0's own parameters before running anything: the method changed
    const change =
      sig !== undefined && sig.source !== 'override' ? await deps.signatures.learnRefusal(db, model, method, err, origin) : undefined;
    if (change !== undefined) return serveChanged(deps, call, change, origin);
    const cut = cutAfterSendingOf(err);
    if (cut !== undefined && !readsOnly(method)) throw outcomeUnknown(err as LegacyError, cut, model, method);
    throw errorFromUpstream(err, { model, method }, sig, series);
  }
  if (asksLang) deps.legacyLang.remember(db, key, answer.value());
  if (target.xmlrpc && mayRefuseMarshal(model, method, answer.json)) {
    const fault = xmlrpcMarshalFault(model, method, answer.value());
    if (fault) throw fault;
  }
  if (method !== 'create') return answer;
  // call_kw: `result.id if isinstance(args[0], Mapping) else result.ids` — after the commit.
  const result = answer.value();
  if (args.length === 0) throw pythonError('IndexError', 'list index out of range');
  if (isStruct(args[0] as Value) && Array.isArray(result) && result.length === 1) return result[0] as Value;
  return result;
}

/** Model methods that only read: a call of one cut short changed nothing. Any other may have written. */
const readMethods: ReadonlySet<string> = new Set([
  'read',
  'search',
  'search_read',
  'search_count',
  'search_fetch',
  'fields_get',
  'name_search',
  'read_group',
  'formatted_read_group',
  'default_get',
  'check_access_rights',
  'check_access_rule',
  'check_field_access_rights',
  'has_access',
  'context_get',
  'web_read',
  'web_search_read',
  'get_views',
  'exists',
]);

function readsOnly(method: string): boolean {
  return readMethods.has(method);
}

/**
 * A call that may write, cut by its `--call-timeout` or the shutdown grace period after Odoo was
 * sent it: Odoo may have finished and committed it (a timeout in the gateway does not stop Odoo's
 * worker), so the fault says the outcome is unknown, not that the call did not happen; counted in
 * `legacy_rpc_gateway_unknown_outcomes_total`. Same kind as the cut (the outcome label is unchanged).
 */
function outcomeUnknown(err: LegacyError, cut: 'call_timeout' | 'shutdown', model: string, method: string): LegacyError {
  const why =
    cut === 'shutdown'
      ? 'the gateway shut down (--shutdown-grace) before its answer came'
      : 'its answer did not come within --call-timeout';
  return markUnknownOutcome(
    new LegacyError(err.kind, {
      name: err.name,
      message: `the outcome of ${model}.${method} is unknown: Odoo was sent the call and may have done it (committed), but ${why}; check in Odoo before sending it again (${err.message})`,
      cause: err,
    }),
    cut,
  );
}

/**
 * A call whose method the upstream changed since 19.0 (signatures/upstream-changes.ts): answered
 * through its successor where it has one (`--successors` not off), else refused with a fault naming
 * the change. Never sent bound to the upstream's other signature.
 */
function serveChanged(
  deps: ObjectDeps,
  call: { db: string; key: string; model: string; method: string; body: Struct },
  change: UpstreamChange,
  origin: CallOrigin,
): Promise<Value> {
  const { successors } = deps;
  if (successors?.answers(call.model, call.method)) return successors.serve(call, origin);
  return Promise.reject(changedMethodFault(call.model, call.method, change));
}

/**
 * `args` as call_kw uses it. A record-level method first takes `args[0]` (a dict has no key 0, a
 * scalar no `[]`); then `*args` unpacks any iterable (a dict gives its keys, a str its chars).
 * The TypeError texts are those of Python 3.11/3.12, which Odoo 19 runs on.
 */
function positionalArgs(args: Value, sig: MethodSignature | undefined): Value[] | LegacyError {
  const recordLevel = sig !== undefined && !sig.apiModel;
  if (Array.isArray(args)) return args;
  if (typeof args === 'string') return recordLevel && args === '' ? pythonError('IndexError', 'string index out of range') : [...args];
  if (isStruct(args)) return recordLevel ? keyErrorZero() : [...args.keys()];
  if (recordLevel) return pythonError('TypeError', `'${typeNameOf(args)}' object is not subscriptable`);
  return pythonError('TypeError', `Value after * must be an iterable, not ${typeNameOf(args)}`);
}

/** `args[0]` on a dict: `KeyError(0)`, whose argument is the int 0. */
function keyErrorZero(): LegacyError {
  const err = pythonError('KeyError', '0');
  return new LegacyError(err.kind, { name: err.name, message: '0', arguments: [0] });
}

/**
 * `model in registry` for what the client sent as the model: a str is looked up upstream; a list,
 * dict or Binary is unhashable; anything else is no model's name, and the UserError prints `str()`.
 */
function modelName(model: Value): string {
  if (Array.isArray(model) || model instanceof Map || model instanceof PyBinary)
    throw pythonError('TypeError', `unhashable type: '${pyTypeName(model)}'`);
  if (typeof model !== 'string') throw userError(`Object ${strValue(model)} doesn't exist`);
  if (!fitsPathSegment(model)) throw userError(`Object ${model} doesn't exist`);
  return model;
}

/** A name that can be a `/json/2/<model>/<method>` segment: not empty, no `/`, not `.` or `..`. */
function fitsPathSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/');
}

function methodDoesNotExist(model: string, method: string): LegacyError {
  return pythonError('AttributeError', `The method '${model}.${method}' does not exist`);
}

/**
 * Whether `model.method` exists, asked without running it: JSON-2 resolves the method before it
 * looks at `ids`, and `ids: true` then fails in `browse()` (or as ids given to an `@api.model`
 * method). False only for Odoo's "does not exist"; undefined when the answer tells nothing. Rejects
 * with Odoo's unknown-model fault when the answer says the model itself does not exist.
 */
async function methodExists(
  upstream: Upstream,
  call: { key: string; model: string; method: string },
  origin: CallOrigin,
  series: string | undefined,
): Promise<boolean | undefined> {
  try {
    await upstream.json2({ ...call, db: callDatabase(origin), body: new Map([['ids', true]]) }, origin);
    return true;
  } catch (err) {
    // the model's own absence answers the call: no second request to probe it
    if (err instanceof LegacyError && isUnknownModel(err)) throw unknownModelError(call.model, series);
    if (err instanceof LegacyError && err.name === 'werkzeug.exceptions.NotFound' && /^The method '.*' does not exist$/s.test(err.message))
      return false;
    return undefined;
  }
}

/**
 * Legacy RPC sends a record's ids to SQL as they are: `True` among them is `id IN (true)`, which
 * PostgreSQL refuses, unless an int 1 (the same dict key as `True`) stands for it. JSON-2 may answer
 * the same ids from its cache (`read([True])` returned partner 1), so the gateway refuses them first.
 */
function booleanIdReachesSql(ids: Value[]): boolean {
  return ids.includes(true) && !ids.some((id) => id === 1 || id === 1n || (id instanceof PyFloat && id.value === 1));
}

function booleanIdError(): LegacyError {
  return pythonError(
    'psycopg2.errors.UndefinedFunction',
    'operator does not exist: integer = boolean\nHINT:  No operator matches the given name and argument types. You might need to add explicit type casts.\n',
  );
}

/**
 * The language the JSON-2 request runs in (docs/architecture.md §3, "The language of a call"): natively
 * `_()` with no `lang` in the call's context falls back to the user's (`context_get`); where the
 * context names one, `_()` takes it wherever it finds the call's env, and the request keeps JSON-2's
 * default (English where installed), which is what `_()` gets natively where it finds no env.
 */
async function requestLang(request: Struct, userLang: () => Promise<string | undefined>): Promise<string | undefined> {
  const context = request.get('context');
  if (context instanceof Map && isTruthy(context.get('lang') as Value)) return undefined;
  return userLang();
}

/** The errors of binding a call's arguments to the method's own parameters (a wrapper taking `*args` comes first). */
const bindingErrors = new WeakSet<LegacyError>();

/** `env.is_admin()` of the caller: `_is_admin()` is `has_group('base.group_erp_manager')` (or the superuser). */
async function isAdmin(upstream: Upstream, who: { key: string; uid: Value }, origin: CallOrigin): Promise<boolean> {
  const body: Struct = new Map<string, Value>([
    ['ids', [who.uid]],
    ['group_ext_id', 'base.group_erp_manager'],
  ]);
  return (await upstream.json2({ db: callDatabase(origin), key: who.key, model: 'res.users', method: 'has_group', body }, origin)) === true;
}

/** `{ids?, context?, ...named}` for a method whose signature is known. */
function requestFromSignature(sig: MethodSignature, target: NamedTarget, args: Value[]): Struct | LegacyError {
  const body: Struct = new Map();
  let rest = args;
  if (!sig.apiModel) {
    // `ids, args = args[0], args[1:]`
    if (args.length === 0) return pythonError('IndexError', 'list index out of range');
    body.set('ids', idsFromValue(args[0] as Value));
    rest = args.slice(1);
  }
  const badContext = contextError(target.kwargs);
  if (badContext !== undefined) return badContext;
  if (hasNonStringNames(target.kwargs)) return keywordsMustBeStrings();
  const { context, kwargs } = splitContext(target.kwargs);
  // an @ormcache method's arguments bind first to its cache key, a lambda with the same parameters
  const bindAs = isOrmcached(target.model, target.method) ? { ...sig, qualname: '<lambda>' } : sig;
  const named = bindArguments(bindAs, target.model, target.method, rest, kwargs);
  if (named instanceof LegacyError) {
    bindingErrors.add(named);
    return named;
  }
  if (context !== undefined) body.set('context', context);
  for (const [k, v] of named) body.set(k, v);
  return body;
}

/**
 * A method the gateway has no signature for (docs/architecture.md §4 fallback): no positional argument → a
 * model-level call with keywords only; one argument that looks like ids → a record-level call;
 * anything else cannot be named and is refused with a message saying what to do.
 */
function requestFromFallback(target: NamedTarget, args: Value[]): Struct | LegacyError {
  const body: Struct = new Map();
  const badContext = contextError(target.kwargs);
  if (badContext !== undefined) return badContext;
  if (hasNonStringNames(target.kwargs)) return keywordsMustBeStrings();
  if (args.length === 1 && looksLikeIds(args[0] as Value)) body.set('ids', idsFromValue(args[0] as Value));
  else if (args.length > 0) return unmappable(target);
  const { context, kwargs } = splitContext(target.kwargs);
  if (context !== undefined) body.set('context', context);
  for (const [k, v] of kwargs) body.set(k, v);
  return body;
}

/** `method(recs, *args, **kwargs)` with a name that was no str on the client's side. */
function keywordsMustBeStrings(): LegacyError {
  return pythonError('TypeError', 'keywords must be strings');
}

function unmappable(target: { model: string; method: string }): LegacyError {
  return pythonError(
    'TypeError',
    `legacy-rpc-gateway cannot map the positional arguments of ${target.model}.${target.method}() to JSON-2 ` +
      'parameter names: its signature is unknown. Pass them as keyword arguments (execute_kw kwargs) ' +
      'or declare the signature in the signatures file (--signatures-file).',
  );
}

/**
 * `recs.with_context(kwargs.pop('context', None) or {})`: `dict(context)` fails after the method
 * lookup and the ids, before the arguments are bound. JSON-2 makes it before looking the method up,
 * so the gateway checks it itself, in call_kw's place.
 */
function contextError(kw: Struct): LegacyError | undefined {
  const context = kw.get('context');
  return context === undefined || !isTruthy(context) ? undefined : dictError(context);
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

/** Probes whether `model` exists in the call's database without running anything: a private name is refused either way. */
async function ensureModelExists(
  upstream: Upstream,
  model: string,
  key: string,
  origin: CallOrigin,
  series: string | undefined,
): Promise<void> {
  try {
    await upstream.json2({ db: callDatabase(origin), key, model, method: '_legacy_rpc_gateway_probe', body: new Map() }, origin);
  } catch (err) {
    if (err instanceof LegacyError && isUnknownModel(err)) throw unknownModelError(model, series);
    // 403 for the private name: the model exists. Anything else is not ours to report here.
  }
}

/**
 * Odoo's `Object <model> doesn't exist`; for a model a later Odoo removed (`ir.rule`, `ir.model.access`
 * on 20.0), the same UserError says what replaced it, so a 19.0 client learns why, not only that
 * (unless the upstream is known to be a series that still has it).
 */
function unknownModelError(model: string, series: string | undefined): LegacyError {
  const removal = Object.hasOwn(removedModels, model) ? removedModels[model] : undefined;
  if (removal === undefined || (series !== undefined && parseSeries(series) !== undefined && !seriesHas(series, removal)))
    return userError(`Object ${model} doesn't exist`);
  return userError(
    `Object ${model} doesn't exist: ${removalText(removal)} replaced it with ${removal.replacement} ` +
      `(legacy-rpc-gateway; the upstream has no ${model}, so no legacy call on it can be answered as Odoo 19.0 did)`,
  );
}

function isUnknownModel(err: LegacyError): boolean {
  return err.name === 'werkzeug.exceptions.NotFound' && /^the model '.*' does not exist$/s.test(err.message);
}

/** JSON-2's own refusals → what legacy dispatch raises for the same call (fixtures/conformance/INDEX.md findings §4). */
function errorFromUpstream(
  err: unknown,
  target: { model: string; method: string },
  sig: MethodSignature | undefined,
  series: string | undefined,
): unknown {
  if (!(err instanceof LegacyError)) return err;
  if (err.name === 'werkzeug.exceptions.NotFound') {
    if (isUnknownModel(err)) return unknownModelError(target.model, series);
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

/**
 * The JSON-2 request an `object` call binds to — signature, positional → named — without
 * credentials and without sending anything: what a `verify` route checks of a call that can change
 * state, which Odoo ran once natively (`src/cutover/routes/verify.ts`). A LegacyError where
 * binding refuses the call (or the call names no model method).
 */
export async function bindObjectCall(
  signatures: SignatureResolver,
  call: LegacyCall,
  origin: CallOrigin,
): Promise<{ model: string; method: string; body: Struct } | LegacyError> {
  const p = call.params;
  if (call.argsNotIterable !== undefined || p.length < 5) return pythonError('TypeError', 'not an object call with a model and a method');
  const [db, uid, , model, method] = p as [Value, Value, Value, Value, Value];
  if (typeof db !== 'string' || typeof model !== 'string' || typeof method !== 'string')
    return pythonError('TypeError', 'the database, model and method must be strings');
  const unpacked = unpackCall(call.method, p.slice(5));
  if (unpacked instanceof LegacyError) return unpacked;
  const kwargs = kwargsFromValue(unpacked.kw);
  if (kwargs instanceof LegacyError) return kwargs;
  const resolved = await signatures.resolve(db, model, method, origin);
  const sig = resolved === modelAbsent ? undefined : resolved;
  const args = positionalArgs(unpacked.args, sig);
  if (args instanceof LegacyError) return args;
  const named: NamedTarget = { uid, model, method, args: unpacked.args, kwargs, xmlrpc: call.dialect !== 'jsonrpc' };
  const request = sig ? requestFromSignature(sig, named, args) : requestFromFallback(named, args);
  return request instanceof LegacyError ? request : { model, method, body: request };
}
