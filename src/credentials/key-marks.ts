/**
 * The nonce at the end of a minted key's name (docs/security.md "Minted keys"): 8 random hex digits,
 * a dot, and a mark — 16 hex digits of an HMAC, under a key derived from `--state-secret` (else a
 * secret this process draws), of the tag, database, login and random part. Only a gateway holding
 * that secret makes a name it takes for its own: a key the user names in the gateway's pattern, or
 * one another gateway with the same `--key-tag` but another secret (or none) minted, is never
 * removed. Replicas sharing one state secret recognise each other's keys, as they should.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** Makes and recognises the nonces of one gateway. */
export interface KeyMarks {
  /** A fresh nonce for a key minted for `login` in `db`: `<8 hex>.<16 hex>`. */
  nonce(db: string, login: string): string;
  /** True when `nonce` (as {@link nonce} made it) was made with this secret and tag for `login` in `db`. */
  owns(db: string, login: string, nonce: string): boolean;
}

const shape = /^([0-9a-f]{8})\.([0-9a-f]{16})$/;

/** The marks for `stateSecret` (or, without one, a secret of this process only) and `tag`. */
export function createKeyMarks(stateSecret: string | undefined, tag: string): KeyMarks {
  const key =
    stateSecret === undefined
      ? randomBytes(32)
      : Buffer.from(hkdfSync('sha256', Buffer.from(stateSecret, 'utf8'), 'legacy-rpc-gateway', 'minted key names v1', 32));
  const markOf = (db: string, login: string, random: string) =>
    createHmac('sha256', key)
      .update(JSON.stringify([tag, db, login, random]))
      .digest('hex')
      .slice(0, 16);

  return {
    nonce(db, login) {
      const random = randomBytes(4).toString('hex');
      return `${random}.${markOf(db, login, random)}`;
    },
    owns(db, login, nonce) {
      const m = shape.exec(nonce);
      if (m === null) return false;
      return timingSafeEqual(Buffer.from(m[2]!, 'latin1'), Buffer.from(markOf(db, login, m[1]!), 'latin1'));
    },
  };
}
