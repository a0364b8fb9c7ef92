import { describe, expect, it } from 'vitest';
import { parseServiceKeys, type ServiceKeys } from './service-keys.ts';

const k1 = '0123456789abcdef0123456789abcdef01234567';
const k2 = 'fedcba9876543210fedcba9876543210fedcba98';
const k3 = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

function keys(text: string): ServiceKeys {
  const parsed = parseServiceKeys(text);
  if ('problems' in parsed) throw new Error(parsed.problems.join('\n'));
  return parsed;
}
const problems = (text: string) => {
  const parsed = parseServiceKeys(text);
  return 'problems' in parsed ? parsed.problems : [];
};

describe('parseServiceKeys()', () => {
  it('takes a bare key for every database (the single-key form)', () => {
    const k = keys(k1);
    expect([k.keyFor('gw'), k.keyFor('anything')]).toEqual([k1, k1]);
    expect(k.databases).toEqual([]);
    expect(k.everyDatabase).toBe(true);
  });

  it('takes db=key entries separated by commas, with spaces around them; other databases have no key', () => {
    const k = keys(` gw=${k1} , gw2 = ${k2},`);
    expect([k.keyFor('gw'), k.keyFor('gw2'), k.keyFor('gw3')]).toEqual([k1, k2, undefined]);
    expect(k.databases).toEqual(['gw', 'gw2']);
    expect(k.everyDatabase).toBe(false);
  });

  it('takes one bare key for the databases not named', () => {
    const k = keys(`gw=${k1},${k3}`);
    expect([k.keyFor('gw'), k.keyFor('other')]).toEqual([k1, k3]);
    expect(k.databases).toEqual(['gw']);
  });

  it("accepts database names with Odoo's characters", () => {
    expect(keys(`my-db.prod_2=${k1}`).keyFor('my-db.prod_2')).toBe(k1);
  });

  it.each([
    ['', ['no key given (a key, or db=key entries separated by commas)']],
    [' , ', ['no key given (a key, or db=key entries separated by commas)']],
    [
      'not-a-key',
      [
        'the value: not an Odoo API key (40 lowercase hex characters, e.g. one made in Odoo under Preferences → Account Security → New API Key)',
      ],
    ],
    [
      k1.toUpperCase(),
      [
        'the value: not an Odoo API key (40 lowercase hex characters, e.g. one made in Odoo under Preferences → Account Security → New API Key)',
      ],
    ],
    [
      `gw=${k1},gw2=${k2.slice(1)}`,
      [
        'entry 2 (database "gw2"): not an Odoo API key (40 lowercase hex characters, e.g. one made in Odoo under Preferences → Account Security → New API Key)',
      ],
    ],
    [`=${k1}`, ['the value: "" is not a database name (letters, digits, _ . -; "db=key")']],
    [`g w=${k1}`, ['the value: "g w" is not a database name (letters, digits, _ . -; "db=key")']],
    [`gw=${k1},gw=${k2}`, ['entry 2: database "gw" is given a key twice']],
    [`${k1},${k2}`, ['entry 2: a second key without a database (only one key may serve every database; write db=key)']],
    [
      `gw:${k1}`,
      [
        'the value: not an Odoo API key (40 lowercase hex characters, e.g. one made in Odoo under Preferences → Account Security → New API Key)',
      ],
    ],
  ])('refuses %j, naming the entry and never the key', (text, expected) => {
    const found = problems(text);
    expect(found).toEqual(expected);
    for (const key of [k1, k2, k2.slice(1), k1.toUpperCase()]) expect(found.join('\n')).not.toContain(key);
  });

  it('shows no key when serialised, inspected or logged', async () => {
    const k = keys(`gw=${k1},${k2}`);
    const { inspect } = await import('node:util');
    for (const text of [JSON.stringify(k), JSON.stringify({ config: k }), inspect(k, { depth: 5, showHidden: true }), String(k)]) {
      expect(text).not.toContain(k1);
      expect(text).not.toContain(k2);
    }
    expect(JSON.parse(JSON.stringify(k))).toEqual({ databases: ['gw'], everyDatabase: true });
  });
});
