/**
 * One conformance run end to end: a fresh simulator (databases `gw` and `gw2`, like the recorded
 * server) and the real gateway in front of it over HTTP, the corpus in recorded order, then the
 * classification and the report. The `later-*` cases run on a second simulator with the later 19.0
 * build's rules (database `ng`). Both share one clock with their gateway, moved to each case's
 * recording time. Used by `conformance.test.ts`, the mutation test and `run.ts`.
 */
import { notModelled, type Simulator } from '../../sim/index.ts';
import type { GatewayOptions } from '../../src/server/gateway.ts';
import { createTestClock } from '../support/clock.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { classify, loadDeviations, type CaseOutcome, type ClassifiedOutcome } from './classify.ts';
import { loadCases, orderCases, sectionsOf, type ConformanceCase } from './load-cases.ts';
import { notModelledById, notModelledCases } from './not-modelled-cases.ts';
import { buildReport } from './report.ts';
import { runCorpus, type KeyStoreAccess } from './run-corpus.ts';

/** Options of {@link runSuite}. */
export interface SuiteOptions {
  /** Gateway options (the mutation test injects a changed signature table). */
  gateway?: GatewayOptions;
  /** Replay only these cases (sections still reset as recorded). */
  only?: (c: ConformanceCase) => boolean;
}

/** The classified outcomes of one run, its report and how long it took. */
export interface SuiteResult {
  outcomes: ClassifiedOutcome[];
  report: string;
  durationMs: number;
}

/** The simulator's key store behind the runner's narrow interface. */
export function keyStoreOf(sim: Simulator): KeyStoreAccess {
  return {
    add(db, spec) {
      const user = sim.users(db).find((u) => u.login === spec.login);
      if (user === undefined) throw new Error(`no user ${spec.login} in ${db}`);
      return sim.keys.add({ uid: user.uid, name: `conformance ${spec.placeholder}`, scope: spec.scope, expiration: spec.expiration }).key;
    },
    remove(key) {
      sim.keys.removeKey(key);
    },
  };
}

/** Recorded on the later 19.0 build (public `generate`/`revoke`). */
const isLaterBuildCase = (c: ConformanceCase): boolean => c.id.startsWith('later-');

/**
 * A simulator and a gateway sharing a clock. The gateway has a service key (admin's), so object
 * calls with a password can find their uid's login (docs/architecture.md §5 step 4).
 */
async function startCorpusStack(
  databases: string[],
  laterBuild: boolean,
  gateway: GatewayOptions | undefined,
): Promise<{ stack: Stack; setClock: (ms: number) => void }> {
  const clock = createTestClock('2026-11-21T22:00:00Z');
  const stack = await startStack({
    databases,
    sim: { laterBuild, now: clock.date },
    gateway: { ...gateway, now: clock.now },
    flags: (sim) => ['--service-key', sim.keyFor('gw', 'admin')],
  });
  return { stack, setClock: (ms) => clock.set(new Date(ms).toISOString()) };
}

/** Runs the whole corpus once against fresh simulators and gateways. */
export async function runSuite(options: SuiteOptions = {}): Promise<SuiteResult> {
  const started = performance.now();
  const cases = orderCases(loadCases());
  const main = await startCorpusStack(['gw', 'gw2'], false, options.gateway);
  const later = await startCorpusStack(['gw', 'ng'], true, options.gateway);
  const stack = main.stack;
  try {
    const notModelledMap = notModelledById();
    const relativeCheck = new Set(notModelledCases.filter((e) => e.cause === 'corpus').map((e) => e.id));
    const selected = (c: ConformanceCase) => options.only === undefined || options.only(c);
    const run = (s: { stack: Stack; setClock: (ms: number) => void }, only: (c: ConformanceCase) => boolean): Promise<CaseOutcome[]> =>
      runCorpus({
        sim: s.stack.sim,
        gatewayUrl: s.stack.gateway.url,
        cases,
        keyStore: keyStoreOf(s.stack.sim),
        relativeCheck,
        setClock: s.setClock,
        only,
      });
    const earlier = await run(main, (c) => !isLaterBuildCase(c) && selected(c));
    const laterOutcomes = await run(later, (c) => isLaterBuildCase(c) && selected(c));
    const outcomes = earlier.map((o, i) => (isLaterBuildCase(o.case) ? (laterOutcomes[i] ?? o) : o));
    const deviations = loadDeviations();
    const classified = outcomes.map((o) => classify(o, deviations, notModelledMap));
    const durationMs = performance.now() - started;
    const sections = new Set(sectionsOf(cases)).size;
    const report = buildReport(classified, { notModelledEntries: notModelledCases, simNotModelled: notModelled(), sections, durationMs });
    return { outcomes: classified, report, durationMs };
  } finally {
    await stack.close();
    await later.stack.close();
  }
}
