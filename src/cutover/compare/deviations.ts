/**
 * Reads `COMPATIBILITY.md`, the list of the gateway's intended deviations from Odoo 19: one `## `
 * section per deviation, whose `- Corpus:` line names the conformance cases that show it (the
 * conformance runner reports those as intended) and whose `- Shadow:` line says how the deviation
 * shows on a live call (shadow mode counts those differences as intended, `src/cutover/shadow/intended.ts`).
 */

/** One intended deviation: the `## ` section title that names the case on its `- Corpus:` line. */
export interface Deviation {
  caseId: string;
  title: string;
}

/** A section title as the report shows it: backticks dropped. */
const titleOf = (heading: string): string => heading.replace(/`/g, '').trim();

/** Reads the case ids named on `- Corpus:` lines, each with its section title. */
export function parseDeviations(markdown: string): Map<string, Deviation> {
  const out = new Map<string, Deviation>();
  let title = '';
  for (const line of markdown.split('\n')) {
    const heading = /^##\s+(.*)$/.exec(line);
    if (heading) title = titleOf(heading[1] ?? '');
    const corpus = /^-\s+Corpus:\s*(.*)$/.exec(line);
    // `- Corpus: none (…)` names no case, even when its explanation quotes one.
    if (corpus && /^none\b/i.test(corpus[1] ?? '')) continue;
    if (corpus) for (const m of (corpus[1] ?? '').matchAll(/`([a-z0-9][\w.-]*)`/g)) out.set(m[1] ?? '', { caseId: m[1] ?? '', title });
  }
  return out;
}

/** A deviation's `- Shadow:` rules: how a live answer pair shows it (grammar in `src/cutover/shadow/intended.ts`). */
export interface ShadowRules {
  title: string;
  /** The rules, in the order written (`; ` separates them on the line). */
  rules: string[];
}

/** Reads every `- Shadow:` line with its section title, in document order. */
export function parseShadowRules(markdown: string): ShadowRules[] {
  const out: ShadowRules[] = [];
  let title = '';
  for (const line of markdown.split('\n')) {
    const heading = /^##\s+(.*)$/.exec(line);
    if (heading) title = titleOf(heading[1] ?? '');
    const shadow = /^-\s+Shadow:\s*(.*)$/.exec(line);
    if (shadow === null) continue;
    // the rules are written in backticks, each its own code span
    const rules = [...(shadow[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    if (rules.length > 0) out.push({ title, rules });
  }
  return out;
}
