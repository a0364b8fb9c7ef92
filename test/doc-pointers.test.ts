/**
 * Comments point into the project's docs (`docs/architecture.md §5 step 3`, `docs/x.md#anchor`): every
 * such pointer in src/, sim/, scripts/, bench/, test/ and the Markdown pages resolves — the file
 * exists, the section `§N` is a heading `## N.` of that file, each step `N` (or each of a range
 * `N–M`) one of its numbered items, an anchor one of its headings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string, ext = '.ts'): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(`${dir}/${e.name}`, ext) : e.name.endsWith(ext) ? [`${dir}/${e.name}`] : [],
  );
}

/** Steps as written: `3`, `3, 4, 5`, or a range `4–7`. */
function stepsOf(written: string): string[] {
  return written
    .split(/[, ]+/)
    .filter(Boolean)
    .flatMap((part) => {
      const [from, to] = part.split(/[–-]/).map(Number);
      if (to === undefined) return [part];
      return Array.from({ length: Math.max(0, to - (from as number) + 1) }, (_, i) => String((from as number) + i));
    });
}

const docs = new Map<string, string>();
function doc(name: string): string | undefined {
  if (!docs.has(name)) {
    try {
      docs.set(name, readFileSync(join(root, 'docs', name), 'utf8'));
    } catch {
      return undefined;
    }
  }
  return docs.get(name);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The text of section `## N.` up to the next `## `. */
function section(text: string, n: string): string | undefined {
  const start = text.search(new RegExp(`^## ${n}\\. `, 'm'));
  if (start < 0) return undefined;
  const rest = text.slice(start + 3);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** What is wrong with one pointer, or undefined when it resolves. */
export function brokenPointer(pointer: string): string | undefined {
  const m = /^docs\/([\w-]+\.md)(?:#([\w-]+)| §(\d+)(?: steps? ([\d, –-]+))?)?$/.exec(pointer);
  if (!m) return 'unreadable';
  const [, file = '', anchor, sec, steps] = m;
  const text = doc(file);
  if (text === undefined) return 'no such file';
  if (anchor !== undefined && ![...text.matchAll(/^#+ (.+)$/gm)].some((h) => slug(h[1] as string) === anchor)) return 'no such heading';
  if (sec === undefined) return undefined;
  const body = section(text, sec);
  if (body === undefined) return `no section ${sec}`;
  const items = [...body.matchAll(/^(\d+)\. /gm)].map((x) => x[1]);
  for (const step of stepsOf(steps ?? '')) if (!items.includes(step)) return `no step ${step}`;
  return undefined;
}

describe('pointers from comments into docs/', () => {
  // this file's own examples of broken pointers aside
  const files = [
    ...['src', 'sim', 'scripts', 'bench', 'test'].flatMap((dir) => sources(dir)),
    ...readdirSync(root).filter((name) => name.endsWith('.md')),
    ...sources('docs', '.md'),
  ].filter((file) => file !== 'test/doc-pointers.test.ts');
  const pointers = files.flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(/docs\/[\w-]+\.md(?:#[\w-]+| §\d+(?: steps? \d+(?:[–-]\d+|(?:, \d+)*))?)?/g)].map(
      (m) => ({
        file,
        pointer: m[0],
      }),
    ),
  );

  it('all resolve', () => {
    expect(pointers.length).toBeGreaterThan(50);
    expect(
      pointers.flatMap(({ file, pointer }) =>
        brokenPointer(pointer) === undefined ? [] : [`${file}: ${pointer} (${brokenPointer(pointer)})`],
      ),
    ).toEqual([]);
  });

  it('catches a pointer that does not resolve', () => {
    expect(brokenPointer('docs/architecture.md §5 step 8')).toBe('no step 8');
    expect(brokenPointer('docs/architecture.md §42')).toBe('no section 42');
    expect(brokenPointer('docs/no-such.md')).toBe('no such file');
    expect(brokenPointer('docs/operations.md#no-such-heading')).toBe('no such heading');
    expect(brokenPointer('docs/architecture.md §5 steps 3, 4, 5')).toBeUndefined();
    expect(brokenPointer('docs/architecture.md §5 steps 4–7')).toBe('no step 6');
    expect(brokenPointer('docs/architecture.md §5 steps 3–5')).toBeUndefined();
  });
});
