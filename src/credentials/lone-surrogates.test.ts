import { describe, expect, it } from 'vitest';
import { LegacyError } from '../errors.ts';
import { createCacheKeyer } from './cache-key.ts';
import { refuseLoneSurrogates } from './lone-surrogates.ts';

describe('createCacheKeyer(): slots from bytes', () => {
  const key = createCacheKeyer(Buffer.alloc(32, 7));

  it('gives pw\\ud800, pw\\udc00 and pw\\ufffd three different slots', () => {
    const slots = ['pw\ud800', 'pw\udc00', 'pw\ufffd'].map((pw) => key('gw', 'password', 'demo', pw));
    expect(new Set(slots).size).toBe(3);
  });

  it('never lets a part spill into the next one, whatever its characters', () => {
    expect(key('a:b', 'c')).not.toBe(key('a', 'b:c'));
    expect(key('é', 'x')).not.toBe(key('é' + 'x'));
    expect(key('\u{1F600}', '')).not.toBe(key('\ud83d', '\ude00'));
  });

  it('is the same for the same parts and secret', () => {
    expect(key('gw', 'password', 'demo', 'pw')).toBe(createCacheKeyer(Buffer.alloc(32, 7))('gw', 'password', 'demo', 'pw'));
  });
});

describe('refuseLoneSurrogates()', () => {
  it('lets well-formed text through, astral characters included', () => {
    expect(() => refuseLoneSurrogates('pw\u{1F600}é')).not.toThrow();
  });

  it.each([
    ['admin\ud800', "'utf-8' codec can't encode character '\\ud800' in position 5: surrogates not allowed"],
    ['\u{1F600}x\udc00', "'utf-8' codec can't encode character '\\udc00' in position 2: surrogates not allowed"],
  ])('refuses %j with the UnicodeEncodeError Odoo raises', (value, message) => {
    let err: unknown;
    try {
      refuseLoneSurrogates(value);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LegacyError);
    expect(err).toMatchObject({ kind: 'internal', name: 'builtins.UnicodeEncodeError', message });
  });
});
