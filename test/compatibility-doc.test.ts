/**
 * COMPATIBILITY.md stays true: every deviation names a test file that exists and a test in it
 * whose title starts as quoted, and every corpus case it names exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const doc = readFileSync(new URL('COMPATIBILITY.md', root), 'utf8');
const sections = doc.split(/^## /m).slice(1);

describe('COMPATIBILITY.md', () => {
  it('has one section per deviation, each with a Corpus and a Test line', () => {
    expect(sections.length).toBeGreaterThanOrEqual(7);
    for (const s of sections) {
      expect(s, s.split('\n')[0]).toMatch(/^- Corpus: /m);
      expect(s, s.split('\n')[0]).toMatch(/^- Test: /m);
    }
  });

  it.each(sections.map((s) => [s.split('\n')[0] as string, s]))('%s: names tests that exist', (_title, section) => {
    const line = /^- Test: (.*)$/m.exec(section)?.[1] ?? '';
    const files = [...line.matchAll(/`([^`]+\.test\.ts)` \(([^)]*)\)/g)];
    expect(files.length).toBeGreaterThan(0);
    for (const [, file, titles] of files) {
      const path = new URL(file as string, root);
      expect(existsSync(path), file).toBe(true);
      const source = readFileSync(path, 'utf8');
      for (const [, title] of (titles as string).matchAll(/"([^"…]+)/g)) {
        const prefix = (title as string).split(' → ').at(-1)?.trim() as string;
        expect(source.includes(prefix), `${file} has a test titled "${prefix}…"`).toBe(true);
      }
    }
  });

  it('names only corpus cases that exist', () => {
    for (const [, id] of [...doc.matchAll(/^- Corpus: .*$/gm)].flatMap((m) => [...m[0].matchAll(/`([a-z0-9-]+)`/g)])) {
      expect(existsSync(new URL(`fixtures/conformance/cases/${id}.json`, root)), id).toBe(true);
    }
  });
});
