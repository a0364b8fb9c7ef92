import { describe, expect, it } from 'vitest';
import { LegacyError } from '../errors.ts';
import { PyFloat, struct, type Struct, type Value } from '../value.ts';
import { bindArguments } from './bind.ts';
import { builtinTable, lookupBuiltinSignature } from './builtin-table.ts';
import type { MethodSignature, Param } from './signature.ts';

function builtin(model: string, method: string): MethodSignature {
  const sig = lookupBuiltinSignature(builtinTable, model, method);
  if (sig === undefined) throw new Error(`no signature for ${model}.${method}`);
  return sig;
}

function synthetic(qualname: string, params: Param[]): MethodSignature {
  return { qualname, params, apiModel: false, source: 'override' };
}

function bindOk(sig: MethodSignature, args: Value[], kwargs: Struct = new Map()): [string, Value][] {
  const result = bindArguments(sig, 'res.partner', methodOf(sig), args, kwargs);
  if (result instanceof LegacyError) throw new Error(`unexpected fault: ${result.message}`);
  return [...result.entries()];
}

function bindFault(sig: MethodSignature, args: Value[], kwargs: Struct = new Map(), model = 'res.partner'): LegacyError {
  const result = bindArguments(sig, model, methodOf(sig), args, kwargs);
  if (!(result instanceof LegacyError)) throw new Error('expected a fault');
  return result;
}

function methodOf(sig: MethodSignature): string {
  return sig.qualname.slice(sig.qualname.lastIndexOf('.') + 1);
}

const kw = (entries: Record<string, Value>) => struct(entries);

describe('bindArguments()', () => {
  describe("Python's TypeError texts, with the qualname of the method that runs", () => {
    it.each([
      ['res.partner', 'name_create', [], {}, "ResPartner.name_create() missing 1 required positional argument: 'name'"],
      ['res.partner.category', 'search', [], {}, "BaseModel.search() missing 1 required positional argument: 'domain'"],
      [
        'res.partner',
        'search_count',
        [[], 1, 2, 3],
        {},
        'BaseModel.search_count() takes from 2 to 3 positional arguments but 5 were given',
      ],
      ['res.partner', 'name_create', ['a', 'b'], {}, 'ResPartner.name_create() takes 2 positional arguments but 3 were given'],
      ['res.partner', 'search', [[]], { bogus: 1 }, "BaseModel.search() got an unexpected keyword argument 'bogus'"],
      ['res.partner', 'search', [[]], { domain: [] }, "BaseModel.search() got multiple values for argument 'domain'"],
      ['res.partner', 'search', [[]], { self: 1 }, "BaseModel.search() got multiple values for argument 'self'"],
      ['res.partner', 'search', [], { count: true }, "BaseModel.search() got an unexpected keyword argument 'count'"],
      ['res.partner', 'name_search', [], { args: [] }, "BaseModel.name_search() got an unexpected keyword argument 'args'"],
      ['x_custom.model', 'unlink', [1], {}, 'Base.unlink() takes 1 positional argument but 2 were given'],
      ['res.partner', 'unlink', [1], {}, 'MailThread.unlink() takes 1 positional argument but 2 were given'],
      [
        'res.partner',
        'formatted_read_grouping_sets',
        [[]],
        {},
        "Base.formatted_read_grouping_sets() missing 1 required positional argument: 'grouping_sets'",
      ],
      [
        'res.partner',
        'formatted_read_grouping_sets',
        [[], [], [], 1],
        { order: 'id' },
        'Base.formatted_read_grouping_sets() takes from 3 to 4 positional arguments but 5 positional arguments (and 1 keyword-only argument) were given',
      ],
      [
        'res.users',
        'send_unregistered_user_reminder',
        [1],
        { after_days: 2, batch_size: 3 },
        'ResUsers.send_unregistered_user_reminder() takes 1 positional argument but 2 positional arguments (and 2 keyword-only arguments) were given',
      ],
    ] as [string, string, Value[], Record<string, Value>, string][])('%s.%s(%j, %j)', (model, method, args, kwargs, message) => {
      const fault = bindFault(builtin(model, method), args, kw(kwargs), model);
      expect(fault.message).toBe(message);
      expect(fault.lastLine).toBe(`TypeError: ${message}`);
    });

    it.each([
      [[], "X.f() missing 2 required positional arguments: 'a' and 'b'"],
      [[1], "X.f() missing 1 required positional argument: 'b'"],
      [[1, 2, 3, 4], 'X.f() takes from 3 to 4 positional arguments but 5 were given'],
    ])('counts and joins the names for f(self, a, b, c=1): %j', (args, message) => {
      const sig = synthetic('X.f', [
        { name: 'a', kind: 'POSITIONAL_OR_KEYWORD' },
        { name: 'b', kind: 'POSITIONAL_OR_KEYWORD' },
        { name: 'c', kind: 'POSITIONAL_OR_KEYWORD', default: '1' },
      ]);
      expect(bindFault(sig, args).message).toBe(message);
    });

    it("names three or more with an Oxford comma: 'a', 'b', and 'c'", () => {
      const sig = synthetic(
        'X.f',
        ['a', 'b', 'c'].map((name) => ({ name, kind: 'POSITIONAL_OR_KEYWORD' }) as const),
      );
      expect(bindFault(sig, []).message).toBe("X.f() missing 3 required positional arguments: 'a', 'b', and 'c'");
    });

    it.each([
      [[], {}, "X.f() missing 1 required keyword-only argument: 'x'"],
      [[1, 2], {}, 'X.f() takes from 1 to 2 positional arguments but 3 were given'],
      [
        [1, 2],
        { x: 1 },
        'X.f() takes from 1 to 2 positional arguments but 3 positional arguments (and 1 keyword-only argument) were given',
      ],
      [
        [1, 2, 3],
        { x: 1 },
        'X.f() takes from 1 to 2 positional arguments but 4 positional arguments (and 1 keyword-only argument) were given',
      ],
    ] as [Value[], Record<string, Value>, string][])(
      'handles keyword-only parameters of f(self, a=1, *, x): %j %j',
      (args, kwargs, message) => {
        const sig = synthetic('X.f', [
          { name: 'a', kind: 'POSITIONAL_OR_KEYWORD', default: '1' },
          { name: 'x', kind: 'KEYWORD_ONLY' },
        ]);
        expect(bindFault(sig, args, kw(kwargs)).message).toBe(message);
      },
    );

    it('binds a required keyword-only parameter given by name', () => {
      const sig = synthetic('X.f', [{ name: 'x', kind: 'KEYWORD_ONLY' }]);
      expect(bindOk(sig, [], kw({ x: 1 }))).toEqual([['x', 1]]);
    });

    it('reports an unexpected keyword before too many positionals, as CPython does', () => {
      const fault = bindFault(builtin('res.partner', 'search_count'), [[], 1, 2, 3], kw({ bogus: 1 }));
      expect(fault.message).toBe("BaseModel.search_count() got an unexpected keyword argument 'bogus'");
    });

    it('reports keywords in call order', () => {
      const sig = builtin('res.partner', 'search');
      expect(bindFault(sig, [[]], kw({ zzz: 1, domain: [] })).message).toBe("BaseModel.search() got an unexpected keyword argument 'zzz'");
      expect(bindFault(sig, [[]], kw({ domain: [], zzz: 1 })).message).toBe("BaseModel.search() got multiple values for argument 'domain'");
    });

    it('answers a fault-1 builtins.TypeError', () => {
      const fault = bindFault(builtin('res.partner', 'name_create'), []);
      expect(fault.kind).toBe('internal');
      expect(fault.name).toBe('builtins.TypeError');
      expect(fault.debug).toMatch(/\nTypeError: ResPartner\.name_create\(\) missing 1 required positional argument: 'name'\n$/);
    });
  });

  describe('named arguments for JSON-2', () => {
    it('names positionals in parameter order, then keywords in the caller order', () => {
      const sig = builtin('res.partner', 'search');
      expect(bindOk(sig, [[], 1], kw({ order: 'name', limit: 3 }))).toEqual([
        ['domain', []],
        ['offset', 1],
        ['order', 'name'],
        ['limit', 3],
      ]);
    });

    it('never fills defaults (JSON-2 applies them)', () => {
      expect(bindOk(builtin('res.partner', 'name_search'), ['Acme'])).toEqual([['name', 'Acme']]);
      expect(bindOk(builtin('res.partner', 'read'), [])).toEqual([]);
    });

    it('keeps values as they are (dicts, floats, None)', () => {
      const vals = kw({ credit_limit: new PyFloat(2.0), comment: null });
      const result = bindOk(builtin('res.partner', 'write'), [vals]);
      expect(result).toEqual([['vals', vals]]);
      expect(result[0]![1]).toBe(vals);
    });

    it('passes extra keywords through a VAR_KEYWORD parameter unchanged', () => {
      const sig = builtin('res.partner', 'search_read');
      expect(bindOk(sig, [[], ['name']], kw({ load: '', limit: 2, bogus: 1 }))).toEqual([
        ['domain', []],
        ['fields', ['name']],
        ['load', ''],
        ['limit', 2],
        ['bogus', 1],
      ]);
    });

    it('binds keyword-only parameters by name', () => {
      const sig = builtin('res.partner', 'web_read_group');
      expect(bindOk(sig, [[], ['country_id']], kw({ auto_unfold: true }))).toEqual([
        ['domain', []],
        ['groupby', ['country_id']],
        ['auto_unfold', true],
      ]);
    });

    it('does not mutate its inputs', () => {
      const args: Value[] = [[], 0];
      const kwargs = kw({ limit: 1 });
      bindOk(builtin('res.partner', 'search'), args, kwargs);
      expect(args).toEqual([[], 0]);
      expect([...kwargs.entries()]).toEqual([['limit', 1]]);
    });
  });

  describe('what JSON-2 cannot express (intended deviation)', () => {
    it('refuses positionals for *args, naming the method', () => {
      const fault = bindFault(builtin('res.partner', 'message_post'), ['Hello']);
      expect(fault.name).toBe('builtins.TypeError');
      expect(fault.message).toBe(
        "cannot call res.partner.message_post through JSON-2 (named arguments only): MailThread.message_post() would receive 1 positional argument in '*args'",
      );
    });

    it('accepts *args methods called by keyword only', () => {
      expect(bindOk(builtin('res.partner', 'message_post'), [], kw({ body: 'Hi', partner_ids: [3] }))).toEqual([
        ['body', 'Hi'],
        ['partner_ids', [3]],
      ]);
    });

    const posonly = synthetic('X.f', [
      { name: 'a', kind: 'POSITIONAL_ONLY', default: '1' },
      { name: 'b', kind: 'POSITIONAL_OR_KEYWORD', default: '2' },
      { name: 'kw', kind: 'VAR_KEYWORD' },
    ]);

    it.each([
      [[1], {}, "X.f() would receive its positional-only argument 'a'"],
      [[], { a: 1 }, "keyword argument 'a' has the name of a positional-only parameter of X.f()"],
      [[], { ids: [1] }, "argument 'ids' would be taken as JSON-2's own 'ids', not passed to X.f()"],
    ] as [Value[], Record<string, Value>, string][])('refuses %j %j', (args, kwargs, detail) => {
      expect(bindFault(posonly, args, kw(kwargs), 'x.model').message).toBe(
        `cannot call x.model.f through JSON-2 (named arguments only): ${detail}`,
      );
    });

    it('binds a positional-only parameter left to its default', () => {
      expect(bindOk(posonly, [], kw({ b: 3 }))).toEqual([['b', 3]]);
    });

    it("reports Python's own TypeError before the deviation", () => {
      const sig = builtin('res.partner', 'message_post');
      expect(bindFault(sig, ['Hello'], kw({ body: 'a', self: 1 })).message).toBe(
        "MailThread.message_post() got multiple values for argument 'self'",
      );
    });

    it("refuses a parameter named 'context' given by position", () => {
      const sig = synthetic('X.f', [{ name: 'context', kind: 'POSITIONAL_OR_KEYWORD' }]);
      expect(
        bindFault(
          sig,
          [{}].map(() => kw({})),
          new Map(),
          'x.model',
        ).message,
      ).toBe(
        "cannot call x.model.f through JSON-2 (named arguments only): argument 'context' would be taken as JSON-2's own 'context', not passed to X.f()",
      );
    });
  });

  // call_kw passes the recordset as their first declared parameter (src/signatures/unbound-methods.ts);
  // the texts are Odoo 19.0's own answers to execute_kw
  describe('classmethods and staticmethods: the recordset takes their first parameter', () => {
    it.each([
      ['ir.module.module', 'get_module_info', ['x'], {}, 'IrModuleModule.get_module_info() takes 2 positional arguments but 3 were given'],
      [
        'ir.module.module',
        'get_module_info',
        [],
        { name: 'base' },
        "IrModuleModule.get_module_info() got multiple values for argument 'name'",
      ],
      [
        'ir.module.module',
        'get_module_info',
        [],
        { cls: 'base' },
        "IrModuleModule.get_module_info() got multiple values for argument 'cls'",
      ],
      [
        'ir.module.module',
        'get_values_from_terp',
        [2],
        {},
        'IrModuleModule.get_values_from_terp() takes 1 positional argument but 2 were given',
      ],
      ['res.partner', 'is_transient', [], {}, 'BaseModel.is_transient() takes 1 positional argument but 2 were given'],
      ['res.partner', 'is_transient', [2], {}, 'BaseModel.is_transient() takes 1 positional argument but 3 were given'],
      ['ir.http', 'is_a_bot', [], {}, 'IrHttp.is_a_bot() takes 1 positional argument but 2 were given'],
      ['ir.http', 'get_utm_domain_cookies', [], {}, 'IrHttp.get_utm_domain_cookies() takes 1 positional argument but 2 were given'],
    ] as [string, string, Value[], Record<string, Value>, string][])('%s.%s(ids, *%j, **%j)', (model, method, args, kwargs, text) => {
      const err = bindFault(builtin(model, method), args, kw(kwargs), model);
      expect(err.name).toBe('builtins.TypeError');
      expect(err.message).toBe(text);
    });

    it('binds a call Odoo runs: only the ids, which JSON-2 browses into that parameter', () => {
      expect(bindOk(builtin('ir.module.module', 'get_module_info'), [])).toEqual([]);
      expect(bindOk(builtin('ir.module.module', 'get_values_from_terp'), [])).toEqual([]);
    });

    it('names the arguments after it by their own parameters', () => {
      const sig = {
        ...synthetic('X.f', [
          { name: 'a', kind: 'POSITIONAL_OR_KEYWORD' },
          { name: 'b', kind: 'POSITIONAL_OR_KEYWORD' },
        ]),
      };
      expect(bindOk({ ...sig, binding: 'classmethod' }, [7])).toEqual([['b', 7]]);
      expect(bindOk({ ...sig, binding: 'staticmethod' }, [7])).toEqual([['b', 7]]);
      expect(bindOk(sig, [7, 8])).toEqual([
        ['a', 7],
        ['b', 8],
      ]);
    });
  });
});
