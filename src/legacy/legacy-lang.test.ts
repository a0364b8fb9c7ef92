import { describe, expect, it } from 'vitest';
import type { Upstream } from '../upstream/index.ts';
import { acceptLanguageFor, createLegacyLang, userLangTtl } from './legacy-lang.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const origin = testCallOrigin({ database: 'db' });

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
    expect(await lang.userLang('k', origin)).toBe('fr_FR');
    expect(await lang.userLang('k', origin)).toBe('fr_FR');
    expect(calls).toEqual(['k res.users.context_get']);
    await lang.userLang('other', origin);
    now = userLangTtl;
    await lang.userLang('k', origin);
    expect(calls).toHaveLength(3);
  });

  it('asks once for many first calls together, and not at all after the client read its own context', async () => {
    const { upstream, calls } = upstreamAnswering(() => new Map([['lang', 'fr_FR']]));
    const lang = createLegacyLang(upstream);
    const langs = await Promise.all(Array.from({ length: 20 }, () => lang.userLang('k', origin)));
    expect(new Set(langs)).toEqual(new Set(['fr_FR']));
    expect(calls).toEqual(['k res.users.context_get']);
    lang.remember('db', 'seen', new Map([['lang', 'de_DE']]));
    expect(await lang.userLang('seen', origin)).toBe('de_DE');
    expect(calls).toHaveLength(1);
  });

  it('knows no language when context_get fails, and asks again next time', async () => {
    const { upstream, calls } = upstreamAnswering(() => {
      throw new Error('down');
    });
    const lang = createLegacyLang(upstream);
    expect(await lang.userLang('k', origin)).toBeUndefined();
    expect(await lang.userLang('k', origin)).toBeUndefined();
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
