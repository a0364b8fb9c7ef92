/**
 * Successors of removed methods (src/successors/): `read_group` answered through
 * `formatted_read_group` gives what the method itself gives, call for call, over generated shapes;
 * against an upstream without the method (`removedMethods`) the gateway learns once that it is gone
 * and translates from then on without a failed round trip; `--successors off` leaves Odoo's own
 * "does not exist"; what cannot be answered exactly is a fault naming the successor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { compareJsonValues } from '../../src/cutover/compare/compare.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';
import type { Value } from '../../src/value.ts';
import { errorData, jsonrpcAt } from '../support/stack.ts';
import { type Shape, shapes, toPlain } from '../support/read-group-shapes.ts';

const db = 'demo';

async function gatewayFor(sim: Simulator, mode: string, extra: string[] = []): Promise<RunningGateway> {
  return startGateway(
    loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, '--successors', mode, ...extra], {}),
    createLogger('silent'),
  );
}

/** `--service-key` for the database: the simulator's admin key. */
const serviceKeyOf = (sim: Simulator) => ['--service-key', `${db}=${sim.keyFor(db, 'admin')}`];

function readGroup(gateway: RunningGateway, sim: Simulator, shape: Shape) {
  const key = sim.keyFor(db, 'admin');
  return jsonrpcAt(gateway.url, 'object', 'execute_kw', [db, 2, key, shape.model, 'read_group', shape.args, shape.kwargs]);
}

describe('read_group through formatted_read_group, forced on an upstream that still has read_group', () => {
  let sim: Simulator;
  let forced: RunningGateway;
  let native: RunningGateway;
  beforeAll(async () => {
    sim = await startSimulator({ databases: [db] });
    forced = await gatewayFor(sim, 'always');
    native = await gatewayFor(sim, 'off');
  });
  afterAll(async () => {
    await forced?.close();
    await native?.close();
    await sim?.close();
  });

  it('answers 120 generated calls exactly as read_group itself does', { timeout: 120_000 }, async () => {
    const differences: string[] = [];
    let faults = 0;
    for (const shape of shapes(120, 7)) {
      const expected = await readGroup(native, sim, shape);
      const actual = await readGroup(forced, sim, shape);
      if (expected.error !== undefined) faults++;
      const diffs = compareJsonValues(toPlain(expected), toPlain(actual));
      if (diffs.length > 0) differences.push(`${JSON.stringify(shape)}: ${diffs.map((d) => `${d.path} ${d.message}`).join('; ')}`);
    }
    expect(differences).toEqual([]);
    expect(faults).toBeLessThan(60);
    // the faults the translation raises itself (an unknown field) need no upstream call
    const requests = sim.log.filter((r) => r.path.endsWith('/formatted_read_group'));
    expect(requests.length).toBeGreaterThanOrEqual(120 - faults);
  });
});

describe('check_access_rights through has_access', () => {
  let sim: Simulator;
  let forced: RunningGateway;
  let native: RunningGateway;
  beforeAll(async () => {
    sim = await startSimulator({ databases: [db] });
    forced = await gatewayFor(sim, 'always');
    native = await gatewayFor(sim, 'off');
  });
  afterAll(async () => {
    await forced?.close();
    await native?.close();
    await sim?.close();
  });

  const call = (gateway: RunningGateway, login: string, model: string, args: unknown[], kwargs: Record<string, unknown>) => {
    const user = sim.users(db).find((u) => u.login === login) as { uid: number; key: string };
    return jsonrpcAt(gateway.url, 'object', 'execute_kw', [db, user.uid, user.key, model, 'check_access_rights', args, kwargs]);
  };

  it('answers as check_access_rights itself, except a refusal Odoo words', async () => {
    const differences: string[] = [];
    let refused = 0;
    for (const login of ['admin', 'demo', 'portal']) {
      for (const model of ['res.partner', 'sale.order', 'res.users', 'res.country']) {
        for (const operation of ['read', 'write', 'create', 'unlink']) {
          for (const kwargs of [{ raise_exception: false }, {}]) {
            const expected = await call(native, login, model, [operation], kwargs);
            const actual = await call(forced, login, model, [operation], kwargs);
            const refusal = expected.error !== undefined && operation !== 'read';
            if (refusal) {
              refused++;
              expect(errorData(actual.error).message).toContain('through its successor has_access()');
              continue;
            }
            const diffs = compareJsonValues(toPlain(expected), toPlain(actual));
            if (diffs.length > 0)
              differences.push(`${login} ${model} ${operation} ${JSON.stringify(kwargs)}: ${diffs.map((d) => d.message).join('; ')}`);
          }
        }
      }
    }
    expect(differences).toEqual([]);
    expect(refused).toBeGreaterThan(0);
  });
});

const accessLogins = ['admin', 'demo', 'portal'];

function callAs(gateway: RunningGateway, sim: Simulator, login: string, model: string, method: string, args: unknown[]) {
  const user = sim.users(db).find((u) => u.login === login) as { uid: number; key: string };
  return jsonrpcAt(gateway.url, 'object', 'execute_kw', [db, user.uid, user.key, model, method, args, {}]);
}

function differenceOf(expected: { result?: Value; error?: Map<string, Value> }, actual: { result?: Value; error?: Map<string, Value> }) {
  return compareJsonValues(toPlain(expected), toPlain(actual))
    .map((d) => `${d.path} ${d.message}`)
    .join('; ');
}

const refusedBy = (answer: { error?: Map<string, Value> }, successor: string) =>
  answer.error !== undefined && errorData(answer.error).message.includes(`through its successor ${successor}()`);

describe('check_access_rule through has_access', () => {
  let sim: Simulator;
  let forced: RunningGateway;
  let forcedNoService: RunningGateway;
  let native: RunningGateway;
  beforeAll(async () => {
    sim = await startSimulator({ databases: [db] });
    forced = await gatewayFor(sim, 'always', serviceKeyOf(sim));
    forcedNoService = await gatewayFor(sim, 'always');
    native = await gatewayFor(sim, 'off');
  });
  afterAll(async () => {
    for (const g of [forced, forcedNoService, native]) await g?.close();
    await sim?.close();
  });

  // sale orders 1 and 5 are demo's, 2 and 3 admin's (refused to demo by "Personal Orders"); partner 7 is portal's own
  const idSets = [[], [1], [1, 5], [2, 3], [5, 2], [999_999], [5, 999_999], [7], [7, 8], [3, 3]];

  it("answers as check_access_rule itself: None, Odoo's own AccessError or MissingError, or a refusal naming has_access", async () => {
    const differences: string[] = [];
    const tally = { equal: 0, faults: 0, refused: 0 };
    for (const login of accessLogins) {
      for (const model of ['res.partner', 'sale.order', 'res.country', 'product.product']) {
        for (const operation of ['read', 'write', 'create', 'unlink']) {
          for (const ids of idSets) {
            const expected = await callAs(native, sim, login, model, 'check_access_rule', [ids, operation]);
            const actual = await callAs(forced, sim, login, model, 'check_access_rule', [ids, operation]);
            const what = `${login} ${model}.check_access_rule(${JSON.stringify(ids)}, ${operation})`;
            if (refusedBy(actual, 'has_access')) {
              tally.refused++;
              // only what Odoo words and no read can raise: another operation refused, a read refused by a rule on a missing record
              const allowedRefusal = expected.error !== undefined && (operation !== 'read' || ids.includes(999_999));
              if (!allowedRefusal) differences.push(`${what}: refused, natively ${JSON.stringify(toPlain(expected))}`);
              continue;
            }
            if (expected.error !== undefined) tally.faults++;
            const diff = differenceOf(expected, actual);
            if (diff !== '') differences.push(`${what}: ${diff}`);
            else tally.equal++;
          }
        }
      }
    }
    expect(differences).toEqual([]);
    // refused reads come back as Odoo's own errors, through read and search
    expect(tally.faults).toBeGreaterThan(20);
    expect(tally.refused).toBeGreaterThan(20);
    expect(tally.equal).toBeGreaterThan(250);
  });

  it('gives the rule error of a read refused by a record rule, with every record shown to exist', async () => {
    const expected = await callAs(native, sim, 'demo', 'sale.order', 'check_access_rule', [[5, 2], 'read']);
    expect(errorData(expected.error).message).toContain('Blame the following rules:\n- Personal Orders');
    expect(toPlain(await callAs(forced, sim, 'demo', 'sale.order', 'check_access_rule', [[5, 2], 'read']))).toEqual(toPlain(expected));
    // without a service key the records cannot be shown to exist: refused, naming what
    const refused = await callAs(forcedNoService, sim, 'demo', 'sale.order', 'check_access_rule', [[5, 2], 'read']);
    expect(errorData(refused.error).message).toContain('not all shown to exist');
    // a model-level refusal needs no proof
    const model = await callAs(native, sim, 'portal', 'sale.order', 'check_access_rule', [[1], 'read']);
    expect(toPlain(await callAs(forcedNoService, sim, 'portal', 'sale.order', 'check_access_rule', [[1], 'read']))).toEqual(toPlain(model));
  });
});

describe('check_field_access_rights through fields_get and read', () => {
  let sim: Simulator;
  let forced: RunningGateway;
  let native: RunningGateway;
  beforeAll(async () => {
    sim = await startSimulator({ databases: [db] });
    forced = await gatewayFor(sim, 'always');
    native = await gatewayFor(sim, 'off');
  });
  afterAll(async () => {
    await forced?.close();
    await native?.close();
    await sim?.close();
  });

  const fieldLists: unknown[] = [
    null,
    [],
    false,
    ['name'],
    ['name', 'credit_limit'],
    ['credit_limit', 'name'],
    ['nope', 'name'],
    ['nope', 'credit_limit', 'nope'],
    ['standard_price'],
    ['name', 'nope', 'standard_price', 'other', 'name'],
    ['id'],
    'name',
  ];

  it('answers as check_field_access_rights itself, except what only Odoo words', async () => {
    const differences: string[] = [];
    const tally = { equal: 0, faults: 0, refused: 0 };
    for (const login of accessLogins) {
      for (const model of ['res.partner', 'product.product', 'sale.order', 'res.country', 'res.users']) {
        for (const operation of ['read', 'write', 'create', 'unlink']) {
          for (const names of fieldLists) {
            const expected = await callAs(native, sim, login, model, 'check_field_access_rights', [operation, names]);
            const actual = await callAs(forced, sim, login, model, 'check_field_access_rights', [operation, names]);
            const what = `${login} ${model}.check_field_access_rights(${operation}, ${JSON.stringify(names)})`;
            if (refusedBy(actual, 'fields_get') || refusedBy(actual, 'read')) {
              tally.refused++;
              const allowedRefusal =
                typeof names === 'string' ||
                (model === 'res.users' && (names === null || names === false || (Array.isArray(names) && names.length === 0))) ||
                (expected.error !== undefined && operation !== 'read');
              if (!allowedRefusal) differences.push(`${what}: refused, natively ${JSON.stringify(toPlain(expected))}`);
              continue;
            }
            if (expected.error !== undefined) tally.faults++;
            const diff = differenceOf(expected, actual);
            if (diff !== '') differences.push(`${what}: ${diff}`);
            else tally.equal++;
          }
        }
      }
    }
    expect(differences).toEqual([]);
    expect(tally.faults).toBeGreaterThan(5);
    expect(tally.refused).toBeGreaterThan(10);
    expect(tally.equal).toBeGreaterThan(100);
  });

  it("lists only the fields the user may see, and raises Odoo's own AccessError for a refused one", async () => {
    const demoList = (await callAs(forced, sim, 'demo', 'res.partner', 'check_field_access_rights', ['read', null])).result as string[];
    expect(demoList).toContain('name');
    expect(demoList).not.toContain('credit_limit');
    const refused = await callAs(forced, sim, 'demo', 'res.partner', 'check_field_access_rights', ['read', ['nope', 'credit_limit']]);
    expect(errorData(refused.error)).toMatchObject({ name: 'odoo.exceptions.AccessError' });
    expect(errorData(refused.error).message).toContain('"credit_limit" on Contact (res.partner)');
  });
});

describe('an upstream without check_access_rule and check_field_access_rights', () => {
  let sim: Simulator;
  let reference: Simulator;
  let auto: RunningGateway;
  let native: RunningGateway;
  beforeAll(async () => {
    sim = await startSimulator({ databases: [db], removedMethods: ['check_access_rule', 'check_field_access_rights'] });
    reference = await startSimulator({ databases: [db] });
    auto = await gatewayFor(sim, 'auto', serviceKeyOf(sim));
    native = await gatewayFor(reference, 'off');
  });
  afterAll(async () => {
    for (const g of [auto, native]) await g?.close();
    await sim?.close();
    await reference?.close();
  });

  it('learns from the first call that each is gone, then answers through has_access, fields_get and read', async () => {
    sim.clearLog();
    const calls: Array<[string, string, string, unknown[]]> = [
      ['demo', 'sale.order', 'check_access_rule', [[1, 5], 'read']],
      ['demo', 'sale.order', 'check_access_rule', [[5, 2], 'read']],
      ['portal', 'res.partner', 'check_access_rule', [[7], 'read']],
      ['portal', 'sale.order', 'check_access_rule', [[], 'read']],
      ['demo', 'res.partner', 'check_field_access_rights', ['read', null]],
      ['demo', 'res.partner', 'check_field_access_rights', ['read', ['name', 'nope', 'credit_limit']]],
      ['admin', 'res.partner', 'check_field_access_rights', ['write', ['name', 'credit_limit']]],
      ['portal', 'product.product', 'check_field_access_rights', ['read', ['standard_price']]],
    ];
    const differences: string[] = [];
    for (const [login, model, method, args] of calls) {
      const expected = await callAs(native, reference, login, model, method, args);
      const actual = await callAs(auto, sim, login, model, method, args);
      const diff = differenceOf(expected, actual);
      if (diff !== '') differences.push(`${login} ${model}.${method}(${JSON.stringify(args)}): ${diff}`);
    }
    expect(differences).toEqual([]);
    expect(sim.log.filter((r) => r.path.endsWith('/check_access_rule'))).toHaveLength(1);
    expect(sim.log.filter((r) => r.path.endsWith('/check_field_access_rights'))).toHaveLength(1);
    const metrics = await (await fetch(`${auto.adminUrl}/metrics`)).text();
    expect(metrics).toContain('legacy_rpc_gateway_successor_calls_total{method="check_access_rule"} 4');
    expect(metrics).toContain('legacy_rpc_gateway_successor_calls_total{method="check_field_access_rights"} 4');
  });
});

describe('an upstream without read_group and toggle_active', () => {
  let sim: Simulator;
  let reference: Simulator;
  let auto: RunningGateway;
  let off: RunningGateway;
  let native: RunningGateway;
  beforeAll(async () => {
    sim = await startSimulator({ databases: [db], removedMethods: ['read_group', 'toggle_active'] });
    reference = await startSimulator({ databases: [db] });
    auto = await gatewayFor(sim, 'auto');
    off = await gatewayFor(sim, 'off');
    native = await gatewayFor(reference, 'off');
  });
  afterAll(async () => {
    for (const g of [auto, off, native]) await g?.close();
    await sim?.close();
    await reference?.close();
  });

  it('learns from the first call that read_group is gone, then translates with no failed round trip', { timeout: 120_000 }, async () => {
    sim.clearLog();
    const all = shapes(40, 11);
    const differences: string[] = [];
    for (const shape of all) {
      const expected = await jsonrpcAt(native.url, 'object', 'execute_kw', [
        db,
        2,
        reference.keyFor(db, 'admin'),
        shape.model,
        'read_group',
        shape.args,
        shape.kwargs,
      ]);
      const actual = await readGroup(auto, sim, shape);
      const diffs = compareJsonValues(toPlain(expected), toPlain(actual));
      if (diffs.length > 0) differences.push(`${JSON.stringify(shape)}: ${diffs.map((d) => `${d.path} ${d.message}`).join('; ')}`);
    }
    expect(differences).toEqual([]);
    expect(sim.log.filter((r) => r.path.endsWith('/read_group'))).toHaveLength(1);
    const metrics = await (await fetch(`${auto.adminUrl}/metrics`)).text();
    expect(metrics).toContain(`legacy_rpc_gateway_successor_calls_total{method="read_group"} ${all.length}`);
    const report = (await (await fetch(`${auto.adminUrl}/gateway/report.json`)).json()) as {
      clients: Array<{ methods: Array<{ modelMethod?: string; successorCalls?: number }> }>;
    };
    const counted = report.clients
      .flatMap((c) => c.methods)
      .filter((m) => m.modelMethod === 'read_group')
      .reduce((n, m) => n + (m.successorCalls ?? 0), 0);
    expect(counted).toBe(all.length);
  });

  it('with --successors off, answers as the upstream does: the method does not exist', async () => {
    const answer = await readGroup(off, sim, { model: 'res.partner', args: [[], [], ['country_id']], kwargs: {} });
    expect(errorData(answer.error)).toMatchObject({
      name: 'builtins.AttributeError',
      message: "The method 'res.partner.read_group' does not exist",
    });
  });

  it('toggles active through action_archive / action_unarchive, record by record', async () => {
    const key = sim.keyFor(db, 'admin');
    const call = (method: string, args: unknown[], kwargs: Record<string, unknown> = {}) =>
      jsonrpcAt(auto.url, 'object', 'execute_kw', [db, 2, key, 'res.partner', method, args, kwargs]);
    const ids = (await call('search', [[]], { limit: 3 })).result as number[];
    await call('action_archive', [[ids[0]]]);
    const toggled = await call('toggle_active', [ids]);
    expect(toggled.error).toBeUndefined();
    expect(toggled.result).toBeNull();
    const rows = (await call('read', [ids, ['active']])).result as Array<Map<string, Value>>;
    expect(rows.map((r) => r.get('active'))).toEqual([true, false, false]);
  });

  it('refuses, naming the successor, what it cannot answer exactly', async () => {
    const answer = await readGroup(auto, sim, {
      model: 'sale.order',
      args: [[], ['amount_total'], ['date_order']],
      kwargs: { context: { fill_temporal: true } },
    });
    const data = errorData(answer.error);
    expect(data.name).toBe('builtins.NotImplementedError');
    expect(data.message).toContain('through its successor formatted_read_group()');
    expect(data.message).toContain('fill_temporal');
  });
});

// saas-19.1 has no read_group (404); 20.0 has another one, which refuses 19.0's named arguments (422)
describe.each([
  ['saas-19.1', 404],
  ['20.0', 422],
] as const)("the simulator's %s persona (no 19.0 read_group)", (series, directStatus) => {
  let later: Simulator;
  let reference: Simulator;
  let gateway: RunningGateway;
  let native: RunningGateway;
  beforeAll(async () => {
    later = await startSimulator({ databases: [db], series });
    reference = await startSimulator({ databases: [db] });
    gateway = await gatewayFor(later, 'auto');
    native = await gatewayFor(reference, 'off');
  });
  afterAll(async () => {
    for (const g of [gateway, native]) await g?.close();
    await later?.close();
    await reference?.close();
  });

  it("has no 19.0 read_group, and read_group through the gateway answers as 19.0's does", { timeout: 120_000 }, async () => {
    const all = shapes(30, 23);
    const differences: string[] = [];
    for (const shape of all) {
      const expected = await jsonrpcAt(native.url, 'object', 'execute_kw', [
        db,
        2,
        reference.keyFor(db, 'admin'),
        shape.model,
        'read_group',
        shape.args,
        shape.kwargs,
      ]);
      const actual = await readGroup(gateway, later, shape);
      const diffs = compareJsonValues(toPlain(expected), toPlain(actual));
      if (diffs.length > 0) differences.push(`${JSON.stringify(shape)}: ${diffs.map((d) => `${d.path} ${d.message}`).join('; ')}`);
    }
    expect(differences).toEqual([]);
    const direct = await fetch(`${later.url}/json/2/res.partner/read_group`, {
      method: 'POST',
      headers: { authorization: `bearer ${later.keyFor(db, 'admin')}`, 'content-type': 'application/json', 'x-odoo-database': db },
      body: JSON.stringify({ domain: [], fields: ['id:count'], groupby: ['is_company'] }),
    });
    expect(direct.status).toBe(directStatus);
  });
});
