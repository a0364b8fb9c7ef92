import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { parseCredentialMap } from './credential-map.ts';
import { hashPassword } from './password-hash.ts';

const key = 'a'.repeat(40);
const hash = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

function problems(text: string): string[] {
  try {
    parseCredentialMap(text, 'map.json');
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('parseCredentialMap()', () => {
  it('finds an entry by database and login and checks passwords against its hash', async () => {
    const map = parseCredentialMap(
      JSON.stringify([{ db: 'gw', login: 'alice', password_hash: await hashPassword('s3cret'), key }]),
      'map.json',
    );
    const entry = map.find('gw', 'alice');
    expect(entry?.key).toBe(key);
    expect(map.find('gw2', 'alice')).toBeUndefined();
    expect(map.entriesOf('gw')).toHaveLength(1);
    expect(await map.matches(entry!, 's3cret')).toBe(true);
    expect(await map.matches(entry!, 'S3cret')).toBe(false);
  });

  it.each([
    ['text that is not JSON', '{', [expect.stringMatching(/^map\.json: not JSON \(/)]],
    ['an object instead of a list', '{}', ['map.json: expected a JSON list of {"db", "login", "password_hash", "key"} entries']],
    [
      'a plaintext password field',
      JSON.stringify([{ db: 'gw', login: 'a', password: 'x', password_hash: hash, key }]),
      ['map.json: entry 1: unknown field(s) "password" (a plaintext password is never accepted)'],
    ],
    [
      'an empty login',
      JSON.stringify([{ db: 'gw', login: '', password_hash: hash, key }]),
      ['map.json: entry 1: "login" must be a non-empty string'],
    ],
    [
      'a bad hash and a bad key',
      JSON.stringify([{ db: 'gw', login: 'a', password_hash: 'md5:xyz', key: 'KEY' }]),
      [
        'map.json: entry 1: "password_hash" is not a scrypt hash (scrypt$N$r$p$salt$hash; make one with `legacy-rpc-gateway hash-password`)',
        'map.json: entry 1: "key" must be an Odoo API key (40 lowercase hex characters)',
      ],
    ],
    [
      'two entries for one login',
      JSON.stringify([
        { db: 'gw', login: 'a', password_hash: hash, key },
        { db: 'gw', login: 'a', password_hash: hash, key },
      ]),
      ['map.json: entry 2: a second entry for login "a" in database "gw"'],
    ],
  ])('refuses %s, naming entry and field but never a value', (_what, text, expected) => {
    expect(problems(text)).toEqual(expected);
  });
});
