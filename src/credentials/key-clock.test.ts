import { describe, expect, it } from 'vitest';
import { createMintPacer, expiryOnGatewayClock } from './key-clock.ts';

const midnight = Date.parse('2026-11-22T00:00:00Z');

describe('expiryOnGatewayClock()', () => {
  it('moves the expiry by the skew measured at the mint, beyond the tolerance only', () => {
    const created = Date.parse('2026-11-21T12:00:00Z');
    expect(expiryOnGatewayClock(midnight, created, created + 86_400_000)).toBe(midnight + 86_400_000);
    expect(expiryOnGatewayClock(midnight, created, created - 3_600_000)).toBe(midnight - 3_600_000);
    expect(expiryOnGatewayClock(midnight, created, created + 1500)).toBe(midnight);
    expect(expiryOnGatewayClock(midnight, undefined, created + 86_400_000)).toBe(midnight);
    expect(expiryOnGatewayClock(Number.POSITIVE_INFINITY, created, created + 86_400_000)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('createMintPacer()', () => {
  it('lets a credential mint twice per interval, then says how long to wait', () => {
    let t = 0;
    const pacer = createMintPacer(60_000, 10, () => t);
    expect(pacer.wait('a')).toBe(0);
    pacer.minted('a');
    t = 10_000;
    expect(pacer.wait('a')).toBe(0);
    pacer.minted('a');
    expect(pacer.wait('a')).toBe(50_000);
    expect(pacer.wait('b')).toBe(0);
    t = 60_000;
    expect(pacer.wait('a')).toBe(0);
  });

  it('bounds nothing with a 0 interval', () => {
    const pacer = createMintPacer(0, 10, () => 0);
    for (let i = 0; i < 5; i++) pacer.minted('a');
    expect(pacer.wait('a')).toBe(0);
  });
});
