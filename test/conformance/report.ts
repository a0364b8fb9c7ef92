/**
 * The conformance report, as plain text: counts per class, each failure with its differences,
 * deviations and not-modelled cases with their reasons, the simulator's own not-modelled list and
 * the cross-check of the two lists.
 */
import type { NotModelled } from '../../sim/index.ts';
import type { CaseClass, ClassifiedOutcome } from './classify.ts';
import type { NotModelledEntry } from './not-modelled-cases.ts';

/** Counts per class. */
export function countClasses(outcomes: readonly ClassifiedOutcome[]): Record<CaseClass, number> {
  const counts: Record<CaseClass, number> = {
    passed: 0,
    failed: 0,
    deviation: 0,
    'not-modelled': 0,
    'json2-passed': 0,
    'json2-failed': 0,
    'out-of-scope': 0,
  };
  for (const o of outcomes) {
    counts[o.class]++;
  }
  return counts;
}

/** Topics of `not-modelled-cases.ts` entries that `sim/not-modelled.ts` does not list. */
export function crossCheckTopics(entries: readonly NotModelledEntry[], simList: readonly NotModelled[]): string[] {
  const topics = new Set(simList.map((n) => n.topic));
  return entries
    .filter((e) => e.cause === 'simulator' && (e.topic === undefined || !topics.has(e.topic)))
    .map((e) => `${e.id}: topic ${JSON.stringify(e.topic ?? '(none)')} is not in sim/not-modelled.ts`);
}

function differencesText(o: ClassifiedOutcome, max = 6): string[] {
  const lines = o.differences.slice(0, max).map((d) => `      ${d.path}: ${d.message}`);
  if (o.differences.length > max) lines.push(`      … ${o.differences.length - max} more`);
  return lines;
}

/** Builds the report text. */
export function buildReport(
  outcomes: readonly ClassifiedOutcome[],
  context: {
    notModelledEntries: readonly NotModelledEntry[];
    simNotModelled: readonly NotModelled[];
    sections: number;
    durationMs?: number;
  },
): string {
  const c = countClasses(outcomes);
  const json2 = c['json2-passed'] + c['json2-failed'];
  const out: string[] = [];
  const section = (title: string, items: readonly ClassifiedOutcome[], render: (o: ClassifiedOutcome) => string[]) => {
    if (items.length === 0) return;
    out.push('', `${title} (${items.length}):`);
    for (const o of items) out.push(...render(o));
  };
  const head = (o: ClassifiedOutcome) => `  - ${o.case.id} [${o.case.protocol}]`;

  out.push(
    `Conformance report: legacy-rpc-gateway against ${outcomes.length} recorded Odoo 19.0 cases${context.durationMs === undefined ? '' : ` (${Math.round(context.durationMs)} ms)`}`,
  );
  out.push(
    `  passed ${c.passed} | failed ${c.failed} | intended deviations ${c.deviation} | not modelled ${c['not-modelled']} | ` +
      `upstream-only ${json2} (JSON-2 and web-session exchanges checked against the simulator: ${c['json2-passed']} match the recording, ${c['json2-failed']} differ) | out of scope ${c['out-of-scope']}`,
  );
  out.push(
    '',
    "Passwords are replayed as recorded: the gateway trades them for API keys it mints (docs/architecture.md §5); the later-* cases run on a simulator with the later 19.0 build's rules.",
  );
  out.push(
    '',
    `Order: Date headers, then JSON-RPC ids, id sequences and hints inside a second (INDEX.md's table is sorted by id); ` +
      `${context.sections} recording sections, the simulator is reset at each boundary.`,
  );

  section(
    'Failed',
    outcomes.filter((o) => o.class === 'failed'),
    (o) => [`${head(o)}${o.reason === undefined ? '' : ` — ${o.reason}`}`, ...differencesText(o)],
  );
  section(
    'Upstream (json2, web-session) cases where the simulator differs from the recording',
    outcomes.filter((o) => o.class === 'json2-failed'),
    (o) => [head(o), ...differencesText(o, 3)],
  );
  section(
    'Intended deviations (COMPATIBILITY.md)',
    outcomes.filter((o) => o.class === 'deviation'),
    (o) => [
      `${head(o)} — ${o.reason ?? ''}`,
      ...(o.differences.length === 0 ? ['      (answers exactly as recorded)'] : differencesText(o, 2)),
    ],
  );
  section(
    'Not modelled',
    outcomes.filter((o) => o.class === 'not-modelled'),
    (o) => {
      const entry = context.notModelledEntries.find((e) => e.id === o.case.id);
      const corpusTag =
        o.scope.kind === 'legacy' ? " [corpus state; the gateway agrees with the simulator's own JSON-2 answer]" : ' [corpus state]';
      const tag = entry === undefined ? '' : entry.cause === 'corpus' ? corpusTag : ` [sim: ${entry.topic ?? '?'}]`;
      return [`${head(o)} — ${o.reason ?? ''}${tag}`, ...differencesText(o, 2)];
    },
  );
  section(
    'Stale listings',
    outcomes.filter((o) => o.stale !== undefined),
    (o) => [`${head(o)} — ${o.stale ?? ''}`],
  );

  const outOfScope = outcomes.filter((o) => o.class === 'out-of-scope');
  if (outOfScope.length > 0) {
    out.push('', `Out of scope (${outOfScope.length}):`);
    const byReason = new Map<string, string[]>();
    for (const o of outOfScope) byReason.set(o.reason ?? '', [...(byReason.get(o.reason ?? '') ?? []), o.case.id]);
    for (const [reason, ids] of byReason) out.push(`  - ${reason} (${ids.length}): ${ids.join(', ')}`);
  }

  const setup = outcomes.flatMap((o) =>
    o.notes.filter((n) => /stand-in|equivalent key|removed through/.test(n)).map((n) => `  - ${o.case.id}: ${n}`),
  );
  if (setup.length > 0) out.push('', 'Setup the corpus does not show (done by the runner):', ...setup);

  out.push('', `What the simulator does not model (sim/not-modelled.ts, ${context.simNotModelled.length} entries):`);
  const methods = context.simNotModelled.filter((n) => n.topic.startsWith('method '));
  for (const n of context.simNotModelled.filter((x) => !x.topic.startsWith('method '))) out.push(`  - ${n.topic}: ${n.reason}`);
  if (methods.length > 0) {
    out.push(
      `  - ${methods.length} methods of the method table answer NotImplementedError: ${methods.map((n) => `${n.topic.slice(7)} (${n.reason.replace(/^answers NotImplementedError on /, '')})`).join(', ')}`,
    );
  }
  const mismatches = crossCheckTopics(context.notModelledEntries, context.simNotModelled);
  out.push(
    '',
    `Cross-check of not-modelled-cases.ts against sim/not-modelled.ts: ${mismatches.length === 0 ? 'every topic is listed' : ''}`,
  );
  for (const m of mismatches) out.push(`  - ${m}`);
  return out.join('\n');
}
