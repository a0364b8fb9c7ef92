/**
 * Comments stay within Prettier's print width (`.prettierrc.json`), which Prettier itself does not
 * wrap: a comment line wider than the code around it is read sideways in every review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { printWidth } = JSON.parse(readFileSync(join(root, '.prettierrc.json'), 'utf8')) as { printWidth: number };

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

/** Comment lines (`* …`, `// …`) of `text` wider than `width`, as `line: length`. */
export function wideComments(text: string, width: number): string[] {
  return text.split('\n').flatMap((line, i) => (/^\s*(\*|\/\/)/.test(line) && line.length > width ? [`${i + 1}: ${line.length}`] : []));
}

describe('comment width', () => {
  it(`keeps every comment line within ${printWidth} characters`, () => {
    const wide = ['src', 'sim', 'test', 'scripts', 'bench']
      .flatMap(sources)
      .flatMap((file) => wideComments(readFileSync(join(root, file), 'utf8'), printWidth).map((w) => `${file}:${w}`));
    expect(wide).toEqual([]);
  });

  it('finds a wide comment line', () => {
    expect(wideComments(` * ${'x'.repeat(printWidth)}\nconst a = 1;\n// short`, printWidth)).toEqual([`1: ${printWidth + 3}`]);
  });
});
