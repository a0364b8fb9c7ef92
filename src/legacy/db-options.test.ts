import { describe, expect, it, vi } from 'vitest';
import { LegacyError } from '../errors.ts';
import type { Json2Call, WebDatabaseClient } from '../upstream/index.ts';
import { struct, type Value } from '../value.ts';
import { createDbOptions } from './db-options.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const origin = testCallOrigin({ requestId: 'r' });
const disabled = { manager: async () => undefined } as unknown as WebDatabaseClient;

describe('createDbOptions() without a manager page', () => {
  it('reads every language and country over JSON-2 with the service key, sorted by name in code-point order', async () => {
    const rows: Record<string, Value> = {
      'res.lang': [
        struct({ code: 'fr_FR', name: 'French / Français' }),
        struct({ code: 'en_US', name: 'English (US)' }),
        struct({ code: 'ar_001', name: 'Arabic / الْعَرَبيّة' }),
        struct({ code: 'ar_SY', name: 'Arabic (Syria) / الْعَرَبيّة' }),
      ],
      'res.country': [
        struct({ code: 'AX', name: 'Åland Islands' }),
        struct({ code: 'ZW', name: 'Zimbabwe' }),
        struct({ code: 'AF', name: 'Afghanistan' }),
      ],
    };
    const json2 = vi.fn(async (call: Json2Call) => rows[call.model] ?? []);
    const options = createDbOptions({ web: disabled, json2, serviceKey: 'k'.repeat(40), serviceDb: 'gw' });
    expect(await options.langs(origin)).toEqual([
      ['ar_SY', 'Arabic (Syria) / الْعَرَبيّة'],
      ['ar_001', 'Arabic / الْعَرَبيّة'],
      ['en_US', 'English (US)'],
      ['fr_FR', 'French / Français'],
    ]);
    expect(await options.countries(origin)).toEqual([
      ['af', 'Afghanistan'],
      ['zw', 'Zimbabwe'],
      ['ax', 'Åland Islands'],
    ]);
    expect(json2.mock.calls.map(([c]) => [c.db, c.key, c.model, c.method, [...c.body.keys()]])).toEqual([
      ['gw', 'k'.repeat(40), 'res.lang', 'search_read', ['domain', 'fields', 'context']],
      ['gw', 'k'.repeat(40), 'res.country', 'search_read', ['domain', 'fields', 'context']],
    ]);
    expect((json2.mock.calls[0]?.[0].body.get('context') as Map<string, Value>).get('active_test')).toBe(false);
  });

  it('says which settings are missing when there is no service key', async () => {
    const options = createDbOptions({ web: disabled, json2: async () => [], serviceKey: undefined, serviceDb: undefined });
    const err = await options.langs(origin).catch((e: unknown) => e);
    expect((err as LegacyError).lastLine).toBe(
      "legacy_rpc_gateway.NotSupported: the upstream's database manager page is disabled and no --service-key / --service-db is set to read res.lang instead",
    );
  });

  it('prefers the page it is given', async () => {
    const options = createDbOptions({ web: disabled, json2: async () => [], serviceKey: undefined, serviceDb: undefined });
    expect(await options.countries(origin, { insecure: false, langs: [], countries: [['be', 'Belgium']] })).toEqual([['be', 'Belgium']]);
  });
});
