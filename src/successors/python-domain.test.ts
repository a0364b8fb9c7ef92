import { describe, expect, it } from 'vitest';
import { PyFloat, type Value } from '../value.ts';
import { and, domainList, parseDomain } from './python-domain.ts';

const list = (...domains: Value[]) => domainList(and(domains.map(parseDomain)));

describe("Odoo 19's Domain, as read_group prints __domain", () => {
  it.each<[string, Value[], Value[]]>([
    ['an empty domain alone is TRUE', [[]], [[1, '=', 1]]],
    ['TRUE vanishes from an AND', [[], [['state', '=', 'draft']]], [['state', '=', 'draft']]],
    [
      'the call domain comes first and ANDs flatten',
      [[['id', '>', 2]], ['&', ['d', '>=', 'a'], ['d', '<', 'b']]],
      ['&', '&', ['id', '>', 2], ['d', '>=', 'a'], ['d', '<', 'b']],
    ],
    [
      'an OR stays one child',
      [['|', ['id', '<', 5], ['id', '>', 8]], [['state', '=', 'draft']]],
      ['&', '|', ['id', '<', 5], ['id', '>', 8], ['state', '=', 'draft']],
    ],
    [
      '! folds into the inverse operator',
      [['!', ['id', '=', 3]], [['state', '=', 'draft']]],
      ['&', ['id', '!=', 3], ['state', '=', 'draft']],
    ],
    ['! stays before a dotted path', [['!', ['partner_id.name', '=', 'x']]], ['!', ['partner_id.name', '=', 'x']]],
    ['!! cancels out', [['!', '!', ['id', 'in', [1]]]], [['id', 'in', [1]]]],
    [
      'operators are lower-cased, None is False',
      [
        [
          ['name', 'ILIKE', 'a'],
          ['ref', '=', null],
        ],
      ],
      ['&', ['name', 'ilike', 'a'], ['ref', '=', false]],
    ],
    ['FALSE absorbs an AND', [[[0, '=', 1]], [['a', '=', 1]]], [[0, '=', 1]]],
    [
      '(1.0, "=", 1) is TRUE',
      [
        [
          [new PyFloat(1), '=', 1],
          ['a', '=', 1],
        ],
      ],
      [['a', '=', 1]],
    ],
  ])('%s', (_title, domains, expected) => {
    expect(list(...domains)).toEqual(expected);
  });

  it('refuses a malformed domain', () => {
    expect(() => parseDomain(['&', ['a', '=', 1]])).toThrow();
  });
});
