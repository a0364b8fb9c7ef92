/**
 * The declared legacy surface held against Odoo 19.0's own `exp_*` definitions (extracted from its
 * source by `scripts/extract-exp-functions.ts`), and the readers of the surface agreeing with it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { methodLabel } from '../metrics/labels.ts';
import { neverShadowedReason, shadowableDbFunctions } from '../cutover/shadow/policy.ts';
import { legacyFunction, legacySurface } from './surface.ts';

const extract = JSON.parse(readFileSync(new URL('../../test/fixtures/odoo19-exp-functions.json', import.meta.url), 'utf8')) as {
  common: string[];
  db: string[];
  dbDispatchWithoutPassword: string;
};

/** `def exp_about(extended=False):` → exp_about, its parameters, how many have no default. */
function parsePythonDef(line: string): { name: string; params: string[]; required: number } {
  const m = /^def (\w+)\((.*)\):$/.exec(line);
  if (!m) throw new Error(`not a plain def: ${line}`);
  const parts = (m[2] as string)
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.some((p) => p.startsWith('*'))) throw new Error(`star parameters are not modelled: ${line}`);
  return {
    name: m[1] as string,
    params: parts.map((p) => (p.split('=')[0] as string).trim()),
    required: parts.filter((p) => !p.includes('=')).length,
  };
}

describe("the legacy surface against Odoo 19.0's exp_* functions", () => {
  for (const service of ['common', 'db'] as const) {
    it(`declares every ${service} function Odoo defines, with its signature, and no other`, () => {
      const odoo = extract[service].map(parsePythonDef);
      const declared = legacySurface.filter((f) => f.service === service);
      expect(declared.map((f) => f.signature).sort((a, b) => String(a?.name).localeCompare(String(b?.name)))).toEqual(
        odoo.sort((a, b) => a.name.localeCompare(b.name)),
      );
    });
  }

  it('takes the master password exactly where db.dispatch does', () => {
    const list = /^if method in \[(.*)\]:$/.exec(extract.dbDispatchWithoutPassword)?.[1] ?? '';
    const withoutPassword = new Set([...list.matchAll(/'(\w+)'/g)].map((m) => m[1]));
    expect(withoutPassword.size).toBe(4);
    for (const f of legacySurface.filter((x) => x.service === 'db')) expect(f.master, f.method).toBe(!withoutPassword.has(f.method));
    expect(legacySurface.filter((f) => f.service !== 'db').every((f) => !f.master)).toBe(true);
  });
});

describe('the readers of the surface', () => {
  it('labels every declared method by its name in metrics, anything else as other', () => {
    for (const f of legacySurface)
      expect(methodLabel(f.service, f.method, 'search_read'), `${f.service}.${f.method}`).toBe(
        f.service === 'object' ? 'search_read' : f.method,
      );
    expect(methodLabel('common', 'set_loglevel', undefined)).toBe('set_loglevel');
    expect(methodLabel('common', 'exp_login', undefined)).toBe('other');
    expect(methodLabel('db', 'login', undefined)).toBe('other');
  });

  it('lets shadow and verify resend only what the surface says is harmless twice', () => {
    expect([...shadowableDbFunctions].sort()).toEqual(['db_exist', 'list', 'list_countries', 'list_lang', 'server_version']);
    for (const f of legacySurface.filter((x) => x.resend === 'no'))
      expect(neverShadowedReason(f.method), f.method).toBe('it can change state');
    expect(neverShadowedReason('version')).toBeUndefined();
  });

  it('finds a row only for a method of its own service', () => {
    expect(legacyFunction('db', 'list')?.signature?.name).toBe('exp_list');
    expect(legacyFunction('common', 'list')).toBeUndefined();
    expect(legacyFunction('object', 'execute_kw')?.resend).toBe('by-model-method');
  });
});
