/**
 * The routes in force, swapped whole on a reload (SIGHUP or the admin endpoint): the file is read
 * and validated first, and a file that does not validate is refused with the routes in force kept.
 * A call takes one snapshot when it starts (`current()`) and keeps it, so calls in flight finish
 * under the routes they started with. Each change is logged: rules added, removed, moved or changed
 * (by name, mode and which selectors changed — selector values stay out of the log).
 */
import type { Logger } from '../../log.ts';
import { compileRoutes, type Routes } from './match.ts';
import { readRoutesFile, type RouteMode, type RouteRule } from './routes-file.ts';

export type ReloadResult = { ok: true; changes: string[] } | { ok: false; problems: string[] };

export interface RouteTable {
  /** The snapshot a call starting now is served under. */
  current(): Routes;
  /** Reads the file again; swaps the routes when it validates. */
  reload(trigger: string): ReloadResult;
  /** The file, for status pages. */
  readonly file: string | undefined;
}

/** What differs between two rule lists, by rule name. */
export function routeChanges(before: readonly RouteRule[], after: readonly RouteRule[]): string[] {
  const old = new Map(before.map((r, i) => [r.name, { r, i }]));
  const changes: string[] = [];
  after.forEach((r, i) => {
    const was = old.get(r.name);
    if (was === undefined) {
      changes.push(`added ${JSON.stringify(r.name)} (${r.mode}) at position ${i + 1}`);
      return;
    }
    old.delete(r.name);
    if (was.r.mode !== r.mode) changes.push(`${JSON.stringify(r.name)}: ${was.r.mode} → ${r.mode}`);
    const keys = new Set([...Object.keys(was.r.match), ...Object.keys(r.match)]) as Set<keyof RouteRule['match']>;
    const changed = [...keys].filter((k) => JSON.stringify(was.r.match[k]) !== JSON.stringify(r.match[k]));
    if (changed.length > 0) changes.push(`${JSON.stringify(r.name)}: selectors changed (${changed.join(', ')})`);
    if (was.i !== i) changes.push(`${JSON.stringify(r.name)}: moved from position ${was.i + 1} to ${i + 1}`);
  });
  for (const { r } of old.values()) changes.push(`removed ${JSON.stringify(r.name)} (${r.mode})`);
  return changes;
}

/**
 * The route table of `file` (undefined: no rules, every call in `defaultMode`). Throws the
 * problems of a file that does not validate at start (the caller stops the start).
 */
export function createRouteTable(file: string | undefined, defaultMode: RouteMode, log: Logger): RouteTable {
  const first = file === undefined ? [] : readRoutesFile(file);
  if (!Array.isArray(first)) throw new RoutesFileError(first.problems);
  let routes = compileRoutes(first, defaultMode);
  return {
    file,
    current: () => routes,
    reload(trigger) {
      if (file === undefined) return { ok: false, problems: ['no --routes-file to reload'] };
      const next = readRoutesFile(file);
      if (!Array.isArray(next)) {
        log.warn({ trigger, file, problems: next.problems }, 'routes file refused: the routes in force stay');
        return { ok: false, problems: next.problems };
      }
      const changes = routeChanges(routes.rules, next);
      routes = compileRoutes(next, defaultMode);
      log.info({ trigger, file, rules: next.length, changes }, changes.length === 0 ? 'routes reloaded: no change' : 'routes reloaded');
      return { ok: true, changes };
    },
  };
}

/** A routes file that does not validate at start. */
export class RoutesFileError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'RoutesFileError';
  }
}
