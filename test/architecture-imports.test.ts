/**
 * docs/architecture.md's table "What each folder may import", held against the imports: for each row,
 * no module of its folders imports from a place its "never imports" column names, except a file its
 * "imports" column names explicitly (e.g. `legacy/surface.ts`, data). Names without a slash are
 * folders or modules of `src/` (`wire` → `src/wire/`, `config` → `src/config.ts`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

interface Row {
  line: string;
  folders: string[];
  allowed: string[];
  never: string[];
}

/** `wire` → `src/wire/`, `config` → `src/config.ts`, `sim/` and `src/x/` as written. */
function place(token: string): string {
  if (token.startsWith('src/') || token.startsWith('sim/')) return token;
  if (token.endsWith('.ts')) return `src/${token}`;
  try {
    if (statSync(join(root, 'src', token)).isDirectory()) return `src/${token}/`;
  } catch {
    // not a folder: a module
  }
  return `src/${token}.ts`;
}

const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

function tableRows(): Row[] {
  const start = doc.indexOf('## What each folder may import');
  const lines = doc.slice(start).split('\n');
  const rows: Row[] = [];
  for (const line of lines.slice(1)) {
    if (line.startsWith('## ')) break;
    if (!line.startsWith('| `')) continue;
    const [folders = '', imports = '', never = ''] = line.split('|').slice(1, 4);
    rows.push({
      line,
      folders: backticked(folders).map(place),
      allowed: backticked(imports)
        .filter((t) => t.endsWith('.ts'))
        .map(place),
      never: backticked(never).map(place),
    });
  }
  return rows;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory()) out.push(...sources(`${path}/`));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** The project paths a module imports (static, re-exports and dynamic `import()` of a literal). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map(
    (m) => (m[1] ?? m[2]) as string,
  );
  return specs.filter((s) => s.startsWith('.')).map((s) => relative(root, resolve(root, dirname(file), s)));
}

const within = (path: string, where: string) => (where.endsWith('/') ? path.startsWith(where) : path === where);

describe("docs/architecture.md's import table", () => {
  const rows = tableRows();

  it('is found, and every folder it names exists', () => {
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of rows)
      for (const f of row.folders) expect(statSync(join(root, f)).isFile() || statSync(join(root, f)).isDirectory(), f).toBe(true);
  });

  for (const row of rows) {
    it(`holds: ${row.folders.join(', ')}`, () => {
      const files = row.folders.flatMap((f) => (f.endsWith('/') ? sources(f) : [f]));
      const broken: string[] = [];
      for (const file of files)
        for (const target of importsOf(file))
          if (row.never.some((n) => within(target, n)) && !row.allowed.some((a) => within(target, a))) broken.push(`${file} → ${target}`);
      expect(broken).toEqual([]);
    });
  }

  it('catches a forbidden import (the check can fail)', () => {
    const wire = rows.find((r) => r.folders.includes('src/wire/'));
    expect(wire?.never).toContain('src/upstream/');
    expect(importsOf('src/server/gateway.ts')).toContain('src/upstream/index.ts');
  });
});
