/**
 * Live signature discovery (GATEWAY.md §4): `GET /doc-bearer/<model>.json` with the service key,
 * one document per (db, model), fresh for a TTL and then revalidated with `If-None-Match` (304 keeps
 * it, 200 replaces it), single-flight. A database whose answer says the key cannot read the
 * documentation (403, 401) has discovery off, logged once; the next sources (the built-in table)
 * serve meanwhile.
 */
import type { CallOrigin } from '../call.ts';
import { LegacyError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { DocBearerAnswer } from '../upstream/index.ts';
import { createRevalidatingCache, type Revalidatable } from './cache.ts';
import { parseDocMethods } from './doc-signatures.ts';
import type { SignatureSource } from './resolver.ts';
import type { MethodSignature } from './signature.ts';

/** Asks the upstream for one model's documentation, conditionally when `etag` is given. */
export type FetchDoc = (db: string, model: string, etag: string | undefined, origin: CallOrigin | undefined) => Promise<DocBearerAnswer>;

/** What {@link createDiscoverySource} needs; the service key stays inside `fetchDoc`. */
export interface DiscoveryOptions {
  fetchDoc: FetchDoc;
  /** Milliseconds a document is used before it is revalidated (`--signature-ttl`). */
  ttlMs: number;
  log: Pick<Logger, 'debug' | 'info' | 'warn'>;
  /** The clock, epoch milliseconds. Default `Date.now` (tests inject their own or fake Date). */
  now?: () => number;
  /** Documents kept at most (LRU). Default 10 000: far more models than a database has. */
  maxModels?: number;
}

type Methods = ReadonlyMap<string, MethodSignature>;
type Condition = 'on' | 'forbidden' | 'unauthorized' | 'failing';

const noMethods: Methods = new Map();

/** The shortest wait before a database whose key was refused is asked again, whatever the TTL. */
const offRetryMinMs = 60_000;
/** The longest wait before a failed fetch (timeout, 5xx, bad answer) is retried. */
const failureRetryMaxMs = 10_000;

const offMessages: Record<'forbidden' | 'unauthorized', string> = {
  forbidden:
    "signature discovery is off for this database: the service key's user is not in the Technical Documentation " +
    'group (/doc-bearer answered 403); the built-in signature table serves',
  unauthorized:
    'signature discovery is off for this database: the service key is not valid there (/doc-bearer answered 401); ' +
    'the built-in signature table serves',
};

/** What a failed fetch means: the key cannot read the docs here, the model has none, or a hiccup. */
function conditionOf(err: unknown): Condition | 'no-doc' {
  if (!(err instanceof LegacyError)) return 'failing';
  if (err.name === 'odoo.exceptions.AccessError') return 'forbidden';
  if (err.name === 'werkzeug.exceptions.Unauthorized') return 'unauthorized';
  if (err.name === 'werkzeug.exceptions.NotFound') return 'no-doc';
  return 'failing';
}

/**
 * Creates the `discovery` source. `lookup` resolves with the discovered signature of a method the
 * model's document lists, or `undefined` (not documented, no document, or discovery off there).
 */
export function createDiscoverySource(options: DiscoveryOptions): SignatureSource {
  const { fetchDoc, ttlMs, log } = options;
  const now = options.now ?? Date.now;
  const cache = createRevalidatingCache<Methods>({ max: options.maxModels ?? 10_000, now });
  const offUntil = new Map<string, number>();
  const conditions = new Map<string, Condition>();

  /** Logs a database's condition when it changes: each problem once, not per call. */
  function report(db: string, condition: Condition, detail: Record<string, unknown> = {}): void {
    const previous = conditions.get(db);
    if (previous === condition) return;
    conditions.set(db, condition);
    if (condition === 'on') log.info({ db }, 'signature discovery is on for this database');
    else if (condition === 'failing') {
      log.warn({ db, ...detail }, 'signature discovery failed; the built-in signature table serves until /doc-bearer answers');
    } else log.warn({ db }, offMessages[condition]);
  }

  function failed(db: string, model: string, stale: Revalidatable<Methods> | undefined, err: unknown): Revalidatable<Methods> {
    const condition = conditionOf(err);
    if (condition === 'no-doc') {
      log.debug({ db, model }, 'no /doc-bearer documentation for this model');
      return { value: noMethods, etag: undefined, expiresAt: now() + ttlMs };
    }
    if (condition === 'failing') {
      report(db, condition, { model, error: err instanceof Error ? err.message : String(err) });
      return { value: stale?.value ?? noMethods, etag: stale?.etag, expiresAt: now() + Math.min(ttlMs, failureRetryMaxMs) };
    }
    offUntil.set(db, now() + Math.max(ttlMs, offRetryMinMs));
    report(db, condition);
    return { value: noMethods, etag: undefined, expiresAt: now() };
  }

  async function refresh(db: string, model: string, stale: Revalidatable<Methods> | undefined, origin: CallOrigin | undefined) {
    let answer: DocBearerAnswer;
    try {
      answer = await fetchDoc(db, model, stale?.etag, origin);
    } catch (err) {
      return failed(db, model, stale, err);
    }
    offUntil.delete(db);
    if (answer.status === 'not-modified') {
      if (stale === undefined) return failed(db, model, stale, new Error('/doc-bearer answered 304 to a request without If-None-Match'));
      report(db, 'on');
      return { ...stale, expiresAt: now() + ttlMs };
    }
    const methods = parseDocMethods(answer.body, model);
    if (methods === undefined) return failed(db, model, stale, new Error(`/doc-bearer/${model}.json is not a model document`));
    report(db, 'on');
    return { value: methods, etag: answer.etag, expiresAt: now() + ttlMs };
  }

  const isOff = (db: string) => now() < (offUntil.get(db) ?? Number.NEGATIVE_INFINITY);

  return {
    name: 'discovery',
    async lookup(db, model, method, origin) {
      if (isOff(db)) return undefined;
      const entry = await cache.resolve(`${db}\u0000${model}`, (stale) => refresh(db, model, stale, origin));
      return isOff(db) ? undefined : entry.value.get(method);
    },
  };
}
