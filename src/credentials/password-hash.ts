/**
 * Salted scrypt hashes of passwords for the credential map (docs/architecture.md §5 step 2): the map file never
 * holds a password, only `scrypt$<N>$<r>$<p>$<salt>$<hash>` (salt and hash base64url). Verification
 * compares in constant time.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Cost parameters for new hashes: N=2^15, r=8, p=1 (RFC 7914 §2's interactive-login class). */
const defaultCost = { N: 32768, r: 8, p: 1 };
const keyLength = 32;
const saltLength = 16;
const hashPattern = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{32,})$/;

function derive(password: string, salt: Buffer, length: number, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, { ...cost, maxmem: 256 * (cost.N ?? 0) * (cost.r ?? 8) }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** A new salted hash of `password` in the map's text form. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(saltLength);
  const hash = await derive(password, salt, keyLength, defaultCost);
  return `scrypt$${defaultCost.N}$${defaultCost.r}$${defaultCost.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Why a hash text is unusable, or undefined when it is well formed. */
export function validatePasswordHash(text: string): string | undefined {
  const m = hashPattern.exec(text);
  if (m === null) return 'not a scrypt hash (scrypt$N$r$p$salt$hash; make one with `legacy-rpc-gateway hash-password`)';
  const [n, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (n < 2 || (n & (n - 1)) !== 0 || n > 2 ** 20) return `scrypt N must be a power of two up to 2^20, got ${n}`;
  if (r < 1 || r > 32 || p < 1 || p > 16) return `scrypt r must be 1..32 and p 1..16, got r=${r} p=${p}`;
  return undefined;
}

/** True when `password` matches `hashText` (which {@link validatePasswordHash} accepted). */
export async function verifyPassword(password: string, hashText: string): Promise<boolean> {
  const m = hashPattern.exec(hashText);
  if (m === null) return false;
  const expected = Buffer.from(m[5] as string, 'base64url');
  const actual = await derive(password, Buffer.from(m[4] as string, 'base64url'), expected.length, {
    N: Number(m[1]),
    r: Number(m[2]),
    p: Number(m[3]),
  });
  return timingSafeEqual(actual, expected);
}
