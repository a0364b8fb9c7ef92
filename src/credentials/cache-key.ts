/**
 * Cache keys for credentials: an HMAC under a per-process secret, so a password never sits in
 * memory as a map key and two processes never share a key space (docs/architecture.md §5: cache slots are HMACs).
 */
import { createHmac, randomBytes } from 'node:crypto';

/**
 * Creates a keyed hasher; each gateway process draws its own secret. Each part is hashed as its
 * UTF-16 code units (lossless for any JS string, a lone surrogate included), prefixed with their
 * byte length, so two different parts never share a slot (UTF-8 turned `pw\ud800`,
 * `pw\udc00` and `pw\ufffd` into the same bytes).
 */
export function createCacheKeyer(secret: Buffer = randomBytes(32)): (...parts: string[]) => string {
  return (...parts) => {
    const h = createHmac('sha256', secret);
    for (const part of parts) {
      const bytes = Buffer.from(part, 'utf16le');
      h.update(`${bytes.length}:`);
      h.update(bytes);
    }
    return h.digest('base64url');
  };
}
