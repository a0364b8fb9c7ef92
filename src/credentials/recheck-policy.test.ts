import { describe, expect, it } from 'vitest';
import { checkDue, loginStands, renewalDue } from './recheck-policy.ts';

describe('checkDue()', () => {
  it('serves a fresh confirmation as is, checks in the background past half the bound, and waits past all of it', () => {
    const entry = { validatedAt: 1000 };
    expect(checkDue(entry, 1000, 5000)).toBe('none');
    expect(checkDue(entry, 3499, 5000)).toBe('none');
    expect(checkDue(entry, 3500, 5000)).toBe('background');
    expect(checkDue(entry, 5999, 5000)).toBe('background');
    expect(checkDue(entry, 6000, 5000)).toBe('wait');
  });

  it('never checks a credential-map entry (validatedAt Infinity)', () => {
    expect(checkDue({ validatedAt: Number.POSITIVE_INFINITY }, Date.now(), 5000)).toBe('none');
  });
});

describe('renewalDue()', () => {
  it('renews from renewAt on, never for a key that is not renewed (Infinity)', () => {
    expect(renewalDue({ renewAt: 900 }, 899)).toBe(false);
    expect(renewalDue({ renewAt: 900 }, 900)).toBe(true);
    expect(renewalDue({ renewAt: Number.POSITIVE_INFINITY }, Number.MAX_SAFE_INTEGER)).toBe(false);
  });
});

describe('loginStands()', () => {
  it('lets a session check stand for a login only within the interval, and never when the login time is unknown', () => {
    expect(loginStands({ loggedInAt: 0 }, 599_999, 600_000)).toBe(true);
    expect(loginStands({ loggedInAt: 0 }, 600_000, 600_000)).toBe(false);
    expect(loginStands({ loggedInAt: undefined }, 1, 600_000)).toBe(false);
  });
});
