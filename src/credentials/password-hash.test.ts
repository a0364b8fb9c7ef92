import { describe, expect, it } from 'vitest';
import { hashPassword, validatePasswordHash, verifyPassword } from './password-hash.ts';

describe('hashPassword()', () => {
  it('makes a salted scrypt hash that verifies only the same password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horse ', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('treats composed and decomposed accents alike (NFC)', async () => {
    expect(await verifyPassword('Zoe\u0308', await hashPassword('Zo\u00eb'))).toBe(true);
  });
});

describe('validatePasswordHash()', () => {
  it.each([
    ['plaintext', 'not a scrypt hash (scrypt$N$r$p$salt$hash; make one with `legacy-rpc-gateway hash-password`)'],
    [
      'scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'scrypt N must be a power of two up to 2^20, got 1000',
    ],
    [
      'scrypt$16384$64$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'scrypt r must be 1..32 and p 1..16, got r=64 p=1',
    ],
  ])('refuses %s', (text, why) => {
    expect(validatePasswordHash(text)).toBe(why);
  });
});
