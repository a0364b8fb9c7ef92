/**
 * The runner proves the product and the simulator do not copy the corpus (docs/architecture.md §7, §9): no answer
 * literal of the conformance corpus that public material does not also state appears in `src/` or
 * `sim/`. Public material: `fixtures/odoo-data/**` and the reference documents (copied under
 * `test/conformance/fixtures/reference/`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answerLiterals, filesUnder, findLiterals, literalsNotIn } from './corpus-literals.ts';
import { loadCases } from './load-cases.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Literals that are public names rather than recorded answers, though neither the seed data nor
 * the reference spells them out. Each needs a reason; keep this list short.
 */
const publicNames: readonly { literal: string; why: string }[] = [
  {
    literal: 'odoo.exceptions.ValidationError',
    why: 'the dotted name of an Odoo exception class (odoo/exceptions.py); the reference names its siblings',
  },
  { literal: 'parent_path', why: 'a standard Odoo field name (_parent_store), not an answer' },
  {
    literal: 'Access Control',
    why: 'the title check_identity gives its res.users.identitycheck action (odoo/addons/base/models/res_users.py), a UI label',
  },
  { literal: 'API Key Ready', why: 'the title make_key gives its res.users.apikeys.show action (res_users.py), a UI label' },
];

/**
 * Files that may hold corpus texts: unit tests assert Odoo's exact messages by design (the project's testing rule),
 * and generated test vectors come from running CPython (their generator is named in the file).
 */
function isExempt(file: string): boolean {
  if (/\.test\.ts$/.test(file)) return true;
  return /\/vectors\//.test(file) && readFileSync(file, 'utf8').includes('"generator"');
}
const publicTexts = [...filesUnder(`${root}fixtures/odoo-data`), ...filesUnder(`${root}test/conformance/fixtures/reference`)].map((f) =>
  readFileSync(f, 'utf8'),
);

describe('no corpus literals in src/ and sim/', () => {
  const all = answerLiterals(loadCases());
  const corpusOnly = literalsNotIn(all.keys(), publicTexts);

  it('has answer literals to look for', () => {
    expect(all.size).toBeGreaterThan(100);
    expect(corpusOnly.length).toBeGreaterThan(20);
  });

  it('finds none of them in any implementation file under src/ or sim/', () => {
    const files = [...filesUnder(`${root}src`), ...filesUnder(`${root}sim`)];
    const allowed = new Set(publicNames.map((p) => p.literal));
    const found = findLiterals(corpusOnly, files);
    const show = ([literal, file]: [string, string]) => `${file.slice(root.length)}: ${JSON.stringify(literal)} (from ${all.get(literal)})`;
    const exempt = found.filter(([literal, file]) => isExempt(file) || allowed.has(literal));
    if (exempt.length > 0)
      console.log(`corpus literals in test files, generated vectors or allowed public names:\n${exempt.map(show).join('\n')}`);
    const hits = found.filter((f) => !exempt.includes(f)).map(show);
    if (hits.length > 0) console.log(`corpus literals found:\n${hits.join('\n')}`);
    expect(hits).toEqual([]);
  });

  it('allows only public names that really are corpus literals', () => {
    for (const { literal } of publicNames) expect(corpusOnly).toContain(literal);
  });
});

describe('findLiterals()', () => {
  it('finds a literal planted in a file, as is or escaped', () => {
    const dir = mkdtempSync(`${tmpdir()}/literals-`);
    writeFileSync(`${dir}/a.ts`, "const x = 'Corpus Zoë \\'q\\' here';\n");
    writeFileSync(`${dir}/b.json`, '{"m": "line\\nnext"}');
    expect(findLiterals(["Corpus Zoë 'q' here", 'line\nnext', 'absent literal'], filesUnder(dir)).map(([l]) => l)).toEqual([
      "Corpus Zoë 'q' here",
      'line\nnext',
    ]);
  });
});
