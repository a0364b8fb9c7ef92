/**
 * Cache keys for credentials: an HMAC under a per-process secret, so a password never sits in
 * memory as a map key and two processes never share a key space (design §5 step 1).
 */
import { createHmac, randomBytes } from 'node:crypto';

/** Creates a keyed hasher; each gateway process draws its own secret. */
export function createCacheKeyer(secret: Buffer = randomBytes(32)): (...parts: string[]) => string {
  return (...parts) => {
    const h = createHmac('sha256', secret);
    for (const part of parts) h.update(`${part.length}:${part}`);
    return h.digest('base64url');
  };
}
