/**
 * Shadow mode end to end against the simulator's own legacy endpoints: a mixed workload
 * at 100 % is equal for every allowlisted call, the perturbation switch is caught with both answers,
 * no write reaches the legacy endpoints, a full bound drops and counts while the clients get their
 * answers, the clients' answers are byte-identical with shadow mode on and off, intended deviations
 * are counted as such, an upstream without legacy endpoints is reported once, and nothing secret
 * reaches the logs, the metrics or the report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../sim/index.ts';
import type { CutoverSnapshot } from '../../src/cutover/cutover-report.ts';
import { captureLog, type CapturedLog } from '../support/captured-log.ts';
import { holdingProxy } from '../support/holding-proxy.ts';
import { startStack, toValue, type Stack } from '../support/stack.ts';

const ua = 'erp-sync/2.1';
const legacyPath = (path: string) => path === '/jsonrpc' || path.startsWith('/xmlrpc');

/** What a client sends: one call in one dialect, and whether shadow mode may repeat it. */
interface WorkloadCall {
  dialect: 'xmlrpc1' | 'xmlrpc2' | 'jsonrpc';
  service: string;
  method: string;
  params: unknown[];
  shadowed: boolean;
}

function workload(password: string): WorkloadCall[] {
  const call = (dialect: WorkloadCall['dialect'], service: string, method: string, params: unknown[], shadowed: boolean): WorkloadCall => ({
    dialect,
    service,
    method,
    params,
    shadowed,
  });
  const kw = (
    dialect: WorkloadCall['dialect'],
    modelMethod: string,
    args: unknown[],
    kwargs: Record<string, unknown> = {},
    shadowed = true,
  ) => call(dialect, 'object', 'execute_kw', ['demo', 2, password, 'res.partner', modelMethod, args, kwargs], shadowed);
  return [
    call('xmlrpc2', 'common', 'version', [], true),
    call('jsonrpc', 'common', 'version', [], true),
    call('xmlrpc2', 'common', 'login', ['demo', 'admin', password], false),
    call('xmlrpc2', 'db', 'list', [], true),
    call('jsonrpc', 'db', 'server_version', [], true),
    call('xmlrpc1', 'db', 'db_exist', ['demo'], true),
    call('xmlrpc2', 'db', 'list_lang', [], true),
    kw('xmlrpc2', 'search', [[['is_company', '=', true]]], { limit: 5 }),
    kw('xmlrpc2', 'search_read', [[['id', '<', 12]]], { fields: ['name', 'email', 'credit_limit', 'parent_id', 'category_id'] }),
    kw('jsonrpc', 'search_read', [[]], { fields: ['name', 'credit_limit'], limit: 3 }),
    kw('xmlrpc1', 'read', [[1, 3]], { fields: ['name', 'create_date', 'write_date'] }),
    kw('xmlrpc2', 'search_count', [[['customer_rank', '>', 0]]]),
    kw('jsonrpc', 'fields_get', [], { attributes: ['string', 'type'] }),
    kw('xmlrpc2', 'name_search', ['a'], { limit: 4 }),
    kw('xmlrpc2', 'read_group', [[], ['credit_limit:sum'], ['is_company']]),
    kw('jsonrpc', 'default_get', [['name', 'type']]),
    kw('xmlrpc2', 'check_access_rights', ['read'], { raise_exception: false }),
    call('xmlrpc2', 'object', 'execute_kw', ['demo', 2, password, 'res.users', 'context_get', []], true),
    kw('xmlrpc2', 'read', [[1]], { fields: ['no_such_field'] }), // a fault, compared like an answer
    kw('xmlrpc2', 'create', [{ name: 'Shadow Test Co' }], {}, false),
    kw('jsonrpc', 'write', [[1], { comment: 'written once' }], {}, false),
    kw('xmlrpc2', 'name_create', ['Shadow Name Co'], {}, false),
    kw('xmlrpc2', 'search_read', [[['name', 'like', 'Shadow']]], { fields: ['name'] }),
  ];
}

/** Sends one workload call; returns the raw HTTP answer. */
async function send(stack: Stack, c: WorkloadCall): Promise<{ status: number; contentType: string; text: string }> {
  if (c.dialect === 'jsonrpc') {
    const { stringifyJson } = await import('../../src/json/index.ts');
    const body = stringifyJson(
      toValue({ jsonrpc: '2.0', method: 'call', id: 7, params: { service: c.service, method: c.method, args: c.params } }),
    );
    const res = await fetch(`${stack.gateway.url}/jsonrpc`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': ua },
    });
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
  }
  const { encodeRequest } = await import('../fixtures-xml/xmlrpc-request.ts');
  const path = c.dialect === 'xmlrpc2' ? `/xmlrpc/2/${c.service}` : `/xmlrpc/${c.service}`;
  const res = await fetch(stack.gateway.url + path, {
    method: 'POST',
    body: encodeRequest(c.method, c.params.map(toValue)),
    headers: { 'content-type': 'text/xml', 'user-agent': ua },
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

async function report(stack: Stack): Promise<CutoverSnapshot> {
  return (await (await fetch(`${stack.gateway.adminUrl}/gateway/report.json`)).json()) as CutoverSnapshot;
}

async function shadowSamples(stack: Stack): Promise<string[]> {
  return (await (await fetch(`${stack.gateway.adminUrl}/metrics`)).text())
    .split('\n')
    .filter((l) => l.startsWith('legacy_rpc_gateway_shadow_calls_total'));
}

const passwordOf = (sim: Simulator) => sim.users('demo').find((u) => u.login === 'admin')?.password as string;

describe('shadow mode against the simulator at 100 %', () => {
  let stack: Stack;
  let captured: CapturedLog;
  let calls: WorkloadCall[];
  let legacyRequests: { path: string; body: string }[];

  beforeAll(async () => {
    captured = captureLog('debug');
    stack = await startStack({
      sim: { legacyEndpoints: true },
      flags: ['--shadow-sample', '100', '--shadow-max-in-flight', '64'],
      log: captured.log,
    });
    calls = workload(passwordOf(stack.sim));
    stack.sim.clearLog();
    for (const c of calls) {
      const answer = await send(stack, c);
      expect(answer.status).toBe(200);
      // one call at a time: the workload's writes do not race the shadows of its reads
      await stack.gateway.shadow?.idle();
    }
    legacyRequests = stack.sim.log.filter((r) => legacyPath(r.path.split('?')[0] ?? '')).map((r) => ({ path: r.path, body: r.body }));
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('reports equal for every allowlisted call of a mixed workload, in all three dialects', async () => {
    const shadowed = calls.filter((c) => c.shadowed).length;
    const samples = await shadowSamples(stack);
    const count = (outcome: string) =>
      samples.filter((l) => l.includes(`outcome="${outcome}"`)).reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    expect(count('equal')).toBe(shadowed);
    for (const outcome of ['intended', 'differs', 'error', 'dropped']) expect(count(outcome), outcome).toBe(0);
    // the workload's calls are in one entry per database and login the client used: summed here
    const entries = (await report(stack)).clients;
    expect(entries.reduce((n, c) => n + c.readiness.sampled, 0)).toBe(shadowed);
    expect(entries.reduce((n, c) => n + c.readiness.equal, 0)).toBe(shadowed);
    expect([...new Set(entries.flatMap((c) => c.readiness.neverSampled.map((n) => n.method)))].sort()).toEqual([
      'common.login',
      'res.partner.create',
      'res.partner.name_create',
      'res.partner.write',
    ]);
  });

  it('sends each allowlisted call once to the same legacy path, and no write ever', () => {
    expect(legacyRequests).toHaveLength(calls.filter((c) => c.shadowed).length);
    for (const r of legacyRequests) expect(r.body).not.toMatch(/\b(create|write|name_create|unlink|login)\b/);
    expect(new Set(legacyRequests.map((r) => r.path))).toEqual(
      new Set(['/xmlrpc/2/common', '/jsonrpc', '/xmlrpc/2/db', '/xmlrpc/db', '/xmlrpc/2/object', '/xmlrpc/object']),
    );
    // the writes reached the upstream once each, through JSON-2
    expect(stack.sim.log.filter((r) => /^\/json\/2\/res\.partner\/(create|write|name_create)$/.test(r.path))).toHaveLength(3);
  });

  it('catches the perturbation switch as a difference, with both answers', async () => {
    stack.sim.legacyEndpoints.perturb = 'double-as-int';
    try {
      const read = calls.find((c) => c.dialect === 'xmlrpc2' && c.params[4] === 'search_read') as WorkloadCall;
      await send(stack, read);
      await stack.gateway.shadow?.idle();
    } finally {
      stack.sim.legacyEndpoints.perturb = undefined;
    }
    expect((await shadowSamples(stack)).find((l) => l.includes('outcome="differs"'))).toBe(
      'legacy_rpc_gateway_shadow_calls_total{service="object",method="search_read",outcome="differs"} 1',
    );
    const method = (await report(stack)).clients[0]?.methods.find(
      (m) => m.modelMethod === 'search_read' && (m.differences ?? []).length > 0,
    );
    const [difference] = method?.differences ?? [];
    expect(difference?.differences[0]).toBe('result[0].credit_limit: expected <int> <int>"0", got <double> <double>"0.0"');
    expect(difference?.gateway).toContain('"credit_limit": <double>"0.0"');
    expect(difference?.legacy).toContain('"credit_limit": <int>"0"');
  });

  it('keeps the password and the argument values out of the logs, the metrics and the report', async () => {
    const password = passwordOf(stack.sim);
    const texts = [
      JSON.stringify(captured.lines),
      await (await fetch(`${stack.gateway.adminUrl}/metrics`)).text(),
      JSON.stringify(await report(stack)),
    ];
    for (const text of texts) {
      expect(text).not.toContain(password);
      expect(text).not.toContain('written once');
      expect(text).not.toContain('Shadow Test Co');
    }
  });
});

describe('shadow mode leaves the clients alone', () => {
  let off: Stack;
  let on: Stack;
  let proxy: Awaited<ReturnType<typeof holdingProxy>>;
  let held: Stack;

  beforeAll(async () => {
    off = await startStack({ sim: { legacyEndpoints: true } });
    on = await startStack({ sim: { legacyEndpoints: true }, flags: ['--shadow-sample', '100'] });
  });
  afterAll(async () => {
    await off?.close();
    await on?.close();
    await held?.close();
    await proxy?.close();
  });

  it('answers byte for byte the same with shadow mode on and off', async () => {
    const read = workload(passwordOf(off.sim)).filter((c) => c.shadowed);
    for (const c of read) {
      const withoutShadow = await send(off, c);
      const withShadow = await send(on, { ...c, params: c.params.map((p) => (p === passwordOf(off.sim) ? passwordOf(on.sim) : p)) });
      expect(withShadow, JSON.stringify(c.params.slice(3, 5))).toEqual(withoutShadow);
    }
    await on.gateway.shadow?.idle();
    expect((await shadowSamples(on)).some((l) => l.includes('outcome="equal"'))).toBe(true);
  });

  it('sends nothing to the legacy endpoints with shadow mode off', () => {
    expect(off.sim.log.filter((r) => legacyPath(r.path))).toEqual([]);
  });

  it('drops and counts the shadows a full bound cannot take, while every client gets its answer', async () => {
    const sim = await (await import('../../sim/index.ts')).startSimulator({ legacyEndpoints: true });
    proxy = await holdingProxy(sim.url, (url) => legacyPath(url));
    const { loadConfig } = await import('../../src/config.ts');
    const { startGateway } = await import('../../src/server/gateway.ts');
    const { createLogger } = await import('../../src/log.ts');
    const config = loadConfig(
      ['--port', '0', '--admin-port', '0', '--upstream', proxy.url, '--shadow-sample', '100', '--shadow-max-in-flight', '2'],
      {},
    );
    const gateway = await startGateway(config, createLogger('silent'));
    held = {
      sim,
      gateway,
      config,
      post: async () => ({ status: 0, contentType: '', text: '' }),
      jsonrpc: async () => ({}),
      close: async () => {
        await gateway.close();
        await sim.close();
      },
    };
    const version: WorkloadCall = { dialect: 'xmlrpc2', service: 'common', method: 'version', params: [], shadowed: true };
    for (let i = 0; i < 5; i++) expect((await send(held, version)).status).toBe(200);
    await proxy.holding(2);
    expect(gateway.shadow?.inFlight).toBe(2);
    expect(await shadowSamples(held)).toEqual([
      'legacy_rpc_gateway_shadow_calls_total{service="common",method="version",outcome="dropped"} 3',
    ]);
    proxy.release();
    await gateway.shadow?.idle();
    expect(await shadowSamples(held)).toEqual([
      'legacy_rpc_gateway_shadow_calls_total{service="common",method="version",outcome="dropped"} 3',
      'legacy_rpc_gateway_shadow_calls_total{service="common",method="version",outcome="equal"} 2',
    ]);
    const method = (await report(held)).clients[0]?.methods[0];
    expect(method?.shadow).toMatchObject({ equal: 2, dropped: 3 });
  });
});

describe.each(['saas-19.1', '20.0'] as const)('an upstream of %s, which no longer serves the legacy db service', (series) => {
  let gone: Stack;
  let capturedGone: CapturedLog;

  beforeAll(async () => {
    capturedGone = captureLog('info');
    gone = await startStack({
      sim: { series, legacyEndpoints: true },
      flags: ['--shadow-sample', '100'],
      log: capturedGone.log,
    });
  });
  afterAll(async () => {
    await gone?.close();
  });

  it('says once that the upstream (saas-19.1+) dropped a legacy service, then stops shadowing it, with no error per call', async () => {
    const list: WorkloadCall = { dialect: 'xmlrpc2', service: 'db', method: 'list', params: [], shadowed: true };
    const version: WorkloadCall = { dialect: 'jsonrpc', service: 'common', method: 'version', params: [], shadowed: true };
    for (let i = 0; i < 3; i++) {
      expect((await send(gone, list)).text).toContain('<string>demo</string>');
      await gone.gateway.shadow?.idle();
    }
    await send(gone, version);
    await gone.gateway.shadow?.idle();
    const legacyDbRequests = gone.sim.log.filter((r) => r.path === '/xmlrpc/2/db');
    expect(legacyDbRequests).toHaveLength(1);
    expect(capturedGone.matching('shadow mode stops for the legacy db service')).toHaveLength(1);
    expect(await shadowSamples(gone)).toEqual([
      'legacy_rpc_gateway_shadow_calls_total{service="common",method="version",outcome="equal"} 1',
    ]);
    const served = await report(gone);
    expect(served.shadow.gone).toEqual([
      expect.objectContaining({ service: 'db', reason: expect.stringContaining('ValueError: Invalid service name: db') }),
    ]);
    const client = served.clients.find((c) => c.methods.some((m) => m.service === 'db'));
    expect(client?.readiness.neverSampled).toContainEqual({
      method: 'db.list',
      reason: 'the upstream no longer serves this legacy service',
    });
  });
});

describe('intended deviations and upstreams without legacy endpoints', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ sim: { legacyEndpoints: true }, flags: ['--shadow-sample', '100'] });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('counts the differences COMPATIBILITY.md describes as intended, by deviation', async () => {
    const password = passwordOf(stack.sim);
    const read = (db: string, pw: string): WorkloadCall => ({
      dialect: 'xmlrpc2',
      service: 'object',
      method: 'execute_kw',
      params: [db, 2, pw, 'res.partner', 'search_count', [[]]],
      shadowed: true,
    });
    // object calls with a password need their uid's login (COMPATIBILITY.md): the client logs in first
    await send(stack, { dialect: 'xmlrpc2', service: 'common', method: 'login', params: ['demo', 'admin', password], shadowed: false });
    await send(stack, read('no_such_db', password));
    await send(stack, read('demo', password));
    await stack.gateway.shadow?.idle();
    // the password changes; the gateway's key stands for it until the next confirmation (at most 5 s)
    stack.sim.control.setPassword('demo', 'admin', 'a-new-password');
    expect((await send(stack, read('demo', password))).text).toContain('<int>');
    await stack.gateway.shadow?.idle();
    // the calls on no_such_db and on demo are entries of their own database: their counts summed
    const counted = (await report(stack)).clients.flatMap((c) => c.methods.filter((m) => m.modelMethod === 'search_count'));
    const sum = (k: 'equal' | 'intended' | 'differs') => counted.reduce((n, m) => n + (m.shadow?.[k] ?? 0), 0);
    expect([sum('equal'), sum('intended'), sum('differs')]).toEqual([1, 2, 0]);
    const deviations: Record<string, number> = {};
    for (const m of counted) for (const [d, n] of Object.entries(m.shadow?.deviations ?? {})) deviations[d] = (deviations[d] ?? 0) + n;
    expect({ deviations }).toMatchObject({
      deviations: { 'Unknown-database faults do not name the PostgreSQL server': 1, 'A changed password keeps working for up to 5 s': 1 },
    });
  });

  it('reports an upstream with no legacy endpoint at all (HTTP 404) the same way', async () => {
    const captured = captureLog('info');
    const none = await startStack({ flags: ['--shadow-sample', '100'], log: captured.log });
    try {
      const password = passwordOf(none.sim);
      const read: WorkloadCall = {
        dialect: 'xmlrpc2',
        service: 'object',
        method: 'execute_kw',
        params: ['demo', 2, password, 'res.partner', 'search_count', [[]]],
        shadowed: true,
      };
      await send(none, { dialect: 'xmlrpc2', service: 'common', method: 'login', params: ['demo', 'admin', password], shadowed: false });
      for (let i = 0; i < 3; i++) {
        expect((await send(none, read)).text).toContain('<int>');
        await none.gateway.shadow?.idle();
      }
      expect(captured.matching('shadow mode stops for the legacy object service')).toHaveLength(1);
      expect((await report(none)).shadow.gone).toEqual([
        expect.objectContaining({ service: 'object', reason: expect.stringContaining('HTTP 404') }),
      ]);
      expect(await shadowSamples(none)).toEqual([]);
    } finally {
      await none.close();
    }
  });
});
