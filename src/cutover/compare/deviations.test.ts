import { describe, expect, it } from 'vitest';
import { parseDeviations, parseShadowRules } from './deviations.ts';

const md = [
  '# Compatibility',
  '',
  '## `<base64>` values are accepted',
  '- Corpus: `types-base64-binary-field`',
  '- Shadow: `legacy fault "\'Binary\'"`; `legacy fault "base64"`',
  '',
  '## No live sign',
  '- Corpus: none.',
  '',
  '## Lists',
  '- Shadow: `result subset for db.list`',
].join('\n');

describe('parseShadowRules()', () => {
  it('reads each - Shadow: line as its code spans, with the section title', () => {
    expect(parseShadowRules(md)).toEqual([
      { title: '<base64> values are accepted', rules: ['legacy fault "\'Binary\'"', 'legacy fault "base64"'] },
      { title: 'Lists', rules: ['result subset for db.list'] },
    ]);
  });
});

describe('parseDeviations()', () => {
  it('still reads the Corpus: lines beside them', () => {
    expect([...parseDeviations(md).keys()]).toEqual(['types-base64-binary-field']);
  });
});
