import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderManagerPage } from '../../sim/manager/database-manager-page.ts';
import { parseManagerPage } from './manager-page.ts';

const page = readFileSync(new URL('../../fixtures/odoo-data/web-database-manager.html', import.meta.url), 'utf8');
const recorded = (id: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/conformance/cases/${id}.json`, import.meta.url), 'utf8')) as {
    legacy_decoded: { value: unknown };
  };

describe('parseManagerPage()', () => {
  const parsed = parseManagerPage(page);

  it('sees the "not protected" warning of the real Odoo 19 page', () => {
    expect(parsed.insecure).toBe(true);
  });

  it('reads the countries exactly as legacy list_countries answers them (order, unescaped names)', () => {
    expect(parsed.countries).toEqual(recorded('db-list_countries-ok-xmlrpc2').legacy_decoded.value);
    expect(parsed.countries).toContainEqual(['ci', "Côte d'Ivoire"]);
  });

  it('reads every language in page order, the selected one included, without the empty option', () => {
    expect(parsed.langs?.length).toBe(92);
    expect(parsed.langs?.slice(0, 2)).toEqual([
      ['sq_AL', 'Albanian / Shqip'],
      ['am_ET', 'Amharic / አምሃርኛ'],
    ]);
    expect(parsed.langs).toContainEqual(['en_US', 'English (US)']);
  });

  it('sees a protected manager', () => {
    expect(parseManagerPage(renderManagerPage({ databases: ['gw'], insecure: false })).insecure).toBe(false);
  });

  it('has no options where the page has no select', () => {
    expect(parseManagerPage('<html><body>The database manager has been disabled.</body></html>')).toEqual({
      insecure: false,
      langs: undefined,
      countries: undefined,
    });
  });
});
