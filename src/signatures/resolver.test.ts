import { describe, expect, it, vi } from 'vitest';
import { bindArguments } from './bind.ts';
import { builtinTable, type BuiltinTable } from './builtin-table.ts';
import { createSignatureResolver, type SignatureSource } from './resolver.ts';
import type { MethodSignature } from './signature.ts';
import { struct, type Struct, type Value } from '../value.ts';
import { LegacyError } from '../errors.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

function sourceOf(name: string, entries: Record<string, MethodSignature>): SignatureSource {
  return {
    name,
    lookup: vi.fn(async (_db: string, model: string, method: string, _origin?: unknown) => entries[`${model}.${method}`]),
  };
}

const discoveredSearch: MethodSignature = {
  params: [{ name: 'domain', kind: 'POSITIONAL_OR_KEYWORD' }],
  apiModel: false, // /doc-bearer describes the base definition; the table knows better for its models
  qualname: 'BaseModel.search',
  source: 'discovered',
};

describe('createSignatureResolver()', () => {
  it('resolves from the built-in table by default', async () => {
    const resolver = createSignatureResolver();
    await expect(resolver.resolve('gw', 'res.partner', 'name_create')).resolves.toMatchObject({
      qualname: 'ResPartner.name_create',
      apiModel: true,
      source: 'builtin',
    });
    await expect(resolver.resolve('gw', 'x_custom.model', 'search')).resolves.toMatchObject({
      qualname: 'BaseModel.search',
      source: 'generic',
    });
    await expect(resolver.resolve('gw', 'res.partner', 'name_get')).resolves.toBeUndefined();
  });

  it('uses an injected table', async () => {
    const table: BuiltinTable = structuredClone(builtinTable);
    table.signatures['BaseModel.search']![1].reverse();
    const sig = (await createSignatureResolver({ table }).resolve('gw', 'res.partner', 'search')) as MethodSignature | undefined;
    expect(sig?.params.map((p) => p.name)).toEqual(['order', 'limit', 'offset', 'domain']);
  });

  it('asks the sources in order; the first hit wins', async () => {
    const override: MethodSignature = { params: [], apiModel: false, qualname: 'ResPartner.action_x', source: 'override' };
    const overrides = sourceOf('overrides', { 'res.partner.action_x': override });
    const discovery = sourceOf('discovery', { 'res.partner.action_x': { ...override, source: 'discovered' } });
    const resolver = createSignatureResolver({ sources: [overrides, discovery] });
    await expect(resolver.resolve('gw', 'res.partner', 'action_x')).resolves.toBe(override);
    expect(discovery.lookup).not.toHaveBeenCalled();
    await expect(resolver.resolve('gw', 'res.partner', 'read')).resolves.toMatchObject({ source: 'builtin' });
    expect(overrides.lookup).toHaveBeenLastCalledWith('gw', 'res.partner', 'read', undefined, undefined);
    expect(discovery.lookup).toHaveBeenLastCalledWith('gw', 'res.partner', 'read', undefined, undefined);
  });

  it("keeps the table's apiModel for a discovered method of a model the table knows", async () => {
    const discovery = sourceOf('discovery', {
      'res.partner.search': discoveredSearch,
      'x_custom.model.search': discoveredSearch,
    });
    // in front of 19.0, whose /doc-bearer describes the definition an override calls
    const resolver = createSignatureResolver({ sources: [discovery], upstreamSeries: () => '19.0' });
    await expect(resolver.resolve('gw', 'res.partner', 'search')).resolves.toEqual({ ...discoveredSearch, apiModel: true });
    await expect(resolver.resolve('gw', 'x_custom.model', 'search')).resolves.toBe(discoveredSearch);
  });
});

describe('createSignatureResolver() with discovery', () => {
  it("takes the table's qualname for a method it knows, and keeps the discovered one otherwise", async () => {
    const discovered = (qualname: string): MethodSignature => ({ params: [], apiModel: false, qualname, source: 'discovered' });
    const discovery = sourceOf('discovery', {
      'res.partner.name_create': { ...discovered('BaseModel.name_create'), params: [{ name: 'name', kind: 'POSITIONAL_OR_KEYWORD' }] },
      'res.partner.action_gateway_demo': discovered('ResPartner.action_gateway_demo'),
    });
    const resolver = createSignatureResolver({ sources: [discovery] });
    await expect(resolver.resolve('gw', 'res.partner', 'name_create')).resolves.toEqual({
      params: [{ name: 'name', kind: 'POSITIONAL_OR_KEYWORD' }],
      apiModel: true,
      qualname: 'ResPartner.name_create',
      source: 'discovered',
    });
    await expect(resolver.resolve('gw', 'res.partner', 'action_gateway_demo')).resolves.toEqual(
      discovered('ResPartner.action_gateway_demo'),
    );
  });

  it("hands the calling origin and the caller's key to every source", async () => {
    const discovery = sourceOf('discovery', {});
    const origin = testCallOrigin({ host: 'h', ip: '1.2.3.4', requestId: 'r' });
    await createSignatureResolver({ sources: [discovery] }).resolve('gw', 'res.partner', 'search', origin, 'k'.repeat(40));
    expect(discovery.lookup).toHaveBeenCalledWith('gw', 'res.partner', 'search', origin, 'k'.repeat(40));
  });

  it('answers undefined for a method of a model the table knows when no source has it, and says the model is known', async () => {
    const resolver = createSignatureResolver({ sources: [sourceOf('discovery', {})] });
    await expect(resolver.resolve('gw', 'res.partner', 'user_has_groups')).resolves.toBeUndefined();
    expect(resolver.knowsModel('res.partner')).toBe(true);
    await expect(resolver.resolve('gw', 'x_custom.model', 'user_has_groups')).resolves.toBeUndefined();
    expect(resolver.knowsModel('x_custom.model')).toBe(false);
  });
});

describe('createSignatureResolver(): an override that forwards its keywords', () => {
  // mail's MailThread.message_post, which /doc-bearer describes, and sms's override that runs (the
  // table's): `def message_post(self, *args, body='', message_type='notification', **kwargs)` calling
  // `super().message_post(*args, body=body, message_type=message_type, **kwargs)`
  const kwonly = (name: string) => ({ name, kind: 'KEYWORD_ONLY' as const, default: 'None' });
  const base: MethodSignature = {
    params: [kwonly('body'), kwonly('subject'), kwonly('message_type'), kwonly('partner_ids'), { name: 'kwargs', kind: 'VAR_KEYWORD' }],
    apiModel: false,
    qualname: 'MailThread.message_post',
    source: 'discovered',
  };
  const resolver = createSignatureResolver({ sources: [sourceOf('discovery', { 'res.partner.message_post': base })] });

  it("counts the keywords the override passes on in Python's TypeError, as Odoo 19.0 words it", async () => {
    const sig = (await resolver.resolve('gw', 'res.partner', 'message_post')) as MethodSignature;
    expect(sig.forwardedKeywords).toEqual(['body', 'message_type']);
    const fault = (args: Value[], kwargs: Struct) => {
      const bound = bindArguments(sig, 'res.partner', 'message_post', args, kwargs);
      return bound instanceof Map ? undefined : bound.message;
    };
    expect(fault(['hello'], new Map())).toBe(
      'MailThread.message_post() takes 1 positional argument but 2 positional arguments (and 2 keyword-only arguments) were given',
    );
    expect(fault(['hello'], struct({ subject: 'x' }))).toBe(
      'MailThread.message_post() takes 1 positional argument but 2 positional arguments (and 3 keyword-only arguments) were given',
    );
    expect(fault(['hello'], struct({ body: 'x' }))).toBe(
      'MailThread.message_post() takes 1 positional argument but 2 positional arguments (and 2 keyword-only arguments) were given',
    );
    // called by keyword only, it binds, and only what the caller sent goes to JSON-2
    expect(bindArguments(sig, 'res.partner', 'message_post', [], struct({ body: 'x' }))).toEqual(struct({ body: 'x' }));
  });

  it('does not count them where the definition it calls takes *args too', async () => {
    const withVarargs = { ...base, params: [{ name: 'args', kind: 'VAR_POSITIONAL' as const }, ...base.params] };
    const other = createSignatureResolver({ sources: [sourceOf('discovery', { 'res.partner.message_post': withVarargs })] });
    expect(((await other.resolve('gw', 'res.partner', 'message_post')) as MethodSignature | undefined)?.forwardedKeywords).toBeUndefined();
  });
});

describe('createSignatureResolver(): a method the upstream changed since 19.0', () => {
  // Odoo 20.0's read_group, as its /doc-bearer lists it
  const param = (name: string, dflt?: string) => ({
    name,
    kind: 'POSITIONAL_OR_KEYWORD' as const,
    ...(dflt === undefined ? {} : { default: dflt }),
  });
  const readGroup20: MethodSignature = {
    params: [
      param('domain'),
      param('groupby', '[]'),
      param('aggregates', '[]'),
      param('having', '[]'),
      param('offset', '0'),
      param('limit', 'None'),
      param('order', 'None'),
    ],
    apiModel: true,
    qualname: 'BaseModel.read_group',
    source: 'discovered',
  };
  const discovery = () => sourceOf('discovery', { 'res.partner.read_group': readGroup20, 'x_custom.model.read_group': readGroup20 });

  it("binds by 19.0's signature and marks the change where /doc-bearer lists other parameters", async () => {
    const resolver = createSignatureResolver({ sources: [discovery()], upstreamSeries: () => '20.0' });
    for (const model of ['res.partner', 'x_custom.model']) {
      const sig = (await resolver.resolve('gw', model, 'read_group')) as MethodSignature;
      expect(sig.params.map((p) => p.name)).toEqual(['domain', 'fields', 'groupby', 'offset', 'limit', 'orderby', 'lazy']);
      expect(sig.upstreamChange?.evidence).toBe('series');
    }
    // with no series known, the listing alone tells
    const unknown = createSignatureResolver({ sources: [discovery()] });
    const sig = (await unknown.resolve('gw', 'res.partner', 'read_group')) as MethodSignature;
    expect(sig.params.map((p) => p.name)).toEqual(['domain', 'fields', 'groupby', 'offset', 'limit', 'orderby', 'lazy']);
    expect(sig.upstreamChange).toMatchObject({ evidence: 'doc-bearer', replacement: 'formatted_read_group' });
    expect(sig.upstreamChange?.what).toContain("it has no parameter 'fields'");
  });

  it('knows a removed method from the series alone, and nothing in front of 19.0', async () => {
    const later = createSignatureResolver({ sources: [sourceOf('discovery', {})], upstreamSeries: () => 'saas~19.1' });
    await expect(later.resolve('gw', 'res.partner', 'toggle_active')).resolves.toMatchObject({ upstreamChange: { evidence: 'series' } });
    await expect(later.resolve('gw', 'res.partner', 'search_read')).resolves.not.toHaveProperty('upstreamChange');
    const v19 = createSignatureResolver({ sources: [discovery()], upstreamSeries: () => '19.0' });
    await expect(v19.resolve('gw', 'res.partner', 'toggle_active')).resolves.not.toHaveProperty('upstreamChange');
    await expect(v19.resolve('gw', 'res.partner', 'read_group')).resolves.not.toHaveProperty('upstreamChange');
  });

  it("learns from a refusal of one of 19.0's own parameters, for that database only", async () => {
    const resolver = createSignatureResolver({ sources: [sourceOf('discovery', {})] });
    const refusal = (message: string) => new LegacyError('internal', { name: 'werkzeug.exceptions.UnprocessableEntity', message });
    await expect(
      resolver.learnRefusal('gw', 'res.partner', 'read_group', refusal("got an unexpected keyword argument 'x_extra'")),
    ).resolves.toBeUndefined();
    await expect(resolver.learnRefusal('gw', 'res.partner', 'read_group', new Error('down'))).resolves.toBeUndefined();
    const change = await resolver.learnRefusal('gw', 'res.partner', 'read_group', refusal("got an unexpected keyword argument 'fields'"));
    expect(change).toMatchObject({ evidence: 'refused-parameter' });
    await expect(resolver.resolve('gw', 'res.partner', 'read_group')).resolves.toMatchObject({ upstreamChange: change });
    await expect(resolver.resolve('gw2', 'res.partner', 'read_group')).resolves.not.toHaveProperty('upstreamChange');
  });

  it('leaves an override alone: the operator said what the method takes', async () => {
    const override: MethodSignature = { ...readGroup20, source: 'override' };
    const resolver = createSignatureResolver({
      sources: [sourceOf('overrides', { 'res.partner.read_group': override })],
      upstreamSeries: () => '20.0',
    });
    await expect(resolver.resolve('gw', 'res.partner', 'read_group')).resolves.toBe(override);
  });

  it("keeps the table's classmethod mark on a discovered method (/doc-bearer lists it like a record method)", async () => {
    const listed: MethodSignature = {
      params: [{ name: 'name', kind: 'POSITIONAL_OR_KEYWORD' }],
      apiModel: false,
      qualname: 'IrModuleModule.get_module_info',
      source: 'discovered',
    };
    const discovery = sourceOf('discovery', { 'ir.module.module.get_module_info': listed });
    const sig = await createSignatureResolver({ sources: [discovery] }).resolve('gw', 'ir.module.module', 'get_module_info');
    expect(sig).toMatchObject({ binding: 'classmethod', source: 'discovered' });
    expect(bindArguments(sig as MethodSignature, 'ir.module.module', 'get_module_info', [], new Map())).toEqual(new Map());
  });
});
