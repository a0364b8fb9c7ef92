import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMethodTable, renderBuiltinTableModule } from '../../scripts/gen-signature-table.ts';
import { builtinTable, isBuiltinModel, lookupBuiltinSignature, type BuiltinTable } from './builtin-table.ts';

const methodTable = readMethodTable();
const models = Object.keys(methodTable);

describe('builtin-table.generated.ts', () => {
  it('is up to date with scripts/gen-signature-table.ts and the fixture', () => {
    const onDisk = readFileSync(new URL('./builtin-table.generated.ts', import.meta.url), 'utf8');
    expect(onDisk, 'run `npx tsx scripts/gen-signature-table.ts`').toBe(renderBuiltinTableModule(methodTable));
  });

  it('writes each signature once', () => {
    const pairs = models.reduce((n, m) => n + Object.keys(methodTable[m]!).length, 0);
    expect(pairs).toBe(1265);
    expect(Object.keys(builtinTable.signatures)).toHaveLength(293);
    expect(builtinTable.generic).toHaveLength(54);
  });
});

describe('lookupBuiltinSignature()', () => {
  const pairs = models.flatMap((model) => Object.keys(methodTable[model]!).map((method) => ({ model, method })));

  it.each(pairs)('reproduces _method-table.json for $model.$method', ({ model, method }) => {
    const entry = methodTable[model]![method]!;
    const sig = lookupBuiltinSignature(builtinTable, model, method);
    expect(sig).toEqual({
      params: entry.params.map(([name, kind, d]) => (d === null ? { name, kind } : { name, kind, default: d })),
      apiModel: entry.api_model,
      qualname: entry.qualname,
      source: 'builtin',
    });
  });

  it.each([
    ['res.partner', 'name_create', 'ResPartner.name_create', true],
    ['res.partner', 'search', 'BaseModel.search', true],
    ['res.partner', 'search_count', 'BaseModel.search_count', true],
    ['res.partner', 'read', 'BaseModel.read', false],
    ['res.users', 'read', 'ResUsers.read', false],
    ['res.partner', 'create', 'ResPartner.create', true],
    ['sale.order', 'message_post', 'SaleOrder.message_post', false],
    ['res.users', 'context_get', 'ResUsers.context_get', true],
  ])('%s.%s runs %s (model-level: %s)', (model, method, qualname, apiModel) => {
    expect(lookupBuiltinSignature(builtinTable, model, method)).toMatchObject({ qualname, apiModel, source: 'builtin' });
  });

  it.each(['x_custom.model', 'account.move', 'res.partner.bank'])('gives %s the generic BaseModel/base methods', (model) => {
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
    expect(lookupBuiltinSignature(builtinTable, model, 'read')).toMatchObject({ qualname: 'BaseModel.read', apiModel: false });
    expect(lookupBuiltinSignature(builtinTable, model, 'create')).toMatchObject({ qualname: 'BaseModel.create', apiModel: true });
    expect(lookupBuiltinSignature(builtinTable, model, 'unlink')).toMatchObject({ qualname: 'Base.unlink', source: 'generic' });
    expect(lookupBuiltinSignature(builtinTable, model, 'web_read_group')).toMatchObject({ qualname: 'Base.web_read_group' });
  });

  it('covers every method whose BaseModel/Base qualname is the same on all 19 models', () => {
    const common = Object.keys(methodTable['res.partner']!).filter((method) => {
      const qualnames = new Set(models.map((m) => methodTable[m]![method]?.qualname));
      const [only] = qualnames;
      return qualnames.size === 1 && (only === `BaseModel.${method}` || only === `Base.${method}`);
    });
    expect(common.length).toBeGreaterThan(30);
    for (const method of common) {
      expect(lookupBuiltinSignature(builtinTable, 'x_custom.model', method)?.source, method).toBe('generic');
    }
  });

  it.each([
    ['res.partner', 'name_get'],
    ['res.partner', 'action_confirm'],
    ['x_custom.model', 'message_post'],
    ['x_custom.model', 'action_foo'],
    ['x_custom.model', '__proto__'],
    ['x_custom.model', 'constructor'],
    ['res.partner', 'toString'],
  ])('knows nothing of %s.%s', (model, method) => {
    expect(lookupBuiltinSignature(builtinTable, model, method)).toBeUndefined();
  });

  it('tells the 19 known models from others', () => {
    expect(isBuiltinModel(builtinTable, 'res.partner')).toBe(true);
    expect(isBuiltinModel(builtinTable, 'x_custom.model')).toBe(false);
    expect(isBuiltinModel(builtinTable, 'constructor')).toBe(false);
    expect(lookupBuiltinSignature(builtinTable, '__proto__', 'search')?.source).toBe('generic');
  });

  it('is frozen, and a clone can be changed and injected', () => {
    expect(Object.isFrozen(builtinTable.signatures['BaseModel.search'])).toBe(true);
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
});
