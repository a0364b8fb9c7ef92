import { describe, expect, it } from 'vitest';
import type { CallOrigin } from '../call.ts';
import type { Upstream } from '../upstream/index.ts';
import { acceptLanguageFor, createLegacyLang, userLangTtl } from './legacy-lang.ts';

const origin = {} as CallOrigin;

function upstreamAnswering(answer: () => unknown): { upstream: Upstream; calls: string[] } {
  const calls: string[] = [];
  const upstream = {
    json2: (call: { model: string; method: string; key: string }) => {
      calls.push(`${call.key} ${call.model}.${call.method}`);
      return Promise.resolve().then(answer);
    },
  } as unknown as Upstream;
  return { upstream, calls };
}

describe('createLegacyLang', () => {
  it("takes context_get's lang once per key and ttl", async () => {
    let now = 0;
    const { upstream, calls } = upstreamAnswering(() => new Map([['lang', 'fr_FR']]));
    const lang = createLegacyLang(upstream, () => now);
    expect(await lang.userLang('db', 'k', origin)).toBe('fr_FR');
    expect(await lang.userLang('db', 'k', origin)).toBe('fr_FR');
    expect(calls).toEqual(['k res.users.context_get']);
    await lang.userLang('db', 'other', origin);
    now = userLangTtl;
    await lang.userLang('db', 'k', origin);
    expect(calls).toHaveLength(3);
  });

  it('knows no language when context_get fails, and asks again next time', async () => {
    const { upstream, calls } = upstreamAnswering(() => {
      throw new Error('down');
    });
    const lang = createLegacyLang(upstream);
    expect(await lang.userLang('db', 'k', origin)).toBeUndefined();
    expect(await lang.userLang('db', 'k', origin)).toBeUndefined();
    expect(calls).toHaveLength(2);
  });
});

describe('acceptLanguageFor', () => {
  it.each([
    ['fr_FR', 'fr-FR'],
    ['es_419', 'es-419'],
    ['en_US', 'en-US'],
    ['sr@latin', undefined],
    ['', undefined],
  ])('%s → %s (babel reads it back with sep="-")', (code, header) => {
    expect(acceptLanguageFor(code)).toBe(header);
  });
});
