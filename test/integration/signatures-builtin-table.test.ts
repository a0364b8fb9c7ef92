/**
 * Positional calls to models the old 19-model table lacked, on a default configuration (no service
 * key, no signatures file), through the gateway in front of the simulator. The caller is
 * demo, outside the Technical Documentation group, so `/doc-bearer` refuses its key and the built-in
 * table maps the call; admin's key gets no documentation for these models from the simulator
 * either. Each call is checked against the named JSON-2 body the simulator received.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/index.ts';
import type { Value } from '../../src/value.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';
import { xmlrpcCall } from '../support/xmlrpc-call.ts';

let stack: Stack;
let demo: string;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  demo = stack.sim.keyFor('demo', 'demo');
  admin = stack.sim.keyFor('demo', 'admin');
});
afterAll(() => stack.close());
beforeEach(() => stack.sim.clearLog());

const executeKw = (model: string, method: string, args: unknown[], key = demo, uid = 5) =>
  stack.jsonrpc('object', 'execute_kw', ['demo', uid, key, model, method, args]);
/** The body of the last JSON-2 call of `model.method` the simulator received. */
const sentBody = (model: string, method: string): Value | undefined => {
  const sent = stack.sim.log.filter((r) => r.path === `/json/2/${model}/${method}`).at(-1);
  return sent === undefined ? undefined : parseJson(sent.body);
};
const named = (entries: [string, Value][]) => new Map<string, Value>(entries);

describe('the built-in table on a default configuration', () => {
  it("maps ir.model.data.check_object_reference('base', 'user_admin') (OdooRPC's env.ref) to named arguments", async () => {
    const { result } = await executeKw('ir.model.data', 'check_object_reference', ['base', 'user_admin']);
    expect(result).toEqual(['res.users', 2]);
    expect(sentBody('ir.model.data', 'check_object_reference')).toEqual(
      named([
        ['module', 'base'],
        ['xml_id', 'user_admin'],
      ]),
    );
    const ref = await executeKw('ir.model.data', 'check_object_reference', ['base', 'lang_km', true]);
    expect(errorData(ref.error)).toMatchObject({
      name: 'odoo.exceptions.AccessError',
      message: 'Not enough access rights on the external ID "base.lang_km"',
    });
    expect(sentBody('ir.model.data', 'check_object_reference')).toEqual(
      named([
        ['module', 'base'],
        ['xml_id', 'lang_km'],
        ['raise_on_access_error', true],
      ]),
    );
  });

  it('maps it through XML-RPC execute too, for admin as for demo', async () => {
    for (const [uid, key] of [
      [2, admin],
      [5, demo],
    ] as const) {
      const answer = await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute', [
        'demo',
        uid,
        key,
        'ir.model.data',
        'check_object_reference',
        'base',
        'partner_admin',
      ]);
      expect(answer).toEqual({ result: ['res.partner', 3] });
    }
  });

  it.each([
    [
      'account.move',
      'js_assign_outstanding_line',
      [[7], 42],
      [
        ['ids', [7]],
        ['line_id', 42],
      ],
    ],
    [
      'stock.picking',
      'action_add_entire_packs',
      [
        [4, 5],
        [9, 10],
      ],
      [
        ['ids', [4, 5]],
        ['package_ids', [9, 10]],
      ],
    ],
    [
      'ir.actions.report',
      'report_action',
      [[1], [3], { x: 1 }],
      [
        ['ids', [1]],
        ['docids', [3]],
        ['data', new Map([['x', 1]])],
      ],
    ],
  ] as [string, string, unknown[], [string, Value][]][])(
    'maps the record-level %s.%s with positional arguments (a model the simulator does not have)',
    async (model, method, args, body) => {
      const { error } = await executeKw(model, method, args);
      expect(sentBody(model, method)).toEqual(named(body));
      expect(errorData(error)).toMatchObject({ name: 'odoo.exceptions.UserError', message: `Object ${model} doesn't exist` });
    },
  );

  it('maps the deprecated read_group and check_access_rights, which /doc-bearer leaves out', async () => {
    const groups = await executeKw('sale.order', 'read_group', [[['state', '=', 'sale']], ['amount_total'], ['partner_id']]);
    expect(Array.isArray(groups.result) && groups.result.length).toBeGreaterThan(0);
    expect(sentBody('sale.order', 'read_group')).toEqual(
      named([
        ['domain', [['state', '=', 'sale']]],
        ['fields', ['amount_total']],
        ['groupby', ['partner_id']],
      ]),
    );
    expect((await executeKw('ir.model.data', 'check_access_rights', ['read', false])).result).toBe(true);
    expect(sentBody('ir.model.data', 'check_access_rights')).toEqual(
      named([
        ['operation', 'read'],
        ['raise_exception', false],
      ]),
    );
  });

  it("binds with Python's errors and the table's qualname for a model the old table lacked", async () => {
    const { error } = await executeKw('ir.model.data', 'check_object_reference', ['base']);
    expect(errorData(error)).toMatchObject({
      name: 'builtins.TypeError',
      message: "IrModelData.check_object_reference() missing 1 required positional argument: 'xml_id'",
    });
    expect(sentBody('ir.model.data', 'check_object_reference')).toBeUndefined();
  });

  it('asks /doc-bearer first (demo: 403, admin: 404 for a model without documentation), then the table serves without asking again', async () => {
    const fresh = await startStack();
    try {
      const call = (uid: number, login: string) =>
        fresh.jsonrpc('object', 'execute_kw', [
          'demo',
          uid,
          fresh.sim.keyFor('demo', login),
          'ir.model.data',
          'check_object_reference',
          ['base', 'user_admin'],
        ]);
      const docs = () =>
        fresh.sim.log.filter((r) => r.path.startsWith('/doc-bearer/')).map((r) => String(r.headers.authorization).slice(7));
      expect((await call(5, 'demo')).result).toEqual(['res.users', 2]);
      expect(docs()).toEqual([fresh.sim.keyFor('demo', 'demo')]);
      expect((await call(2, 'admin')).result).toEqual(['res.users', 2]);
      expect(docs()).toEqual([fresh.sim.keyFor('demo', 'demo'), fresh.sim.keyFor('demo', 'admin')]);
      for (const [uid, login] of [
        [5, 'demo'],
        [2, 'admin'],
      ] as const)
        expect((await call(uid, login)).result).toEqual(['res.users', 2]);
      expect(docs()).toHaveLength(2);
    } finally {
      await fresh.close();
    }
  });
});
