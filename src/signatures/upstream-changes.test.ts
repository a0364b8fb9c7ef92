import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LegacyError } from '../errors.ts';
import { parseJson } from '../json/index.ts';
import { isStruct } from '../value.ts';
import { builtinTable, lookupBuiltinSignature } from './builtin-table.ts';
import { signatureFromDoc } from './doc-signatures.ts';
import type { MethodSignature, Param } from './signature.ts';
import { changedMethodFault, createUpstreamChanges, isTableSeries, meaningDiffers, paramsText } from './upstream-changes.ts';

const p = (name: string, dflt?: string, kind: Param['kind'] = 'POSITIONAL_OR_KEYWORD'): Param => ({
  name,
  kind,
  ...(dflt === undefined ? {} : { default: dflt }),
});
const sig = (params: Param[], apiModel = true): MethodSignature => ({ params, apiModel, qualname: 'BaseModel.m', source: 'discovered' });
const v19ReadGroup = lookupBuiltinSignature(builtinTable, 'res.partner', 'read_group') as MethodSignature;
const readGroup20 = sig([
  p('domain'),
  p('groupby', '[]'),
  p('aggregates', '[]'),
  p('having', '[]'),
  p('offset', '0'),
  p('limit', 'None'),
  p('order', 'None'),
]);

describe('meaningDiffers()', () => {
  it("finds 20.0's read_group other than 19.0's", () => {
    expect(paramsText(v19ReadGroup)).toBe('(domain, fields, groupby, offset=0, limit=None, orderby=False, lazy=True)');
    expect(meaningDiffers(v19ReadGroup, readGroup20)).toBe("it has no parameter 'fields'");
  });

  it('keeps the meaning where parameters are only reordered or optional ones added (arguments go by name)', () => {
    const v19 = sig([p('domain'), p('limit', 'None')]);
    expect(meaningDiffers(v19, sig([p('limit', 'None'), p('domain')]))).toBeUndefined();
    expect(meaningDiffers(v19, sig([p('domain'), p('limit', 'None'), p('order', 'None', 'KEYWORD_ONLY')]))).toBeUndefined();
    expect(meaningDiffers(v19, sig([p('domain', undefined, 'KEYWORD_ONLY'), p('limit', 'None')]))).toBeUndefined();
    // a tuple default is a list in JSON
    expect(meaningDiffers(sig([p('fields', '()')]), sig([p('fields', '[]')]))).toBeUndefined();
  });

  it('finds a dropped, positional-only or re-defaulted parameter, and a new required one', () => {
    const v19 = sig([p('domain'), p('limit', 'None')]);
    expect(meaningDiffers(v19, sig([p('domain')]))).toBe("it has no parameter 'limit'");
    expect(meaningDiffers(v19, sig([p('domain', undefined, 'POSITIONAL_ONLY'), p('limit', 'None')]))).toBe("it has no parameter 'domain'");
    expect(meaningDiffers(v19, sig([p('domain'), p('limit', '80')]))).toBe("its parameter 'limit' defaults to 80, not None");
    expect(meaningDiffers(v19, sig([p('domain'), p('limit')]))).toBe("its parameter 'limit' defaults to nothing, not None");
    expect(meaningDiffers(v19, sig([p('domain'), p('limit', 'None'), p('spec')]))).toBe(
      "it requires a parameter 'spec' that 19.0 did not have",
    );
  });

  it("leaves a 19.0 signature with *args or **kwargs alone (the running override's, not the definition's)", () => {
    expect(meaningDiffers(sig([p('kwargs', undefined, 'VAR_KEYWORD')]), sig([p('body', "''", 'KEYWORD_ONLY')]))).toBeUndefined();
  });

  it("finds no change between the table and a real 19.0's /doc-bearer listing", () => {
    const doc = parseJson(readFileSync(new URL('../../fixtures/odoo-data/_method-signatures.json', import.meta.url), 'utf8'));
    let compared = 0;
    const changed: string[] = [];
    if (isStruct(doc))
      for (const [model, methods] of doc) {
        if (!isStruct(methods)) continue;
        for (const [method, entry] of methods) {
          const listed = signatureFromDoc(method, entry, model);
          const v19 = lookupBuiltinSignature(builtinTable, model, method);
          if (listed === undefined || v19 === undefined) continue;
          compared++;
          const why = meaningDiffers(v19, listed);
          if (why !== undefined) changed.push(`${model}.${method}: ${why}`);
        }
      }
    expect(compared).toBeGreaterThan(500);
    expect(changed).toEqual([]);
  });
});

describe('createUpstreamChanges()', () => {
  const refusal = (message: string) => new LegacyError('internal', { name: 'werkzeug.exceptions.UnprocessableEntity', message });

  it('knows what a series removed or redefined, and nothing of 19.0', () => {
    const changes = createUpstreamChanges();
    expect(isTableSeries('19.0')).toBe(true);
    expect(isTableSeries('saas~19.1')).toBe(false);
    expect(changes.changeOf('gw', 'res.partner', 'read_group', '19.0')).toBeUndefined();
    expect(changes.changeOf('gw', 'res.partner', 'read_group', undefined)).toBeUndefined();
    const readGroup = changes.changeOf('gw', 'res.partner', 'read_group', '20.0');
    expect(readGroup).toMatchObject({ evidence: 'series', replacement: 'formatted_read_group' });
    expect(readGroup?.what).toContain("Odoo 20.0 no longer has 19.0's res.partner.read_group()");
    expect(changes.changeOf('gw', 'res.partner', 'copy_translations', 'saas~19.2')?.replacement).toBe('copy');
    expect(changes.changeOf('gw', 'res.partner', 'search_read', '20.0')).toBeUndefined();
  });

  it("learns from JSON-2's refusal of a 19.0 parameter, never from another refusal, never in front of 19.0", () => {
    const changes = createUpstreamChanges();
    expect(
      changes.learnRefusal('gw', 'res.partner', 'read_group', v19ReadGroup, refusal("got an unexpected keyword argument 'fields'"), '19.0'),
    ).toBeUndefined();
    expect(
      changes.learnRefusal('gw', 'res.partner', 'read_group', v19ReadGroup, refusal("got an unexpected keyword argument 'x'"), undefined),
    ).toBeUndefined();
    expect(
      changes.learnRefusal('gw', 'res.partner', 'read_group', v19ReadGroup, refusal("missing a required argument: 'domain'"), undefined),
    ).toBeUndefined();
    const missing = changes.learnRefusal(
      'gw',
      'res.partner',
      'read_group',
      v19ReadGroup,
      refusal("missing a required argument: 'spec'"),
      undefined,
    );
    expect(missing?.evidence).toBe('refused-parameter');
    const learned = changes.learnRefusal(
      'gw',
      'res.partner',
      'name_search',
      lookupBuiltinSignature(builtinTable, 'res.partner', 'name_search') as MethodSignature,
      refusal("got an unexpected keyword argument 'operator'"),
      '20.0',
    );
    expect(learned?.what).toContain('the upstream (Odoo 20.0) refused res.partner.name_search()');
    expect(changes.changeOf('gw', 'res.partner', 'name_search', '20.0')).toBe(learned);
    expect(changes.changeOf('other', 'res.partner', 'name_search', '20.0')).toBeUndefined();
  });

  it('says in the fault what changed and what to call instead', () => {
    const changes = createUpstreamChanges();
    const change = changes.noteListed('gw', 'res.partner', 'read_group', v19ReadGroup, readGroup20, '20.0');
    const fault = changedMethodFault('res.partner', 'read_group', change as NonNullable<typeof change>);
    expect(fault.name).toBe('builtins.NotImplementedError');
    expect(fault.message).toBe(
      "legacy-rpc-gateway will not call res.partner.read_group() with Odoo 19.0's arguments: the upstream (Odoo 20.0) lists " +
        'res.partner.read_group(domain, groupby=[], aggregates=[], having=[], offset=0, limit=None, order=None) where Odoo 19.0 has ' +
        "read_group(domain, fields, groupby, offset=0, limit=None, orderby=False, lazy=True): it has no parameter 'fields'. Call formatted_read_group instead.",
    );
    expect(changes.noteListed('gw', 'res.partner', 'read_group', v19ReadGroup, readGroup20, '19.0')).toBeUndefined();
  });

  it('tells each change once per database and method', () => {
    const told: string[] = [];
    const changes = createUpstreamChanges({
      onChange: (db, model, method, change) => told.push(`${db} ${model}.${method} ${change.evidence}`),
    });
    for (let i = 0; i < 3; i++) changes.changeOf('gw', 'res.partner', 'read_group', '20.0');
    changes.changeOf('gw2', 'res.partner', 'read_group', '20.0');
    changes.changeOf('gw', 'res.partner', 'search', '20.0');
    expect(told).toEqual(['gw res.partner.read_group series', 'gw2 res.partner.read_group series']);
  });
});
