/**
 * Live signature discovery (docs/architecture.md §4): `GET /doc-bearer/<model>.json`, one document per
 * (db, model) shared by every user of that database, fresh for a TTL and then revalidated with
 * `If-None-Match` (304 keeps it, 200 replaces it), single-flight.
 *
 * The document is asked for with the database's service key where it has one, else with the key
 * of the call that needs it (the client's API key, or the key minted for its password). Odoo serves
 * it only to users in the Technical Documentation group (403 AccessError otherwise): a service key
 * that is refused (403, 401) turns the service key off for that database, logged once, and a
 * caller's key that is refused is not used again for the TTL (at least a minute); the next key
 * tries, and meanwhile the built-in table serves. Keys are kept as digests and never logged.
 */
import { createHash } from 'node:crypto';
import type { CallOrigin } from '../call.ts';
import { LegacyError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { DocBearerAnswer } from '../upstream/index.ts';
import { createRevalidatingCache, type Revalidatable } from './cache.ts';
import { parseDocMethods } from './doc-signatures.ts';
import type { SignatureSource } from './resolver.ts';
import { modelAbsent, type MethodSignature, type ModelAbsent } from './signature.ts';

/** Asks the upstream for one model's documentation with `key`, conditionally when `etag` is given. */
export type FetchDoc = (
  db: string,
  model: string,
  key: string,
  etag: string | undefined,
  origin: CallOrigin | undefined,
) => Promise<DocBearerAnswer>;

/** What {@link createDiscoverySource} needs. */
export interface DiscoveryOptions {
  fetchDoc: FetchDoc;
  /** The database's service key (`--service-key`), or `undefined`: the caller's key is used. */
  serviceKeyFor: (db: string) => string | undefined;
  /** Milliseconds a document is used before it is revalidated (`--signature-ttl`). */
  ttlMs: number;
  log: Pick<Logger, 'debug' | 'info' | 'warn'>;
  /** The clock, epoch milliseconds. Default `Date.now` (tests inject their own or fake Date). */
  now?: () => number;
  /** Documents kept at most (LRU), and refused caller keys remembered at most. Default 10 000. */
  maxModels?: number;
}

type Methods = ReadonlyMap<string, MethodSignature>;
/** A model's documented methods; `absent` when /doc-bearer said the database has no such model. */
interface Doc {
  methods: Methods;
  absent?: true;
}
type Condition = 'on' | 'forbidden' | 'unauthorized' | 'failing';
/** One key to ask with: the service key or the caller's. */
interface Candidate {
  key: string;
  service: boolean;
}

const noMethods: Methods = new Map();
const noDoc: Doc = { methods: noMethods };

/**
 * werkzeug's own NotFound text: what api_doc's `doc_model` raises for `model_name not in self.env`
 * (after the group check, so the key could read the docs). Any other 404 (no api_doc: an HTML page)
 * says nothing about the model.
 */
const noSuchModelText =
  'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.';

function isNoSuchModel(err: unknown): boolean {
  return err instanceof LegacyError && err.name === 'werkzeug.exceptions.NotFound' && err.message === noSuchModelText;
}

/** The shortest wait before a refused key is used again, whatever the TTL. */
const offRetryMinMs = 60_000;
/** The longest wait before a failed fetch (timeout, 5xx, bad answer) is retried. */
const failureRetryMaxMs = 10_000;

const offMessages: Record<'forbidden' | 'unauthorized', string> = {
  forbidden:
    "signature discovery with the service key is off for this database: the key's user is not in the Technical Documentation " +
    "group (/doc-bearer answered 403); each caller's own key is tried, then the built-in signature table serves",
  unauthorized:
    'signature discovery with the service key is off for this database: the key is not valid there (/doc-bearer answered 401); ' +
    "each caller's own key is tried, then the built-in signature table serves",
};

/** What a failed fetch means: the key cannot read the docs here, the model has none, or a hiccup. */
function conditionOf(err: unknown): Condition | 'no-doc' {
  if (!(err instanceof LegacyError)) return 'failing';
  if (err.name === 'odoo.exceptions.AccessError') return 'forbidden';
  if (err.name === 'werkzeug.exceptions.Unauthorized') return 'unauthorized';
  if (err.name === 'werkzeug.exceptions.NotFound') return 'no-doc';
  return 'failing';
}

/** A digest of (db, key): what the refused-key memory holds instead of the key. */
function keySlot(db: string, key: string): string {
  return createHash('sha256').update(db).update('\u0000').update(key).digest('base64url');
}

/**
 * Creates the `discovery` source. `lookup` resolves with the discovered signature of a method the
 * model's document lists, or `undefined` (not documented, no document, or no key could read it).
 * It never rejects: a failure leaves the call to the next sources.
 */
export function createDiscoverySource(options: DiscoveryOptions): SignatureSource {
  const { fetchDoc, serviceKeyFor, ttlMs, log } = options;
  const now = options.now ?? Date.now;
  const max = options.maxModels ?? 10_000;
  const cache = createRevalidatingCache<Doc>({ max, now });
  /** Databases whose service key was refused, until when. */
  const serviceOffUntil = new Map<string, number>();
  /** Caller keys (digests of db and key) that were refused, until when; bounded like the cache. */
  const refusedUntil = new Map<string, number>();
  const conditions = new Map<string, Condition>();

  /** Logs a database's service-key condition when it changes: each problem once, not per call. */
  function report(db: string, condition: Condition, detail: Record<string, unknown> = {}): void {
    const previous = conditions.get(db);
    if (previous === condition) return;
    conditions.set(db, condition);
    if (condition === 'on') log.info({ db }, 'signature discovery is on for this database');
    else if (condition === 'failing') {
      log.warn({ db, ...detail }, 'signature discovery failed; the built-in signature table serves until /doc-bearer answers');
    } else log.warn({ db }, offMessages[condition]);
  }

  const isLive = (until: number | undefined) => until !== undefined && now() < until;

  /** The keys to ask with, in order: the service key (unless refused), then the caller's (unless refused). */
  function candidates(db: string, callerKey: string | undefined): Candidate[] {
    const out: Candidate[] = [];
    const serviceKey = serviceKeyFor(db);
    if (serviceKey !== undefined && !isLive(serviceOffUntil.get(db))) out.push({ key: serviceKey, service: true });
    if (callerKey !== undefined && callerKey !== serviceKey && !isLive(refusedUntil.get(keySlot(db, callerKey)))) {
      out.push({ key: callerKey, service: false });
    }
    return out;
  }

  /** Remembers a refused key (the service key per database, a caller's key per database and key). */
  function refuse(db: string, model: string, candidate: Candidate, condition: 'forbidden' | 'unauthorized'): void {
    const until = now() + Math.max(ttlMs, offRetryMinMs);
    if (candidate.service) {
      serviceOffUntil.set(db, until);
      report(db, condition);
      return;
    }
    if (refusedUntil.size >= max) refusedUntil.delete(refusedUntil.keys().next().value as string);
    refusedUntil.set(keySlot(db, candidate.key), until);
    log.debug(
      { db, model, status: condition === 'forbidden' ? 403 : 401, retryInMs: until - now() },
      "signature discovery: /doc-bearer refused the caller's key (its user is not in the Technical Documentation group, or the key is not valid); that key is not asked with again meanwhile",
    );
  }

  /** A fetch that did not give a document, other than a refused key. */
  function failed(db: string, model: string, stale: Revalidatable<Doc> | undefined, err: unknown): Revalidatable<Doc> {
    if (conditionOf(err) === 'no-doc') {
      log.debug({ db, model }, 'no /doc-bearer documentation for this model');
      return { value: isNoSuchModel(err) ? { methods: noMethods, absent: true } : noDoc, etag: undefined, expiresAt: now() + ttlMs };
    }
    report(db, 'failing', { model, error: err instanceof Error ? err.message : String(err) });
    return { value: stale?.value ?? noDoc, etag: stale?.etag, expiresAt: now() + Math.min(ttlMs, failureRetryMaxMs) };
  }

  async function refresh(
    db: string,
    model: string,
    stale: Revalidatable<Doc> | undefined,
    origin: CallOrigin | undefined,
    callerKey: string | undefined,
  ): Promise<Revalidatable<Doc>> {
    for (const candidate of candidates(db, callerKey)) {
      let answer: DocBearerAnswer;
      try {
        answer = await fetchDoc(db, model, candidate.key, stale?.etag, origin);
      } catch (err) {
        const condition = conditionOf(err);
        if (condition === 'forbidden' || condition === 'unauthorized') {
          refuse(db, model, candidate, condition);
          continue;
        }
        return failed(db, model, stale, err);
      }
      if (candidate.service) serviceOffUntil.delete(db);
      if (answer.status === 'not-modified') {
        if (stale === undefined) return failed(db, model, stale, new Error('/doc-bearer answered 304 to a request without If-None-Match'));
        report(db, 'on');
        return { ...stale, expiresAt: now() + ttlMs };
      }
      const methods = parseDocMethods(answer.body, model);
      if (methods === undefined) return failed(db, model, stale, new Error(`/doc-bearer/${model}.json is not a model document`));
      report(db, 'on');
      return { value: { methods }, etag: answer.etag, expiresAt: now() + ttlMs };
    }
    // No key could ask: keep what there is, still due, so the next caller's key tries.
    return stale ?? { value: noDoc, etag: undefined, expiresAt: now() };
  }

  return {
    name: 'discovery',
    async lookup(db, model, method, origin, callerKey): Promise<MethodSignature | ModelAbsent | undefined> {
      try {
        let asked = false;
        const entry = await cache.resolve(`${db}\u0000${model}`, (stale) => {
          asked = true;
          return refresh(db, model, stale, origin, callerKey);
        });
        // Only an answer fetched for this call says the model is absent: a cached one may be stale
        // (a module installed since), so later calls send theirs and Odoo answers them.
        if (entry.value.absent && asked) return modelAbsent;
        return entry.value.methods.get(method);
      } catch (err) {
        log.warn(
          { db, model, error: err instanceof Error ? err.message : String(err) },
          'signature discovery failed unexpectedly; the next signature source serves',
        );
        return undefined;
      }
    },
  };
}
