/**
 * One conformance run end to end: a fresh simulator (databases `gw` and `gw2`, like the recorded
 * server) and the real gateway in front of it over HTTP, the corpus in recorded order, then the
 * classification and the report. Used by `conformance.test.ts`, the mutation test and `run.ts`.
 */
import { notModelled, type Simulator } from '../../sim/index.ts';
import type { GatewayOptions } from '../../src/server/gateway.ts';
import { startStack } from '../support/stack.ts';
import { classify, loadDeviations, type ClassifiedOutcome } from './classify.ts';
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

/** Runs the whole corpus once against a fresh simulator and gateway. */
export async function runSuite(options: SuiteOptions = {}): Promise<SuiteResult> {
  const started = performance.now();
  const cases = orderCases(loadCases());
  const stack = await startStack({ databases: ['gw', 'gw2'], ...(options.gateway === undefined ? {} : { gateway: options.gateway }) });
  try {
    const notModelledMap = notModelledById();
    const relativeCheck = new Set(notModelledCases.filter((e) => e.cause === 'corpus').map((e) => e.id));
    const outcomes = await runCorpus({
      sim: stack.sim,
      gatewayUrl: stack.gateway.url,
      cases,
      keyStore: keyStoreOf(stack.sim),
      relativeCheck,
      ...(options.only === undefined ? {} : { only: options.only }),
    });
    const deviations = loadDeviations();
    const classified = outcomes.map((o) => classify(o, deviations, notModelledMap));
    const durationMs = performance.now() - started;
    const sections = new Set(sectionsOf(cases)).size;
    const report = buildReport(classified, { notModelledEntries: notModelledCases, simNotModelled: notModelled(), sections, durationMs });
    return { outcomes: classified, report, durationMs };
  } finally {
    await stack.close();
  }
}
