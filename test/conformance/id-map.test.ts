import { describe, expect, it } from 'vitest';
import { IdMap, IdMapConflict, pairCreatedIds } from './id-map.ts';

describe('IdMap', () => {
  it('maps recorded ids per model', () => {
    const map = new IdMap();
    map.learn('res.partner', 54n, 47n, 'obj-create-execute-xmlrpc2');
    expect(map.lookup('res.partner', 54n)).toBe(47n);
    expect(map.lookup('res.partner.category', 54n)).toBeUndefined();
    expect(map.lookupAnyModel(54n)).toBe(47n);
  });

  it('refuses a contradiction', () => {
    const map = new IdMap();
    map.learn('res.partner', 54n, 47n, 'a');
    map.learn('res.partner', 54n, 47n, 'b');
    expect(() => map.learn('res.partner', 54n, 48n, 'c')).toThrow(IdMapConflict);
  });

  it('does not guess when two models know the same recorded id', () => {
    const map = new IdMap();
    map.learn('res.partner', 8n, 43n, 'a');
    map.learn('res.partner.category', 8n, 8n, 'b');
    expect(map.lookupAnyModel(8n)).toBeUndefined();
  });

  it('forgets everything on clear', () => {
    const map = new IdMap();
    map.learn('res.partner', 1n, 2n, 'a');
    map.clear();
    expect(map.entries()).toEqual([]);
  });
});

describe('pairCreatedIds()', () => {
  it.each([
    ['an int', 54, 47, [[54n, 47n]]],
    [
      'a list',
      [46, 47],
      [43, 44],
      [
        [46n, 43n],
        [47n, 44n],
      ],
    ],
    ['name_create', [63, 'Corpus NameCreate'], [50, 'Corpus NameCreate'], [[63n, 50n]]],
    ['an int answered as a list', 54, [47], undefined],
    ['lists of different lengths', [1, 2], [1], undefined],
  ])('pairs %s', (_what, recorded, actual, pairs) => {
    expect(pairCreatedIds(recorded, actual)).toEqual(pairs);
  });
});
