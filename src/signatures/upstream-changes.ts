/**
 * Methods that no longer mean on the upstream what they meant on Odoo 19.0 (docs/successors.md,
 * "A legacy call keeps its 19.0 meaning"). A legacy call is always bound by 19.0's signature where
 * the built-in table knows the method; when the upstream's method of that name has other parameters
 * (20.0's `read_group(domain, groupby, aggregates, …)` in place of 19.0's `read_group(domain, fields,
 * groupby, …)`), sending 19.0's arguments to it would be refused or, worse, mean something else. The
 * method then counts as changed for that database, and the object service answers it through its
 * successor or refuses it with a fault that names the change: it is never re-bound.
 *
 * Three things tell, whichever comes first:
 * - the upstream's series (`/web/version`) is one that removed or redefined the method
 *   (src/odoo-timeline.ts);
 * - `/doc-bearer` lists parameters whose meaning differs from 19.0's ({@link meaningDiffers});
 * - the upstream refuses one of 19.0's own parameters (JSON-2's 422 "unexpected keyword argument",
 *   or "missing a required argument" for one 19.0 did not have): JSON-2 binds before it runs the
 *   method, so nothing ran and the call can still be answered another way.
 * None of them applies in front of a 19.0 upstream, whose own overrides are what a legacy call meets
 * natively: there, nothing changes.
 */
import { LRUCache } from 'lru-cache';
import { LegacyError, pythonError } from '../errors.ts';
import { methodChangeOf, parseSeries, removalText, seriesHas } from '../odoo-timeline.ts';
import type { MethodSignature, Param, UpstreamChange } from './signature.ts';

export type { UpstreamChange };

/**
 * True when `series` is 19.0, the table's own: its overrides are what a legacy call meets natively,
 * so no upstream difference counts as a change there.
 */
export function isTableSeries(series: string | undefined): boolean {
  if (series === lastSeries.name) return lastSeries.table;
  const parsed = series === undefined ? undefined : parseSeries(series);
  lastSeries = { name: series, table: parsed !== undefined && !parsed[2] && parsed[0] === 19 && parsed[1] === 0 };
  return lastSeries.table;
}

// read on every model call, and the series changes only when Odoo is upgraded
let lastSeries: { name: string | undefined; table: boolean } = { name: undefined, table: false };

/** `(domain, fields, groupby, offset=0, *, order=None, **kwargs)`, as Python prints a signature. */
export function paramsText(sig: Pick<MethodSignature, 'params'>): string {
  const out: string[] = [];
  let starred = false;
  for (const p of sig.params) {
    if (p.kind === 'KEYWORD_ONLY' && !starred) out.push('*');
    if (p.kind === 'VAR_POSITIONAL' || p.kind === 'KEYWORD_ONLY') starred = true;
    const prefix = p.kind === 'VAR_POSITIONAL' ? '*' : p.kind === 'VAR_KEYWORD' ? '**' : '';
    out.push(`${prefix}${p.name}${p.default === undefined ? '' : `=${p.default}`}`);
  }
  const slash = sig.params.findLastIndex((p) => p.kind === 'POSITIONAL_ONLY');
  if (slash >= 0) out.splice(slash + 1, 0, '/');
  return `(${out.join(', ')})`;
}

/** A default's text with JSON's list for Python's tuple (`/doc-bearer` sends `()` as `[]`). */
function defaultKey(text: string): string {
  const t = text.trim();
  if (t === '()') return '[]';
  return t;
}

const simpleDefault = /^(None|True|False|-?\d+(\.\d+)?|'[^']*'|"[^"]*"|\[\]|\(\)|\{\})$/;

/** True when two defaults differ in a way a caller who leaves the parameter out would meet. */
function defaultsDiffer(a: Param, b: Param): boolean {
  if ((a.default === undefined) !== (b.default === undefined)) return true;
  if (a.default === undefined || b.default === undefined) return false;
  // only texts both sides print the same way are compared: an object's repr is not
  if (!simpleDefault.test(a.default.trim()) || !simpleDefault.test(b.default.trim())) return false;
  return defaultKey(a.default) !== defaultKey(b.default);
}

const byName = (kind: Param['kind']) => kind === 'POSITIONAL_OR_KEYWORD' || kind === 'KEYWORD_ONLY';

/**
 * Why a 19.0 call bound by `v19`'s names would not mean the same to `upstream`, or undefined when
 * it would. The gateway sends arguments by name, so an upstream that reorders parameters or adds
 * optional ones still means the same; one that drops or renames a 19.0 parameter, changes its
 * default or adds a required one does not. (Whether it takes ids stays the table's: `/doc-bearer`
 * reads `api` on the definition, the table on the override that runs.) A 19.0 signature
 * with `*args` or `**kwargs` is the running override's, and the document describes the definition
 * it calls (`message_post`): their difference is 19.0's own, never a change.
 */
export function meaningDiffers(v19: MethodSignature, upstream: MethodSignature): string | undefined {
  if (v19.params.some((p) => p.kind === 'VAR_POSITIONAL' || p.kind === 'VAR_KEYWORD')) return undefined;
  const theirs = new Map(upstream.params.map((p) => [p.name, p]));
  for (const mine of v19.params) {
    const other = theirs.get(mine.name);
    if (other === undefined || !byName(other.kind)) return `it has no parameter '${mine.name}'`;
    if (defaultsDiffer(mine, other))
      return `its parameter '${mine.name}' defaults to ${other.default ?? 'nothing'}, not ${mine.default ?? 'nothing'}`;
  }
  const ours = new Set(v19.params.map((p) => p.name));
  const required = upstream.params.find((p) => byName(p.kind) && p.default === undefined && !ours.has(p.name));
  if (required !== undefined) return `it requires a parameter '${required.name}' that 19.0 did not have`;
  return undefined;
}

/** The 19.0 parameter a JSON-2 binding refusal names, when it is one of `v19`'s own. */
function refusedParameter(v19: MethodSignature, err: unknown): string | undefined {
  if (!(err instanceof LegacyError) || err.name !== 'werkzeug.exceptions.UnprocessableEntity') return undefined;
  if (v19.params.some((p) => p.kind === 'VAR_KEYWORD')) return undefined;
  const unexpected = /^got an unexpected keyword argument '(.*)'$/s.exec(err.message);
  if (unexpected !== null) return v19.params.some((p) => p.name === unexpected[1] && byName(p.kind)) ? unexpected[1] : undefined;
  const missing = /^missing a required argument: '(.*)'$/s.exec(err.message);
  // a parameter 19.0 did not require: the call was complete for 19.0
  if (missing !== null && !v19.params.some((p) => p.name === missing[1] && p.default === undefined)) return missing[1];
  return undefined;
}

export interface UpstreamChanges {
  /**
   * The change of `model.method` on this upstream, or undefined when a 19.0 call means there what
   * it meant on 19.0. `series` is the upstream's (`server_serie`), undefined when unknown.
   */
  changeOf(db: string, model: string, method: string, series: string | undefined): UpstreamChange | undefined;
  /** Compares 19.0's signature with the one `/doc-bearer` lists, and remembers a change. */
  noteListed(
    db: string,
    model: string,
    method: string,
    v19: MethodSignature,
    listed: MethodSignature,
    series: string | undefined,
  ): UpstreamChange | undefined;
  /** A JSON-2 refusal of a call bound by 19.0's signature: remembers and returns the change it shows, if it shows one. */
  learnRefusal(
    db: string,
    model: string,
    method: string,
    v19: MethodSignature,
    err: unknown,
    series: string | undefined,
  ): UpstreamChange | undefined;
}

function upstreamName(series: string | undefined): string {
  return series === undefined ? 'the upstream (Odoo of unknown version)' : `the upstream (Odoo ${series})`;
}

export interface UpstreamChangesOptions {
  /** Slots (database, model, method) remembered at most: names are chosen by clients. Default 10 000. */
  max?: number;
  /** Hears each change the first time it is met for a database and method (the log says it once). */
  onChange?: (db: string, model: string, method: string, change: UpstreamChange) => void;
}

/** Creates the per-database memory of changed methods. */
export function createUpstreamChanges(options: UpstreamChangesOptions = {}): UpstreamChanges {
  const max = options.max ?? 10_000;
  const learned = new LRUCache<string, UpstreamChange>({ max });
  const told = new LRUCache<string, true>({ max });
  const slot = (db: string, model: string, method: string) => JSON.stringify([db, model, method]);
  const verdicts = new WeakMap<MethodSignature, { qualname: string; why: string | undefined }>();
  const tell = (db: string, model: string, method: string, change: UpstreamChange | undefined): UpstreamChange | undefined => {
    if (change === undefined || options.onChange === undefined) return change;
    const key = slot(db, model, method);
    if (!told.has(key)) {
      told.set(key, true);
      options.onChange(db, model, method, change);
    }
    return change;
  };

  return {
    changeOf(db, model, method, series) {
      if (isTableSeries(series)) return undefined;
      const known = learned.size === 0 ? undefined : learned.get(slot(db, model, method));
      if (known !== undefined) return known;
      const change = methodChangeOf(model, method);
      if (change === undefined || series === undefined || !seriesHas(series, change)) return undefined;
      const done = change.kind === 'removed' ? 'removed it' : `redefined it with other parameters and another answer`;
      return tell(db, model, method, {
        evidence: 'series',
        what: `Odoo ${series} no longer has 19.0's ${model}.${method}(): ${removalText(change)} ${done} (${change.source})`,
        replacement: change.replacement,
      });
    },
    noteListed(db, model, method, v19, listed, series) {
      if (isTableSeries(series)) return undefined;
      // the listing is discovery's cached object: compared once while the document is fresh
      let compared = verdicts.get(listed);
      if (compared?.qualname !== v19.qualname) {
        compared = { qualname: v19.qualname, why: meaningDiffers(v19, listed) };
        verdicts.set(listed, compared);
      }
      const { why } = compared;
      if (why === undefined) return undefined;
      const change: UpstreamChange = {
        evidence: 'doc-bearer',
        what: `${upstreamName(series)} lists ${model}.${method}${paramsText(listed)} where Odoo 19.0 has ${method}${paramsText(v19)}: ${why}`,
        ...replacementOf(model, method),
      };
      learned.set(slot(db, model, method), change);
      return tell(db, model, method, change);
    },
    learnRefusal(db, model, method, v19, err, series) {
      if (isTableSeries(series)) return undefined;
      const param = refusedParameter(v19, err);
      if (param === undefined) return undefined;
      const change: UpstreamChange = {
        evidence: 'refused-parameter',
        what: `${upstreamName(series)} refused ${model}.${method}() bound by Odoo 19.0's signature ${paramsText(v19)} (${(err as LegacyError).message})`,
        ...replacementOf(model, method),
      };
      learned.set(slot(db, model, method), change);
      return tell(db, model, method, change);
    },
  };
}

function replacementOf(model: string, method: string): { replacement?: string } {
  const replacement = methodChangeOf(model, method)?.replacement;
  return replacement === undefined ? {} : { replacement };
}

/**
 * The fault for a changed method no successor answers: names the change and what to call instead;
 * never a call bound against a signature that means something else.
 */
export function changedMethodFault(model: string, method: string, change: UpstreamChange): LegacyError {
  const instead =
    change.replacement === undefined ? `Call it over JSON-2 with the upstream's parameters` : `Call ${change.replacement} instead`;
  return pythonError(
    'NotImplementedError',
    `legacy-rpc-gateway will not call ${model}.${method}() with Odoo 19.0's arguments: ${change.what}. ${instead}.`,
  );
}
