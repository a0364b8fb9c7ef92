import { describe, expect, it } from 'vitest';
import { validateOverrides } from './validate-overrides.ts';

describe('validateOverrides()', () => {
  it('turns declarations into override signatures, in declaration order', () => {
    const { table, problems } = validateOverrides({
      'res.partner': {
        action_gateway_demo: { level: 'record', parameters: { note: {}, flag: { default: false } } },
        compute_report: {
          level: 'model',
          parameters: { partner_id: null, mode: { default: 'full', annotation: 'str' }, kw: { kind: 'VAR_KEYWORD' } },
          qualname: 'ReportMixin.compute_report',
        },
        action_none: { level: 'record' },
      },
    });
    expect(problems).toEqual([]);
    expect(table.get('res.partner')?.get('action_gateway_demo')).toEqual({
      params: [
        { name: 'note', kind: 'POSITIONAL_OR_KEYWORD' },
        { name: 'flag', kind: 'POSITIONAL_OR_KEYWORD', default: 'False' },
      ],
      apiModel: false,
      qualname: 'ResPartner.action_gateway_demo',
      source: 'override',
    });
    expect(table.get('res.partner')?.get('compute_report')).toEqual({
      params: [
        { name: 'partner_id', kind: 'POSITIONAL_OR_KEYWORD' },
        { name: 'mode', kind: 'POSITIONAL_OR_KEYWORD', default: "'full'" },
        { name: 'kw', kind: 'VAR_KEYWORD' },
      ],
      apiModel: true,
      qualname: 'ReportMixin.compute_report',
      source: 'override',
    });
    expect(table.get('res.partner')?.get('action_none')?.params).toEqual([]);
  });

  it("accepts every parameter kind in Python's order", () => {
    const { problems } = validateOverrides({
      'x.y': {
        m: {
          level: 'model',
          parameters: {
            a: { kind: 'POSITIONAL_ONLY' },
            b: { default: 1 },
            args: { kind: 'VAR_POSITIONAL' },
            c: { kind: 'KEYWORD_ONLY' },
            d: { kind: 'KEYWORD_ONLY', default: null },
            e: { kind: 'KEYWORD_ONLY' },
            kwargs: { kind: 'VAR_KEYWORD' },
          },
        },
      },
    });
    expect(problems).toEqual([]);
  });

  it.each([
    ['an empty file', null, ['the file is empty: it must map model names to their methods']],
    ['a list at the top', [1], ['the file must map model names to their methods ({"res.partner": {"action_x": {…}}}); found a list']],
    ['a bad model name', { 'res partner': { m: { level: 'record' } } }, ['"res partner" is not a model name']],
    ['methods as a list', { 'res.partner': ['action_x'] }, ['res.partner: must map method names to signatures; found a list']],
    ['a model without methods', { 'res.partner': {} }, ['res.partner: declares no methods']],
    ['a bad method name', { 'res.partner': { 'action-x': { level: 'record' } } }, ['res.partner.action-x: is not a Python method name']],
    [
      'a private method',
      { 'res.partner': { _compute_x: { level: 'record' } } },
      ['res.partner._compute_x: is private (leading "_"): Odoo refuses it over RPC, so its signature would never be used'],
    ],
    [
      'a method that is not a mapping',
      { 'res.partner': { m: 'record' } },
      ['res.partner.m: must be a mapping with "level" and "parameters"; found "record"'],
    ],
    [
      'a missing level',
      { 'res.partner': { m: { parameters: {} } } },
      ['res.partner.m: "level" is missing: "record" (the first legacy argument is the ids) or "model" (@api.model, no ids)'],
    ],
    [
      'a wrong level',
      { 'res.partner': { m: { level: 'recordset' } } },
      ['res.partner.m: "level" must be "record" (the first legacy argument is the ids) or "model" (@api.model, no ids); found "recordset"'],
    ],
    [
      'an unknown key',
      { 'res.partner': { m: { level: 'model', params: ['a'] } } },
      ['res.partner.m: unknown key "params" (expected level, parameters, qualname)'],
    ],
    [
      'a bad qualname',
      { 'res.partner': { m: { level: 'model', qualname: 'Res Partner.m' } } },
      ['res.partner.m: "qualname" must be a dotted Python name such as ResPartner.m; found "Res Partner.m"'],
    ],
    [
      'parameters as a list',
      { 'res.partner': { m: { level: 'model', parameters: ['a', 'b'] } } },
      ['res.partner.m: "parameters" must map parameter names, in declaration order, to {} or {default, kind}; found a list'],
    ],
    [
      'self listed',
      { 'res.partner': { m: { level: 'record', parameters: { self: {} } } } },
      ['res.partner.m: parameter "self" is implicit: list the parameters after it'],
    ],
    [
      'a bad parameter name',
      { 'res.partner': { m: { level: 'record', parameters: { '2a': {} } } } },
      ['res.partner.m: parameter "2a" is not a Python identifier'],
    ],
    [
      'a parameter given as a bare default',
      { 'res.partner': { m: { level: 'record', parameters: { flag: false } } } },
      ['res.partner.m: parameter "flag" must be {} (required) or {default: …, kind: …}; found false'],
    ],
    [
      'an unknown parameter key',
      { 'res.partner': { m: { level: 'record', parameters: { a: { type: 'str' } } } } },
      ['res.partner.m: parameter "a": unknown key "type" (expected default, kind, annotation, doc)'],
    ],
    [
      'a bad kind',
      { 'res.partner': { m: { level: 'record', parameters: { a: { kind: 'KEYWORD' } } } } },
      [
        'res.partner.m: parameter "a": "kind" must be one of POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD; found "KEYWORD"',
      ],
    ],
    [
      'a default on **kwargs',
      { 'res.partner': { m: { level: 'record', parameters: { kw: { kind: 'VAR_KEYWORD', default: {} } } } } },
      ['res.partner.m: parameter "kw": a VAR_KEYWORD parameter cannot have a default'],
    ],
    [
      'kinds out of order',
      { 'res.partner': { m: { level: 'record', parameters: { a: { kind: 'KEYWORD_ONLY' }, b: {} } } } },
      [
        'res.partner.m: parameter "b" (POSITIONAL_OR_KEYWORD) cannot follow "a" (KEYWORD_ONLY): Python orders them POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD',
      ],
    ],
    [
      'two *args',
      { 'res.partner': { m: { level: 'record', parameters: { a: { kind: 'VAR_POSITIONAL' }, b: { kind: 'VAR_POSITIONAL' } } } } },
      ['res.partner.m: parameter "b": only one VAR_POSITIONAL parameter is allowed'],
    ],
    [
      'a required parameter after a default',
      { 'res.partner': { m: { level: 'record', parameters: { a: { default: 1 }, b: {} } } } },
      [
        'res.partner.m: parameter "b" has no default but follows "a", which has one (Python: non-default argument follows default argument)',
      ],
    ],
  ])('reports %s', (_what, tree, problems) => {
    expect(validateOverrides(tree).problems).toEqual(problems);
  });

  it('reports every mistake, not only the first', () => {
    const { problems } = validateOverrides({
      'res.partner': { a: { level: 'x' }, b: { level: 'record', parameters: { self: {} } }, c: { level: 'model' } },
      'bad model': {},
    });
    expect(problems).toHaveLength(3);
  });

  it('allows a keyword-only parameter without a default after one with a default (as Python does)', () => {
    const tree = { 'x.y': { m: { level: 'model', parameters: { a: { default: 1 }, b: { kind: 'KEYWORD_ONLY' } } } } };
    expect(validateOverrides(tree).problems).toEqual([]);
  });
});
