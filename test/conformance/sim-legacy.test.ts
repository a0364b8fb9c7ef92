/**
 * The simulator's own legacy endpoints (`sim/legacy/`) checked against Odoo's own legacy
 * answers: the corpus's legacy requests replayed straight at the simulator (no gateway), compared by
 * the runner's rules. Every case shadow mode could sample must match (or be a known gap of the
 * simulator's model layer, `not-modelled-cases.ts`), so a shadow test's "equal" means the gateway
 * agrees with answers shaped like Odoo's. The perturbation switch must make some of them fail.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type Perturbation, type Simulator } from '../../sim/index.ts';
import { defaultShadowMethods } from '../../src/cutover/shadow/index.ts';
import { viewAnswer } from '../../src/cutover/shadow/answer-view.ts';
import { isRefusedLogin, mayShadow } from '../../src/cutover/shadow/policy.ts';
import type { Dialect } from '../../src/call.ts';
import { classify } from './classify.ts';
import { decodeLegacyCall } from './legacy-call.ts';
import { loadCases, orderCases, scopeOf, type ConformanceCase } from './load-cases.ts';
import { notModelledById } from './not-modelled-cases.ts';
import { runCorpus } from './run-corpus.ts';
import { keyStoreOf } from './suite.ts';

const cases = orderCases(loadCases());

/**
 * Shadowable cases whose recorded answer shows the effect of `db` management calls earlier in the
 * corpus (create, duplicate, restore, drop), which the simulator's legacy endpoint does not model:
 * the list of databases cannot be the recorded one.
 */
const afterDatabaseManagement: ReadonlySet<string> = new Set(['db-list-after-restore-xmlrpc2', 'db-list-final-xmlrpc2']);
const allowlist = new Set(defaultShadowMethods);
const sims: Simulator[] = [];
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

/** Whether shadow mode could sample this recorded call (the gateway answering as Odoo did). */
function shadowable(c: ConformanceCase): boolean {
  const legacy = c.legacy;
  if (legacy === undefined || scopeOf(c).kind !== 'legacy' || c.id.startsWith('later-') || afterDatabaseManagement.has(c.id)) return false;
  const call = decodeLegacyCall(c.protocol, legacy.path, legacy.requestBody);
  if (call === undefined) return false;
  const answer = viewAnswer(c.protocol as Dialect, legacy.responseBody);
  const outcome = {
    service: call.service,
    method: call.method,
    modelMethod: call.object?.method,
    ...(answer.kind === 'fault' && answer.accessDenied ? { error: { kind: 'access_denied' } } : {}),
  } as Parameters<typeof mayShadow>[0] & object;
  return mayShadow(outcome, allowlist) && !isRefusedLogin(outcome, answer);
}

async function replay(perturb: Perturbation | undefined) {
  const sim = await startSimulator({ databases: ['gw', 'gw2'], legacyEndpoints: { perturb } });
  sims.push(sim);
  const outcomes = await runCorpus({
    sim,
    gatewayUrl: sim.url,
    cases,
    keyStore: keyStoreOf(sim),
    only: (c) => scopeOf(c).kind === 'legacy' && !c.id.startsWith('later-'),
  });
  const notModelled = notModelledById();
  return outcomes
    .filter((o) => shadowable(o.case))
    .map((o) => {
      // the runner also checks the gateway's upstream request, which a direct replay does not make
      const differences = o.differences.filter((d) => d.path !== 'upstream');
      // a known gap of the model layer stays one here: JSON-2 and the legacy endpoint share that layer
      return classify({ ...o, differences, relativeDifferences: [] }, new Map(), notModelled);
    });
}

describe("the simulator's legacy endpoints against the corpus", () => {
  it('answer every case shadow mode could sample as Odoo did (or as a known gap of the model layer)', async () => {
    const outcomes = await replay(undefined);
    const failing = outcomes
      .filter((o) => o.class === 'failed')
      .map((o) => `${o.case.id}: ${o.differences.map((d) => `${d.path}: ${d.message}`).join('; ')}`);
    const passed = outcomes.filter((o) => o.class === 'passed').length;
    console.log(
      `simulator legacy endpoints: ${passed} of ${outcomes.length} shadowable corpus cases match, ${outcomes.length - passed - failing.length} are known model-layer gaps`,
    );
    expect(failing).toEqual([]);
    expect(passed).toBeGreaterThan(60);
  }, 120_000);

  it('fail cases holding a float once the perturbation switch writes floats as ints', async () => {
    const outcomes = await replay('double-as-int');
    const failing = outcomes.filter((o) => o.class === 'failed').map((o) => o.case.id);
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.every((id) => outcomes.find((o) => o.case.id === id)?.differences.some((d) => /int|float|double/.test(d.message)))).toBe(
      true,
    );
  }, 120_000);
});
