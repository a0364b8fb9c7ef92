import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMethodTable, readMethodTableAll, renderBuiltinTableModule, type MethodTableEntry } from '../../scripts/gen-signature-table.ts';
import { builtinTable, isBuiltinModel, lookupBuiltinSignature, type BuiltinTable } from './builtin-table.ts';
import { unboundMethods } from './unbound-methods.ts';

const methodTable = readMethodTable();
const models = Object.keys(methodTable);
const all = readMethodTableAll();
const deprecations = JSON.parse(readFileSync(new URL('../../fixtures/odoo-data/_deprecations.json', import.meta.url), 'utf8')) as {
  methods: Record<string, { model: string }[]>;
};

/** What lookupBuiltinSignature should answer for an entry of either fixture (a classmethod's is marked). */
function expected(entry: MethodTableEntry, source: 'builtin' | 'generic') {
  const unbound = unboundMethods[entry.qualname];
  return {
    params:
      unbound === undefined
        ? entry.params.map(([name, kind, d]) => (d === null ? { name, kind } : { name, kind, default: d }))
        : unbound.params.map(([name]) => ({ name, kind: 'POSITIONAL_OR_KEYWORD' })),
    apiModel: entry.api_model,
    qualname: entry.qualname,
    source,
    ...(unbound === undefined ? {} : { binding: unbound.binding }),
    ...(entry.deprecated === true ? { deprecated: true } : {}),
  };
}

describe('builtin-table.generated.ts', () => {
  it('is up to date with scripts/gen-signature-table.ts and the fixtures', () => {
    const onDisk = readFileSync(new URL('./builtin-table.generated.ts', import.meta.url), 'utf8');
    expect(onDisk, 'run `npx tsx scripts/gen-signature-table.ts`').toBe(renderBuiltinTableModule(all, methodTable));
  });

  it('writes each signature once, and each model only where it differs from the base model', () => {
    expect(Object.keys(builtinTable.models)).toHaveLength(686);
    expect(Object.keys(builtinTable.signatures)).toHaveLength(2569);
    expect(builtinTable.generic).toHaveLength(56);
    const references = Object.values(builtinTable.models).reduce((n, qualnames) => n + qualnames.length, 0);
    expect(references).toBeLessThan(5000); // not 686 × 56 generic entries
  });
});

describe('lookupBuiltinSignature()', () => {
  const pairs = models.flatMap((model) => Object.keys(methodTable[model]!).map((method) => ({ model, method })));

  it.each(pairs)('reproduces _method-table.json (the demo install) for $model.$method', ({ model, method }) => {
    const entry = methodTable[model]![method]!;
    const sig = lookupBuiltinSignature(builtinTable, model, method);
    expect({ ...sig, deprecated: undefined }).toEqual({ ...expected(entry, 'builtin'), deprecated: undefined });
  });

  it('reproduces _method-table-all.json for every method of the other 667 models: _shared, overlaid by their own', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const [model, { methods }] of Object.entries(all.models)) {
      if (model in methodTable) continue;
      for (const [method, entry] of Object.entries({ ...all._shared, ...methods })) {
        checked++;
        const sig = lookupBuiltinSignature(builtinTable, model, method);
        if (JSON.stringify(sig) !== JSON.stringify(expected(entry, 'builtin'))) wrong.push(`${model}.${method}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(37_000);
  });

  it("keeps the methods the 19 models gain from the extra apps, with the apps' qualnames", () => {
    expect(lookupBuiltinSignature(builtinTable, 'res.partner', 'action_view_tasks')).toMatchObject({
      qualname: 'ResPartner.action_view_tasks',
      source: 'builtin',
    });
    expect(lookupBuiltinSignature(builtinTable, 'sale.order', 'action_view_delivery')).toMatchObject({
      qualname: 'SaleOrder.action_view_delivery',
      apiModel: false,
    });
  });

  it.each([
    ['res.partner', 'name_create', 'ResPartner.name_create', true],
    ['res.partner', 'search', 'BaseModel.search', true],
    ['res.partner', 'read', 'BaseModel.read', false],
    ['res.users', 'read', 'ResUsers.read', false],
    ['sale.order', 'message_post', 'SaleOrder.message_post', false],
    ['res.users', 'context_get', 'ResUsers.context_get', true],
    // the demo install's qualname where an app of the bigger install overrides the same signature
    ['uom.uom', 'write', 'BaseModel.write', false],
    ['res.partner', 'get_base_url', 'BaseModel.get_base_url', false],
    // models the 19-model table lacked
    ['ir.model.data', 'check_object_reference', 'IrModelData.check_object_reference', true],
    ['account.move', 'action_post', 'AccountMove.action_post', false],
    ['mail.message', 'set_message_done', 'MailMessage.set_message_done', false],
    ['res.partner.bank', 'get_base_url', 'Base.get_base_url', false],
  ])('%s.%s runs %s (model-level: %s)', (model, method, qualname, apiModel) => {
    expect(lookupBuiltinSignature(builtinTable, model, method)).toMatchObject({ qualname, apiModel, source: 'builtin' });
  });

  it.each(['x_custom.model', 'x_studio.thing'])("gives %s, a model of neither install, the base model's methods", (model) => {
    expect(lookupBuiltinSignature(builtinTable, model, 'search')).toEqual({
      params: [
        { name: 'domain', kind: 'POSITIONAL_OR_KEYWORD' },
        { name: 'offset', kind: 'POSITIONAL_OR_KEYWORD', default: '0' },
        { name: 'limit', kind: 'POSITIONAL_OR_KEYWORD', default: 'None' },
        { name: 'order', kind: 'POSITIONAL_OR_KEYWORD', default: 'None' },
      ],
      apiModel: true,
      qualname: 'BaseModel.search',
      source: 'generic',
    });
    for (const [method, entry] of Object.entries(all._shared)) {
      expect(lookupBuiltinSignature(builtinTable, model, method), method).toEqual(expected(entry, 'generic'));
    }
  });

  it('flags the methods _deprecations.json lists, on the model that declares them (base: every model), and no other', () => {
    const flagged = (model: string) =>
      [...new Set([...Object.keys(all._shared), ...Object.keys(all.models[model]?.methods ?? {})])].filter(
        (m) => lookupBuiltinSignature(builtinTable, model, m)?.deprecated === true,
      );
    const onBase = Object.entries(deprecations.methods)
      .filter(([, ds]) => ds.some((d) => d.model === 'base'))
      .map(([m]) => m)
      .sort();
    expect(onBase).toEqual(['check_access_rights', 'check_access_rule', 'check_field_access_rights', 'read_group', 'toggle_active']);
    expect(flagged('x_custom.model').sort()).toEqual(onBase);
    expect(flagged('res.partner').sort()).toEqual(onBase);
    expect(flagged('ir.http').sort()).toEqual([...onBase, 'get_currencies'].sort());
    expect(lookupBuiltinSignature(builtinTable, 'account.move', 'check_field_access_rights')).toMatchObject({
      qualname: 'AccountMove.check_field_access_rights',
      deprecated: true,
    });
    expect(lookupBuiltinSignature(builtinTable, 'sale.order', 'read_group')).toMatchObject({
      qualname: 'BaseModel.read_group',
      apiModel: true,
      deprecated: true,
      params: [
        { name: 'domain' },
        { name: 'fields' },
        { name: 'groupby' },
        { name: 'offset' },
        { name: 'limit' },
        { name: 'orderby' },
        { name: 'lazy' },
      ],
    });
    expect(lookupBuiltinSignature(builtinTable, 'res.partner', 'search')).not.toHaveProperty('deprecated');
  });

  it.each([
    ['res.partner', 'name_get'],
    ['res.partner', 'user_has_groups'],
    ['res.partner', 'action_confirm'],
    ['x_custom.model', 'message_post'],
    ['x_custom.model', 'action_foo'],
    ['x_custom.model', '__proto__'],
    ['x_custom.model', 'constructor'],
    ['res.partner', 'toString'],
    ['res.partner', 'hasOwnProperty'],
  ])('knows nothing of %s.%s', (model, method) => {
    expect(lookupBuiltinSignature(builtinTable, model, method)).toBeUndefined();
  });

  it('tells the 686 known models from others: "model known, method unknown" is a method of neither install', () => {
    expect(isBuiltinModel(builtinTable, 'res.partner')).toBe(true);
    expect(isBuiltinModel(builtinTable, 'ir.model.data')).toBe(true);
    expect(isBuiltinModel(builtinTable, 'x_custom.model')).toBe(false);
    expect(isBuiltinModel(builtinTable, 'constructor')).toBe(false);
    expect(isBuiltinModel(builtinTable, '__proto__')).toBe(false);
    expect(lookupBuiltinSignature(builtinTable, '__proto__', 'search')?.source).toBe('generic');
    expect(lookupBuiltinSignature(builtinTable, 'hasOwnProperty', 'search')?.source).toBe('generic');
  });

  it('is frozen, and a clone can be changed and injected', () => {
    expect(Object.isFrozen(builtinTable.signatures['BaseModel.search'])).toBe(true);
    expect(Object.isFrozen(builtinTable.signatures['BaseModel.search']![1])).toBe(true);
    expect(Object.isFrozen(builtinTable.signatures)).toBe(true);
    expect(Object.isFrozen(builtinTable.models)).toBe(true);
    expect(Object.isFrozen(builtinTable.models['res.partner'])).toBe(true);
    expect(() => builtinTable.generic.push('x')).toThrow(TypeError);
    const clone: BuiltinTable = structuredClone(builtinTable);
    const params = clone.signatures['BaseModel.search']![1];
    [params[0], params[1]] = [params[1]!, params[0]!];
    expect(lookupBuiltinSignature(clone, 'res.partner', 'search')?.params.map((p) => p.name)).toEqual([
      'offset',
      'domain',
      'limit',
      'order',
    ]);
    expect(lookupBuiltinSignature(builtinTable, 'res.partner', 'search')?.params[0]?.name).toBe('domain');
  });

  it('builds each signature of the frozen table once, frozen, per source; a clone is read live', () => {
    const first = lookupBuiltinSignature(builtinTable, 'res.partner', 'search');
    expect(lookupBuiltinSignature(builtinTable, 'res.partner', 'search')).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first?.params) && Object.isFrozen(first?.params[0])).toBe(true);
    expect(() => (first?.params as unknown as unknown[]).push({ name: 'x' })).toThrow(TypeError);
    // the same qualname for a model the table does not know is another object, with its own source
    const generic = lookupBuiltinSignature(builtinTable, 'x_unknown.model', 'search');
    expect([first?.source, generic?.source]).toEqual(['builtin', 'generic']);
    expect(generic).not.toBe(first);
    expect(generic?.params).toEqual(first?.params);
    const clone: BuiltinTable = structuredClone(builtinTable);
    const before = lookupBuiltinSignature(clone, 'res.partner', 'search');
    clone.signatures['BaseModel.search']![1].reverse();
    expect(lookupBuiltinSignature(clone, 'res.partner', 'search')?.params.map((p) => p.name)).toEqual(
      [...(before?.params.map((p) => p.name) ?? [])].reverse(),
    );
  });

  it('gives the classmethods and staticmethods their declared parameters, marked', () => {
    for (const [qualname, { params }] of Object.entries(unboundMethods)) {
      const row = builtinTable.signatures[qualname];
      // a record-level row whose parameters are the declared ones without the first
      expect(row?.[0], qualname).toBe(false);
      expect(row?.[1], qualname).toEqual(params.slice(1));
    }
    expect(lookupBuiltinSignature(builtinTable, 'ir.module.module', 'get_module_info')).toMatchObject({
      binding: 'classmethod',
      params: [{ name: 'name', kind: 'POSITIONAL_OR_KEYWORD' }],
    });
    expect(lookupBuiltinSignature(builtinTable, 'res.partner', 'is_transient')).toMatchObject({ binding: 'classmethod', params: [] });
    expect(lookupBuiltinSignature(builtinTable, 'res.partner', 'search')).not.toHaveProperty('binding');
  });
});
