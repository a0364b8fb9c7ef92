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

async function gatewayFor(sim: Simulator, mode: string): Promise<RunningGateway> {
  return startGateway(
    loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, '--successors', mode], {}),
    createLogger('silent'),
  );
}

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
