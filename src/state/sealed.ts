/**
 * Secrets at rest in the shared store: every value the gateway writes to Redis is sealed
 * with AES-256-GCM under a key derived from `--state-secret`, bound to the Redis key it is stored
 * under (so a value cannot be moved to another slot), and every key name that stands for
 * credentials is an HMAC under a second derived key. Without the secret, Redis shows neither a login
 * nor an API key. Keys are derived with HKDF-SHA256, one label per use.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const version = 1;
const ivBytes = 12;
const tagBytes = 16;

/** Seals and opens values for one secret. */
export interface Sealer {
  /** `plaintext` encrypted and authenticated for the Redis key `name` (base64url text). */
  seal(name: string, plaintext: string): string;
  /** The plaintext, or `undefined` when `sealed` was not made with this secret for `name` (or is damaged). */
  open(name: string, sealed: string): string | undefined;
}

function derive(secret: string, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'legacy-rpc-gateway', label, 32));
}

/** The sealer for `secret` (`--state-secret`). */
export function createSealer(secret: string): Sealer {
  const key = derive(secret, 'shared-state encryption v1');
  return {
    seal(name, plaintext) {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(name, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.of(version), iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(name, sealed) {
      const raw = Buffer.from(sealed, 'base64url');
      if (raw.length < 1 + ivBytes + tagBytes || raw[0] !== version) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(1, 1 + ivBytes));
        decipher.setAAD(Buffer.from(name, 'utf8'));
        decipher.setAuthTag(raw.subarray(1 + ivBytes, 1 + ivBytes + tagBytes));
        return Buffer.concat([decipher.update(raw.subarray(1 + ivBytes + tagBytes)), decipher.final()]).toString('utf8');
      } catch {
        return undefined; // another secret, another slot, or tampered with
      }
    },
  };
}

/**
 * The HMAC secret of the credential cache keys when replicas share a store: derived from the state
 * secret, so every replica computes the same slot for the same credentials (in-process, each
 * process draws its own random secret instead).
 */
export function slotSecret(secret: string): Buffer {
  return derive(secret, 'shared-state slots v1');
}

/**
 * The HMAC secret of the migration report's client names in Redis: keyed, so that a short list of
 * user agents and addresses does not reverse a name, and the same on every replica sharing the
 * secret, so that they merge one client into one entry.
 */
export function reportClientSecret(secret: string): Buffer {
  return derive(secret, 'shared-state report clients v1');
}
