import { describe, expect, it } from 'vitest';
import { createSealer, slotSecret } from './sealed.ts';

describe('createSealer()', () => {
  const secret = 'a-state-secret-of-at-least-32-characters';

  it('opens what it sealed for the same name, and hides the plaintext', () => {
    const sealer = createSealer(secret);
    const sealed = sealer.seal('p:k:slot', 'the api key 0123456789abcdef');
    expect(sealed).not.toContain('api key');
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('0123456789abcdef');
    expect(sealer.open('p:k:slot', sealed)).toBe('the api key 0123456789abcdef');
    expect(sealer.seal('p:k:slot', 'same')).not.toBe(sealer.seal('p:k:slot', 'same')); // a fresh IV each time
  });

  it('refuses another secret, another name, and any altered byte', () => {
    const sealed = createSealer(secret).seal('p:k:slot', 'value');
    expect(createSealer(`${secret}!`).open('p:k:slot', sealed)).toBeUndefined();
    expect(createSealer(secret).open('p:k:other', sealed)).toBeUndefined();
    const raw = Buffer.from(sealed, 'base64url');
    for (const at of [0, 5, 20, raw.length - 1]) {
      const bent = Buffer.from(raw);
      bent[at]! ^= 1;
      expect(createSealer(secret).open('p:k:slot', bent.toString('base64url'))).toBeUndefined();
    }
    expect(createSealer(secret).open('p:k:slot', 'short')).toBeUndefined();
  });

  it('derives slot secrets that depend on the state secret only', () => {
    expect(slotSecret(secret).equals(slotSecret(secret))).toBe(true);
    expect(slotSecret(secret).equals(slotSecret(`${secret}x`))).toBe(false);
    expect(slotSecret(secret)).toHaveLength(32);
  });
});
