/**
 * Comments point into the project's docs (`docs/architecture.md §5 step 3`, `docs/x.md#anchor`): every
 * such pointer in src/, sim/, scripts/ and bench/ resolves — the file exists, the section `§N` is a
 * heading `## N.` of that file, each step `N` one of its numbered items, an anchor one of its headings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
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
  const m = /^docs\/([\w-]+\.md)(?:#([\w-]+)| §(\d+)(?: steps? ([\d, ]+))?)?$/.exec(pointer);
  if (!m) return 'unreadable';
  const [, file = '', anchor, sec, steps] = m;
  const text = doc(file);
  if (text === undefined) return 'no such file';
  if (anchor !== undefined && ![...text.matchAll(/^#+ (.+)$/gm)].some((h) => slug(h[1] as string) === anchor)) return 'no such heading';
  if (sec === undefined) return undefined;
  const body = section(text, sec);
  if (body === undefined) return `no section ${sec}`;
  const items = [...body.matchAll(/^(\d+)\. /gm)].map((x) => x[1]);
  for (const step of (steps ?? '').split(/[, ]+/).filter(Boolean)) if (!items.includes(step)) return `no step ${step}`;
  return undefined;
}

describe('pointers from comments into docs/', () => {
  const pointers = ['src', 'sim', 'scripts', 'bench'].flatMap(sources).flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(/docs\/[\w-]+\.md(?:#[\w-]+| §\d+(?: steps? \d+(?:, \d+)*)?)?/g)].map((m) => ({
      file,
      pointer: m[0],
    })),
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
  });
});
