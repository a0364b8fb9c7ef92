/**
 * Odoo 20.0 as the simulator's persona plays it (sim/persona.ts): a legacy call keeps its 19.0
 * meaning. 20.0 reuses the name `read_group` for another method (no "does not exist" ever comes
 * back), removes `toggle_active`, `check_access_rights`, `copy_translations`…, and the models
 * `ir.model.access` and `ir.rule`. Each answer through the gateway is compared with what a 19.0
 * upstream answers for the same call, call for call (docs/successors.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.ts';
import { compareJsonValues } from '../../src/cutover/compare/compare.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../src/server/gateway.ts';
import { parseJson } from '../../src/json/index.ts';
import { createDiscoverySource, createSignatureResolver } from '../../src/signatures/index.ts';
import { type Shape, shapes, toPlain } from '../support/read-group-shapes.ts';
import { errorData, jsonrpcAt } from '../support/stack.ts';

const db = 'demo';

async function gatewayFor(sim: Simulator, flags: string[] = [], options?: GatewayOptions): Promise<RunningGateway> {
  const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, ...flags], {});
  const gateway = await startGateway(config, createLogger('silent'), options);
  // as in production: the start-up check reads the upstream's version before the first call
  await gateway.startupCheck.start();
  return gateway;
}

/** Runs `use` against a gateway of its own in front of `sim`, with the simulator's log cleared first, then closes it. */
async function withGateway(
  sim: Simulator,
  flags: string[],
  options: GatewayOptions | undefined,
  use: (gateway: RunningGateway) => Promise<void>,
) {
  const gateway = await gatewayFor(sim, flags, options);
  try {
    sim.clearLog();
    await use(gateway);
  } finally {
    await gateway.close();
  }
}

function call(
  gateway: RunningGateway,
  sim: Simulator,
  model: string,
  method: string,
  args: unknown[],
  kwargs: Record<string, unknown> = {},
) {
  return jsonrpcAt(gateway.url, 'object', 'execute_kw', [db, 2, sim.keyFor(db, 'admin'), model, method, args, kwargs]);
}

const readGroup = (gateway: RunningGateway, sim: Simulator, shape: Shape) =>
  call(gateway, sim, shape.model, 'read_group', shape.args, shape.kwargs);

/** Compares the gateway's answers in front of 20.0 with a 19.0 upstream's, call for call. */
async function differencesOver(
  all: Shape[],
  later: { gateway: RunningGateway; sim: Simulator },
  v19: { gateway: RunningGateway; sim: Simulator },
) {
  const differences: string[] = [];
  let faults = 0;
  for (const shape of all) {
    const expected = await readGroup(v19.gateway, v19.sim, shape);
    const actual = await readGroup(later.gateway, later.sim, shape);
    if (expected.error !== undefined) faults++;
    const diffs = compareJsonValues(toPlain(expected), toPlain(actual));
    if (diffs.length > 0) differences.push(`${JSON.stringify(shape)}: ${diffs.map((d) => `${d.path} ${d.message}`).join('; ')}`);
  }
  return { differences, faults };
}

describe('read_group in front of Odoo 20.0, where the name means another method', () => {
  let later: Simulator;
  let v19: Simulator;
  let gateway: RunningGateway;
  let native: RunningGateway;
  beforeAll(async () => {
    later = await startSimulator({ databases: [db], series: '20.0' });
    v19 = await startSimulator({ databases: [db] });
    gateway = await gatewayFor(later);
    native = await gatewayFor(v19, ['--successors', 'off']);
  });
  afterAll(async () => {
    for (const g of [gateway, native]) await g?.close();
    await later?.close();
    await v19?.close();
  });

  it(
    'answers 520 generated calls exactly as 19.0 does, through formatted_read_group, never 20.0 read_group',
    { timeout: 300_000 },
    async () => {
      later.clearLog();
      const all = shapes(520, 38);
      const { differences, faults } = await differencesOver(all, { gateway, sim: later }, { gateway: native, sim: v19 });
      expect(differences).toEqual([]);
      expect(faults).toBeLessThan(all.length / 2);
      // the series told before the first call: 20.0's read_group was never called, not even once to learn
      expect(later.log.filter((r) => r.path.endsWith('/read_group'))).toEqual([]);
      expect(later.log.filter((r) => r.path.endsWith('/formatted_read_group')).length).toBeGreaterThanOrEqual(all.length - faults);
      const metrics = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
      expect(metrics).toMatch(/legacy_rpc_gateway_successor_calls_total\{method="read_group"\} [1-9]/);
    },
  );

  it('names the change in a fault when successors are off, instead of binding 19.0 arguments to 20.0 parameters', async () => {
    await withGateway(later, ['--successors', 'off'], undefined, async (off) => {
      const answer = await readGroup(off, later, { model: 'res.partner', args: [[], ['color:sum'], ['is_company']], kwargs: {} });
      const data = errorData(answer.error);
      expect(data.name).toBe('builtins.NotImplementedError');
      expect(data.message).toContain("legacy-rpc-gateway will not call res.partner.read_group() with Odoo 19.0's arguments: Odoo 20.0");
      expect(data.message).toContain('Call formatted_read_group instead.');
      expect(later.log.filter((r) => r.path.includes('read_group'))).toEqual([]);
    });
  });
});

describe('read_group in front of an Odoo whose version is not known', () => {
  let later: Simulator;
  let v19: Simulator;
  let native: RunningGateway;
  beforeAll(async () => {
    later = await startSimulator({ databases: [db], series: '20.0' });
    v19 = await startSimulator({ databases: [db] });
    native = await gatewayFor(v19, ['--successors', 'off']);
  });
  afterAll(async () => {
    await native?.close();
    await later?.close();
    await v19?.close();
  });

  it("learns from JSON-2's refusal of 19.0's 'fields' (nothing ran), then answers through the successor", async () => {
    // no series and no /doc-bearer: only the upstream's refusal of a 19.0 parameter can tell
    await withGateway(later, [], { signatures: createSignatureResolver() }, async (gateway) => {
      const { differences } = await differencesOver(shapes(40, 5), { gateway, sim: later }, { gateway: native, sim: v19 });
      expect(differences).toEqual([]);
      // one refused call per model taught the database; every later one went straight to the successor
      const refused = later.log.filter((r) => r.path.endsWith('/read_group')).map((r) => r.path);
      expect(refused.length).toBeGreaterThan(0);
      expect(new Set(refused).size).toBe(refused.length);
    });
  });

  it('reads the change from /doc-bearer before any call to the method', async () => {
    const key = later.keyFor(db, 'admin');
    const discovery = createDiscoverySource({
      async fetchDoc(database, model) {
        const res = await fetch(`${later.url}/doc-bearer/${model}.json`, {
          headers: { authorization: `bearer ${key}`, 'x-odoo-database': database },
        });
        return { status: 'modified', etag: undefined, body: parseJson(await res.text()) };
      },
      serviceKeyFor: () => key,
      ttlMs: 60_000,
      log: createLogger('silent'),
    });
    await withGateway(later, [], { signatures: createSignatureResolver({ sources: [discovery] }) }, async (gateway) => {
      // res.partner: a model the simulator documents on /doc-bearer
      const partnerShapes = shapes(60, 6).filter((shape) => shape.model === 'res.partner');
      expect(partnerShapes.length).toBeGreaterThan(10);
      const { differences } = await differencesOver(partnerShapes, { gateway, sim: later }, { gateway: native, sim: v19 });
      expect(differences).toEqual([]);
      expect(later.log.filter((r) => r.path.endsWith('/read_group')).map((r) => `${r.path} ${r.body}`)).toEqual([]);
    });
  });
});

describe('methods and models Odoo 20.0 removed', () => {
  let later: Simulator;
  let v19: Simulator;
  let gateway: RunningGateway;
  let native: RunningGateway;
  beforeAll(async () => {
    later = await startSimulator({ databases: [db], series: '20.0' });
    v19 = await startSimulator({ databases: [db] });
    // an administrator's service key, as docs/first-run.md asks (check_access_rule reads existence with it)
    gateway = await gatewayFor(later, ['--service-key', `${db}=${later.keyFor(db, 'admin')}`]);
    native = await gatewayFor(v19, ['--successors', 'off']);
  });
  afterAll(async () => {
    for (const g of [gateway, native]) await g?.close();
    await later?.close();
    await v19?.close();
  });

  const both = async (model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}) => ({
    expected: toPlain(await call(native, v19, model, method, args, kwargs)),
    actual: toPlain(await call(gateway, later, model, method, args, kwargs)),
  });

  it('answers toggle_active, check_access_rights, check_access_rule and check_field_access_rights as 19.0 does', async () => {
    const differences: string[] = [];
    const cases: Array<[string, string, unknown[], Record<string, unknown>]> = [
      ['res.partner', 'toggle_active', [[7, 8]], {}],
      ['res.partner', 'read', [[7, 8], ['active']], {}],
      ['res.partner', 'toggle_active', [[8]], {}],
      ['res.partner', 'read', [[7, 8], ['active']], {}],
      ['res.country', 'toggle_active', [[1]], {}],
      ['res.partner', 'check_access_rights', ['read'], {}],
      ['sale.order', 'check_access_rights', ['unlink'], { raise_exception: false }],
      ['res.partner', 'check_access_rule', [[7, 8], 'read'], {}],
      ['sale.order', 'check_access_rule', [[1, 2], 'write'], {}],
      ['res.partner', 'check_access_rule', [[], 'unlink'], {}],
      ['res.partner', 'check_field_access_rights', ['read', ['name', 'email']], {}],
      ['res.partner', 'check_field_access_rights', ['read', ['name', 'no_such_field']], {}],
      ['res.country', 'check_field_access_rights', ['read', null], {}],
    ];
    for (const [model, method, args, kwargs] of cases) {
      const { expected, actual } = await both(model, method, args, kwargs);
      const diffs = compareJsonValues(expected, actual);
      if (diffs.length > 0) differences.push(`${model}.${method}${JSON.stringify(args)}: ${diffs.map((d) => d.message).join('; ')}`);
    }
    expect(differences).toEqual([]);
    expect(later.log.some((r) => r.path.endsWith('/action_archive'))).toBe(true);
    // 20.0 has none of them: the series told, so none was asked for
    expect(
      later.log.filter((r) => /\/(toggle_active|check_access_rights|check_access_rule|check_field_access_rights)$/.test(r.path)),
    ).toEqual([]);
  });

  it('refuses copy_translations, which has no successor, naming the series and what to call instead', async () => {
    const data = errorData((await call(gateway, later, 'res.partner', 'copy_translations', [[7], 8])).error);
    expect(data.name).toBe('builtins.NotImplementedError');
    expect(data.message).toContain(
      "Odoo 20.0 no longer has 19.0's res.partner.copy_translations(): Odoo 20.0 and Online saas-19.1 removed it",
    );
    expect(data.message).toContain('Call copy instead.');
  });

  it('says that ir.rule and ir.model.access were replaced by ir.access', async () => {
    for (const model of ['ir.rule', 'ir.model.access']) {
      const data = errorData((await call(gateway, later, model, 'search_read', [[]], { fields: ['name'] })).error);
      expect(data.name).toBe('odoo.exceptions.UserError');
      expect(data.message).toMatch(
        new RegExp(`^Object ${model.replace(/\./g, '\\.')} doesn't exist: Odoo 20\\.0 replaced it with ir\\.access`),
      );
    }
    // in front of 19.0 (whose simulator has no ir.rule) the fault is Odoo's own, with no word of 20.0
    const rules = await call(native, v19, 'ir.rule', 'search_count', [[]]);
    expect(errorData(rules.error).message).toBe("Object ir.rule doesn't exist");
  });

  it('lists the client under "breaks on 20" in the migration report', async () => {
    const report = (await (await fetch(`${gateway.adminUrl}/gateway/report.json`)).json()) as {
      clients: Array<{ verdict?: { line?: string } }>;
    };
    const lines = report.clients.map((c) => c.verdict?.line ?? '').join('\n');
    expect(lines).toContain('ir.rule');
    expect(lines).toMatch(/breaks on Odoo 20\.0[^\n]*even through the gateway/);
  });
});
