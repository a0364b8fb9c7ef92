/**
 * Successors of the public methods Odoo 19.0 had and later versions removed (`read_group`,
 * `toggle_active`, `ir.http.get_currencies`, `check_access_rights`, `check_access_rule`,
 * `check_field_access_rights`): the legacy call is answered
 * through the successor, with exactly what 19.0 would have answered (docs/successors.md).
 *
 * `auto` sends the call as it is until the upstream answers that the method does not exist, then
 * remembers that for the database and translates from there on; `always` translates every call
 * (to check a translation against an upstream that still has the method); `off` never translates.
 */
import { LRUCache } from 'lru-cache';
import { callKey, type CallOrigin } from '../call.ts';
import { LegacyError } from '../errors.ts';
import type { Upstream } from '../upstream/index.ts';
import { isStruct, type Struct, type Value } from '../value.ts';
import {
  checkAccessRightsThroughSuccessor,
  checkAccessRuleThroughSuccessor,
  checkFieldAccessRightsThroughSuccessor,
  getCurrenciesThroughSuccessor,
  type MethodDeps,
  toggleActiveThroughSuccessor,
} from './other-methods.ts';
import { type FieldInfo, readGroupThroughSuccessor } from './read-group.ts';

/** The successor method that answered a call (`--successors`), for the migration report. */
export const servedBySuccessor = callKey<string | undefined>('served by successor', undefined);

export const successorModes = ['auto', 'always', 'off'] as const;
export type SuccessorMode = (typeof successorModes)[number];

interface SuccessorEntry {
  /** Only this model has the method (undefined: every model, a BaseModel method). */
  model?: string;
  run(model: string, args: Struct, deps: MethodDeps): Promise<Value>;
}

/** The legacy methods with a successor: a fixed set (it bounds the metric's label). */
const successors: Record<string, SuccessorEntry> = {
  read_group: { run: readGroupThroughSuccessor },
  toggle_active: { run: toggleActiveThroughSuccessor },
  get_currencies: { model: 'ir.http', run: getCurrenciesThroughSuccessor },
  check_access_rights: { run: checkAccessRightsThroughSuccessor },
  check_access_rule: { run: checkAccessRuleThroughSuccessor },
  check_field_access_rights: { run: checkFieldAccessRightsThroughSuccessor },
};

export const successorMethodNames: readonly string[] = Object.keys(successors);

export interface SuccessorCall {
  db: string;
  key: string;
  model: string;
  method: string;
  /** The JSON-2 body the call bound to with 19.0's signature (`ids`, `context`, named arguments). */
  body: Struct;
}

export interface Successors {
  /** True when this call is to be answered through its successor without asking for the method. */
  routes(db: string, model: string, method: string): boolean;
  /**
   * True when a successor answers `model.method` (and `--successors` is not off): where the upstream
   * changed the method since 19.0, the call is then served through it instead of refused.
   */
  answers(model: string, method: string): boolean;
  /** The upstream's answer to the method itself: true (and remembered for `db`) when it says the method is gone and a successor exists. */
  learnGone(db: string, model: string, method: string, err: unknown): boolean;
  serve(call: SuccessorCall, origin: CallOrigin): Promise<Value>;
  /** Methods known to be gone, as `db: method` (for the report and tests). */
  gone(): string[];
}

export interface SuccessorOptions {
  mode: SuccessorMode;
  upstream: Pick<Upstream, 'json2'>;
  /** One call answered through a successor (metrics). */
  onServed?: (origin: CallOrigin, method: string) => void;
  /**
   * The key `fields_get` is asked with (`--service-key`): an administrator sees every field and its
   * aggregator, as `read_group` itself does; without one, the caller's key.
   */
  metadataKey?: (db: string) => string | undefined;
  /** How long a model's field list is reused, in ms. */
  fieldsTtlMs?: number;
}

const fieldAttributes = ['type', 'store', 'aggregator', 'related', 'relation'];

function entryFor(model: string, method: string): SuccessorEntry | undefined {
  const entry = Object.hasOwn(successors, method) ? successors[method] : undefined;
  return entry !== undefined && (entry.model === undefined || entry.model === model) ? entry : undefined;
}

function fieldInfo(v: Value): FieldInfo | undefined {
  if (!isStruct(v)) return undefined;
  const str = (name: string) => (typeof v.get(name) === 'string' ? (v.get(name) as string) : undefined);
  return {
    type: str('type') ?? '',
    store: v.get('store') === true,
    aggregator: str('aggregator'),
    related: str('related'),
    relation: str('relation'),
  };
}

/** The upstream's "does not exist" answer for a public method (JSON-2's 404 from `get_public_method`). */
export function isMethodGone(err: unknown, model: string, method: string): boolean {
  return (
    err instanceof LegacyError &&
    err.name === 'werkzeug.exceptions.NotFound' &&
    err.message === `The method '${model}.${method}' does not exist`
  );
}

export function createSuccessors(options: SuccessorOptions): Successors {
  const goneMethods = new LRUCache<string, true>({ max: 10_000 });
  const fieldsCache = new LRUCache<string, Promise<Map<string, FieldInfo>>>({ max: 2_000, ttl: options.fieldsTtlMs ?? 60_000 });
  const goneKey = (db: string, model: string, method: string) => JSON.stringify([db, entryFor(model, method)?.model ?? '', method]);

  return {
    routes(db, model, method) {
      if (options.mode === 'off' || entryFor(model, method) === undefined) return false;
      return options.mode === 'always' || goneMethods.has(goneKey(db, model, method));
    },
    answers: (model, method) => options.mode !== 'off' && entryFor(model, method) !== undefined,
    learnGone(db, model, method, err) {
      if (options.mode === 'off' || entryFor(model, method) === undefined || !isMethodGone(err, model, method)) return false;
      goneMethods.set(goneKey(db, model, method), true);
      return true;
    },
    async serve(call, origin) {
      const entry = entryFor(call.model, call.method);
      if (entry === undefined) throw new Error(`no successor for ${call.method}`);
      const ask = (model: string, method: string, body: Struct) =>
        options.upstream.json2({ db: call.db, key: call.key, model, method, body }, origin);
      const fields = (model: string): Promise<Map<string, FieldInfo>> => {
        const cacheKey = JSON.stringify([call.db, model, options.metadataKey?.(call.db) === undefined ? call.key : '']);
        let cached = fieldsCache.get(cacheKey);
        if (cached === undefined) {
          const key = options.metadataKey?.(call.db) ?? call.key;
          const body = new Map<string, Value>([['attributes', fieldAttributes]]);
          cached = options.upstream.json2({ db: call.db, key, model, method: 'fields_get', body }, origin).then((answer) => {
            const out = new Map<string, FieldInfo>();
            if (isStruct(answer))
              for (const [name, v] of answer) {
                const info = fieldInfo(v);
                if (info !== undefined) out.set(name, info);
              }
            return out;
          });
          fieldsCache.set(cacheKey, cached);
          cached.catch(() => fieldsCache.delete(cacheKey));
        }
        return cached;
      };
      const serviceKey = options.metadataKey?.(call.db);
      const askAsService =
        serviceKey === undefined
          ? undefined
          : (model: string, method: string, body: Struct) =>
              options.upstream.json2({ db: call.db, key: serviceKey, model, method, body }, origin);
      // counted whatever it answers: a fault through the successor is served by it too
      origin.values.set(servedBySuccessor, call.method);
      options.onServed?.(origin, call.method);
      return entry.run(call.model, call.body, { ask, fields, askAsService });
    },
    gone: () =>
      [...goneMethods.keys()].map((k) => {
        const [db, model, method] = JSON.parse(k) as [string, string, string];
        return `${db}: ${model === '' ? method : `${model}.${method}`}`;
      }),
  };
}
