import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { loadOverridesFile } from './overrides-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-signatures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function problemsOf(path: string): string[] {
  try {
    loadOverridesFile(path);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

const yamlText = `# custom methods of this database
res.partner:
  action_gateway_demo:
    level: record
    parameters:
      note:
      flag: {default: false}
sale.order:
  action_quote:
    level: model
    parameters:
      partner_id: {}
      lines: {default: []}
    qualname: SaleOrderQuote.action_quote
`;

describe('loadOverridesFile()', () => {
  it.each([
    ['YAML (.yaml)', 'sigs.yaml', yamlText],
    ['YAML (.yml)', 'sigs.yml', yamlText],
    [
      'JSON',
      'sigs.json',
      JSON.stringify({
        'res.partner': { action_gateway_demo: { level: 'record', parameters: { note: {}, flag: { default: false } } } },
        'sale.order': {
          action_quote: { level: 'model', parameters: { partner_id: {}, lines: { default: [] } }, qualname: 'SaleOrderQuote.action_quote' },
        },
      }),
    ],
  ])('reads %s', (_what, name, text) => {
    const table = loadOverridesFile(file(name, text));
    expect(table.get('res.partner')?.get('action_gateway_demo')).toEqual({
      params: [
        { name: 'note', kind: 'POSITIONAL_OR_KEYWORD' },
        { name: 'flag', kind: 'POSITIONAL_OR_KEYWORD', default: 'False' },
      ],
      apiModel: false,
      qualname: 'ResPartner.action_gateway_demo',
      source: 'override',
    });
    expect(table.get('sale.order')?.get('action_quote')).toMatchObject({ apiModel: true, qualname: 'SaleOrderQuote.action_quote' });
  });

  it('names the setting and the file on every line', () => {
    const path = file('two.yaml', 'res.partner:\n  a: {level: x}\n  b: {level: record, parameters: {self: {}}}\n');
    expect(problemsOf(path)).toEqual([
      `--signatures-file / SIGNATURES_FILE: ${path}: res.partner.a: "level" must be "record" (the first legacy argument is the ids) or "model" (@api.model, no ids); found "x"`,
      `--signatures-file / SIGNATURES_FILE: ${path}: res.partner.b: parameter "self" is implicit: list the parameters after it`,
    ]);
  });

  it.each([
    ['a missing file', () => join(dir, 'absent.yaml'), 'cannot read the file (ENOENT)'],
    ['a directory', () => (mkdirSync(join(dir, 'folder.yaml')), join(dir, 'folder.yaml')), 'cannot read the file (EISDIR)'],
    ['another extension', () => file('sigs.toml', 'x = 1'), 'the file name must end in .json, .yaml or .yml'],
    ['JSON syntax', () => file('bad.json', '{"res.partner": '), 'Flow map must end with a } at line 1, column 17:'],
    [
      'a duplicated JSON key',
      () => file('dup.json', '{"res.partner": {}, "res.partner": {}}'),
      'Map keys must be unique at line 1, column 21:',
    ],
    [
      'a duplicated YAML key',
      () => file('dup.yaml', 'res.partner:\n  a: {level: record}\n  a: {level: model}\n'),
      'Map keys must be unique at line 3, column 3:',
    ],
    ['an empty YAML file', () => file('empty.yaml', '# nothing yet\n'), 'the file is empty: it must map model names to their methods'],
  ])('reports %s', (_what, pathOf, problem) => {
    const path = pathOf();
    expect(problemsOf(path)).toEqual([`--signatures-file / SIGNATURES_FILE: ${path}: ${problem}`]);
  });
});
