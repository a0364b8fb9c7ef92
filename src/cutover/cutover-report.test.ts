import { describe, expect, it } from 'vitest';
import { withCutover, withCutoverSliced, type ShadowStatus } from './cutover-report.ts';
import { createFleetTable } from './fleet.ts';
import { turnCounter } from '../../test/support/turn-counter.ts';
import { createMigrationReport, type ReportedCall } from '../report/migration-report.ts';

const t0 = Date.parse('2026-05-01T10:00:00.000Z');
const on: ShadowStatus = {
  enabled: true,
  samplePercent: 100,
  maxInFlight: 4,
  methods: ['read', 'search_read', 'read_group', 'version'],
  gone: [],
};
const call = (modelMethod: string, over: Partial<ReportedCall> = {}): ReportedCall => ({
  dialect: 'xmlrpc2',
  userAgent: 'erp-sync',
  ip: '10.0.0.5',
  service: 'object',
  method: 'execute_kw',
  model: 'res.partner',
  modelMethod,
  failed: false,
  ...over,
});
const shadowed = (modelMethod: string, outcome: 'equal' | 'intended' | 'differs' | 'error' | 'dropped') =>
  ({ userAgent: 'erp-sync', ip: '10.0.0.5', service: 'object', method: 'execute_kw', model: 'res.partner', modelMethod, outcome }) as const;

function sample() {
  const report = createMigrationReport({ maxClients: 10, now: () => t0 });
  report.record({ ...call('search_read'), json2Body: () => '{"domain": []}' });
  report.record({ ...call('read_group'), json2Body: () => '{"domain": [], "fields": ["<string>"], "groupby": ["<string>"]}' });
  report.record(call('read_group'));
  report.record(call('write'));
  report.record(call('read'));
  for (let i = 0; i < 18; i++) report.recordShadow(shadowed('search_read', 'equal'));
  report.recordShadow(shadowed('search_read', 'differs'));
  report.recordShadow(shadowed('read_group', 'intended'));
  report.recordShadow(shadowed('read_group', 'error'));
  report.recordShadow(shadowed('read_group', 'dropped'));
  return report.snapshot();
}

function createMigrationReportWith(...calls: ReportedCall[]) {
  const report = createMigrationReport({ maxClients: 10, now: () => t0 });
  for (const c of calls) report.record(c);
  return report.snapshot();
}

describe('withCutover()', () => {
  it('gives each client a readiness line: the share of compared calls that were equal, and what was never sampled', () => {
    const [client] = withCutover(sample(), on).clients;
    expect(client?.readiness).toMatchObject({ sampled: 20, equal: 18, intended: 1, differs: 1, errors: 1, dropped: 1, equalPercent: 90 });
    expect(client?.readiness.neverSampled).toEqual([
      { method: 'res.partner.write', reason: 'never shadowed: it can change state' },
      { method: 'res.partner.read', reason: 'not sampled yet' },
    ]);
    expect(client?.readiness.line).toBe(
      '90 % of 20 compared calls equal (18 equal, 1 intended deviations, 1 differ). 1 shadow calls got no comparable answer. 1 sampled calls were dropped (the shadow bound was full). ' +
        'Never sampled: res.partner.write (never shadowed: it can change state); res.partner.read (not sampled yet).',
    );
  });

  it('says when shadow mode is off or the upstream dropped the service', () => {
    const off = withCutover(createMigrationReportWith(call('read')), { ...on, enabled: false }).clients[0]?.readiness;
    expect(off?.line).toBe('Shadow mode is off (--shadow-sample): no call compared.');
    expect(off?.neverSampled).toEqual([{ method: 'res.partner.read', reason: 'shadow mode is off' }]);
    const gone = { ...on, gone: [{ service: 'object', since: '2026-05-01T10:00:00.000Z', reason: '404' }] };
    expect(withCutover(sample(), gone).clients[0]?.readiness.neverSampled[1]?.reason).toBe(
      'the upstream no longer serves this legacy service',
    );
  });

  it("names each deprecated method a client calls, with Odoo's message and its replacement", () => {
    const [client] = withCutover(sample(), on).clients;
    expect(client?.deprecated).toEqual([
      {
        model: 'res.partner',
        method: 'read_group',
        calls: 2,
        since: '19.0',
        message: expect.stringContaining('read_group is deprecated'),
        replacement: 'formatted_read_group',
      },
    ]);
  });

  it("gives each method its JSON-2 equivalent, a deprecated one's built on its replacement", () => {
    const methods = withCutover(sample(), on).clients[0]?.methods ?? [];
    const { fleet } = withCutover(sample(), on);
    expect(fleet.find((m) => m.modelMethod === 'search_read')?.json2?.request).toBe('POST /json/2/res.partner/search_read');
    expect(fleet.find((m) => m.modelMethod === 'read_group')?.json2).toMatchObject({
      request: 'POST /json/2/res.partner/formatted_read_group',
      replaces: 'read_group',
    });
    expect(methods.some((m) => 'json2' in m)).toBe(false);
  });
});

describe('the fleet table', () => {
  it('lists each method once with the clients that call it, and a JSON-2 equivalent only for a method that ever succeeded', () => {
    const report = createMigrationReport({ maxClients: 10, now: () => t0 });
    const who = { database: 'demo', user: 'login:0123456789ab' };
    report.record({ ...call('search_read', who), json2Body: () => '{"domain": []}' });
    report.record(call('search_read', { ...who, userAgent: 'odoorpc' }));
    report.record(call('search_read', { ...who, userAgent: 'odoorpc' }));
    report.record(call('x_broken', { ...who, failed: true }));
    const { fleet } = withCutover(report.snapshot(), on);
    expect(fleet.map((m) => [m.name, m.clients, m.calls, m.faults, m.succeeded])).toEqual([
      ['res.partner.search_read', 2, 3, 0, true],
      ['res.partner.x_broken', 1, 1, 1, false],
    ]);
    expect(fleet[0]?.topClients).toEqual([
      { client: 'demo / login:0123456789ab / odoorpc @ 10.0.0.5', calls: 2 },
      { client: 'demo / login:0123456789ab / erp-sync @ 10.0.0.5', calls: 1 },
    ]);
    expect(fleet[0]?.json2?.body).toBe('{"domain": []}');
    expect(fleet[1]?.json2).toBeUndefined();
  });
});

describe('the top clients of a method', () => {
  it('are the three calling it most, the first seen first among equals, as a stable sort of all callers gives', () => {
    const report = createMigrationReport({ maxClients: 50, now: () => t0 });
    // call counts with ties, in an order that is neither sorted nor reversed
    const counts = [2, 5, 1, 5, 3, 2, 5, 4, 1, 4, 3, 5, 2];
    counts.forEach((n, i) => {
      for (let k = 0; k < n; k++) report.record(call('search_read', { userAgent: `client-${i}` }));
    });
    const { clients } = report.snapshot();
    const all = clients.map((c) => ({ client: `(no database) / anonymous / ${c.userAgent} @ 10.0.0.5`, calls: c.calls }));
    const table = createFleetTable();
    for (const c of clients) table.add(c);
    const [row] = table.rows();
    expect(row?.topClients).toEqual([...all].sort((a, b) => b.calls - a.calls).slice(0, 3));
    expect(row?.topClients.map((t) => t.calls)).toEqual([5, 5, 5]);
  });
});

describe('withCutoverSliced()', () => {
  it('gives what withCutover gives, from a lazy snapshot', async () => {
    const report = createMigrationReport({ maxClients: 10, now: () => t0 });
    for (const m of ['search_read', 'read', 'write']) for (const ua of ['a', 'b', 'c']) report.record(call(m, { userAgent: ua }));
    report.recordShadow(shadowed('search_read', 'equal'));
    expect(await withCutoverSliced(report.snapshotLazily(), on)).toEqual(withCutover(report.snapshot(), on));
  });

  it('gives the event loop a turn after each slice of work (with no budget: after each client)', async () => {
    const report = createMigrationReport({ maxClients: 50, now: () => t0 });
    for (let c = 0; c < 50; c++) for (let m = 0; m < 10; m++) report.record(call(`x_method_${m}`, { userAgent: `client-${c}` }));
    const counter = turnCounter();
    const served = await withCutoverSliced(report.snapshotLazily(), on, { sliceMs: 0 });
    expect(counter.stop()).toBeGreaterThanOrEqual(49);
    expect(served.clients).toHaveLength(50);
  });
});

describe('dated verdicts in the served report', () => {
  const successorMethods = ['read_group', 'toggle_active', 'get_currencies', 'check_access_rights'];
  function fleetReport() {
    const report = createMigrationReport({ maxClients: 10, now: () => t0 });
    const who = { database: 'demo', user: 'login:0123456789ab' };
    // a backup script, an ERP sync on read_group, an access auditor on ir.rule, a translator, a plain reader
    report.record({ ...call('list', { userAgent: 'backup' }), service: 'db', method: 'list', model: undefined, modelMethod: undefined });
    report.record(call('read_group', { ...who, userAgent: 'erp-sync' }));
    report.record(call('search_read', { ...who, userAgent: 'auditor', model: 'ir.rule' }));
    report.record(call('copy_translations', { ...who, userAgent: 'translator' }));
    report.record(call('search_read', { ...who, userAgent: 'reader' }));
    return report;
  }
  const byAgent = (served: ReturnType<typeof withCutover>, agent: string) => served.clients.find((c) => c.userAgent === agent);

  it('gives each client the earliest series where its calls break, natively and through the gateway', () => {
    const served = withCutover(fleetReport().snapshot(), on, { successorMethods });
    expect(byAgent(served, 'backup')?.verdict.line).toBe('Works natively until Odoo 20.0 / Online saas-19.1; the gateway serves it after.');
    expect(byAgent(served, 'erp-sync')?.verdict).toEqual({
      native: { onPremise: '20.0', online: 'saas-19.1', methods: ['res.partner.read_group'], methodCount: 1 },
      line: 'Breaks natively on Odoo 20.0 / Online saas-19.1 (res.partner.read_group); through the gateway: works on Odoo 20.0 / Online saas-19.1 and later (res.partner.read_group through formatted_read_group).',
    });
    expect(byAgent(served, 'auditor')?.verdict.gateway).toEqual({ onPremise: '20.0', methods: ['ir.rule.search_read'], methodCount: 1 });
    expect(byAgent(served, 'translator')?.verdict.line).toContain('breaks on Odoo 20.0 / Online saas-19.1 even through the gateway');
    expect(byAgent(served, 'reader')?.verdict.line).toBe('Works natively until Odoo 22.0 / Online saas-21.1; the gateway serves it after.');
    // the existing fields stay
    expect(byAgent(served, 'reader')).toHaveProperty('readiness');
    expect(byAgent(served, 'reader')).toHaveProperty('deprecated');
  });

  it('dates each fleet row and lists the clients that break on 20 even through the gateway', () => {
    const served = withCutover(fleetReport().snapshot(), on, { successorMethods });
    const row = (name: string) => served.fleet.find((m) => m.name === name)?.verdict;
    expect(row('db.list')?.line).toBe('natively gone in Odoo 20.0 and Online saas-19.1; the gateway serves it there over /web/database/*');
    expect(row('res.partner.read_group')?.gatewayText).toBe('the gateway serves it there through formatted_read_group');
    expect(row('ir.rule.search_read')?.gateway).toEqual({ onPremise: '20.0' });
    expect(row('res.partner.search_read')?.native).toEqual({ onPremise: '22.0', online: 'saas-21.1' });
    expect(served.breaks).toEqual([
      {
        onPremise: '20.0',
        online: 'saas-19.1',
        natively: 4,
        throughGateway: 2,
        // in the report's order: the most recently seen first
        clients: ['demo / login:0123456789ab / translator @ 10.0.0.5', 'demo / login:0123456789ab / auditor @ 10.0.0.5'],
      },
      { onPremise: '22.0', online: 'saas-21.1', natively: 1, throughGateway: 0, clients: [] },
    ]);
  });

  it('says read_group breaks through the gateway when the gateway has no successor for it (--successors off)', () => {
    const served = withCutover(fleetReport().snapshot(), on, { successorMethods: [] });
    expect(byAgent(served, 'erp-sync')?.verdict.gateway?.methods).toEqual(['res.partner.read_group']);
    expect(served.breaks[0]?.throughGateway).toBe(3);
  });

  it('gives the same verdicts gathered in slices', async () => {
    const report = fleetReport();
    expect(await withCutoverSliced(report.snapshotLazily(), on, { successorMethods, sliceMs: 0 })).toEqual(
      withCutover(report.snapshot(), on, { successorMethods }),
    );
  });
});

describe("recognising n8n's Odoo node", () => {
  const n8n = (over: Partial<ReportedCall> = {}): ReportedCall =>
    call('search_read', { dialect: 'jsonrpc', userAgent: 'n8n', method: 'execute', ...over });

  it('names it and the switch it needs: node version 2 with the API-key credential', () => {
    const [client] = withCutover(
      createMigrationReportWith(n8n(), n8n({ service: 'common', method: 'login', model: undefined, modelMethod: undefined })),
      on,
    ).clients;
    expect(client?.knownClient).toMatchObject({ id: 'n8n-odoo-node', name: "n8n's Odoo node", source: 'n8n-io/n8n#30796' });
    expect(client?.knownClient?.switchTo).toContain('node version 2');
    expect(client?.knownClient?.switchTo).toContain('"Odoo API (API Key)" credential');
    const [older] = withCutover(createMigrationReportWith(n8n({ userAgent: 'https://n8n.io' })), on).clients;
    expect(older?.knownClient?.id).toBe('n8n-odoo-node');
  });

  it('leaves alone a client with its User-Agent on another dialect, and other User-Agents', () => {
    const clients = withCutover(
      createMigrationReportWith(n8n({ dialect: 'xmlrpc2', ip: '10.0.0.6' }), n8n({ userAgent: 'n8n-custom', ip: '10.0.0.7' })),
      on,
    ).clients;
    expect(clients).toHaveLength(2);
    for (const c of clients) expect(c.knownClient).toBeUndefined();
  });

  it('says it on the page', async () => {
    const { renderReportPage } = await import('../../test/support/render-report-page.ts');
    const html = renderReportPage(withCutover(createMigrationReportWith(n8n()), on));
    expect(html).toContain('<h5>Recognised: n8n&#39;s Odoo node</h5>');
    expect(html).toMatch(
      /<p class="known-client" data-known="n8n-odoo-node">It calls \/jsonrpc .* To leave the legacy API: In each workflow, set its Odoo nodes to node version 2/,
    );
  });
});

describe("a client's own JSON-2 requests in the JSON", () => {
  it('gives each of its methods that succeeded the request that replaces it, and the warning where the answer changes', () => {
    const [client] = withCutover(
      createMigrationReportWith(
        call('create', { json2Body: () => '{"vals_list": {"name": "<string>"}}' }),
        call('read_group', { json2Body: () => '{"domain": [], "fields": ["<string>"], "groupby": ["<string>"]}' }),
        call('unlink', { failed: true }),
        call('version', { service: 'common', method: 'version', model: undefined, modelMethod: undefined }),
      ),
      on,
    ).clients;
    const byName = new Map(client?.methods.map((m) => [m.modelMethod ?? `${m.service}.${m.method}`, m]));
    expect(byName.get('create')).toMatchObject({
      json2Request: 'POST /json/2/res.partner/create',
      json2Warning: expect.stringContaining('[id]'),
    });
    expect(byName.get('read_group')).toMatchObject({ json2Request: 'POST /json/2/res.partner/formatted_read_group' });
    expect(byName.get('read_group')).not.toHaveProperty('json2Warning');
    expect(byName.get('unlink')).not.toHaveProperty('json2Request');
    expect(byName.get('common.version')).toMatchObject({ json2Request: 'GET /web/version' });
  });
});

describe('clients that share a User-Agent', () => {
  const py = (over: Partial<ReportedCall>) => call('search_read', { userAgent: 'Python-xmlrpc/3.11', database: 'gw', ...over });

  it('are told apart by what else differs: the login on one host, the address across hosts', async () => {
    const snapshot = createMigrationReportWith(
      py({ ip: '10.0.0.5', user: 'login:aaaaaaaaaaaa' }),
      py({ ip: '10.0.0.5', user: 'login:bbbbbbbbbbbb' }),
      py({ ip: '10.0.0.6', user: 'login:bbbbbbbbbbbb' }),
      call('read', { userAgent: 'erp-sync' }),
    );
    const clients = withCutover(snapshot, on).clients;
    const of = (ip: string, user: string) => clients.find((c) => c.ip === ip && c.user === user)?.sharedUserAgent;
    expect(of('10.0.0.5', 'login:aaaaaaaaaaaa')).toEqual({
      clients: 3,
      apartBy: ['ip', 'user'],
      line: 'One of 3 clients sending this User-Agent, told apart by address 10.0.0.5, login login:aaaaaaaaaaaa.',
    });
    expect(of('10.0.0.6', 'login:bbbbbbbbbbbb')?.line).toBe(
      'One of 3 clients sending this User-Agent, told apart by address 10.0.0.6, login login:bbbbbbbbbbbb.',
    );
    expect(clients.find((c) => c.userAgent === 'erp-sync')).not.toHaveProperty('sharedUserAgent');
    // the same, served in slices
    const sliced = await withCutoverSliced(snapshot, on);
    expect(sliced.clients.find((c) => c.ip === '10.0.0.5' && c.user === 'login:aaaaaaaaaaaa')?.sharedUserAgent?.apartBy).toEqual([
      'ip',
      'user',
    ]);
  });

  it('on one host, by the login alone, said under each on the page', async () => {
    const { renderReportPage } = await import('../../test/support/render-report-page.ts');
    const html = renderReportPage(
      withCutover(createMigrationReportWith(py({ user: 'login:aaaaaaaaaaaa' }), py({ user: 'login:bbbbbbbbbbbb' })), on),
    );
    expect(html).toContain('<p class="shares">One of 2 clients sending this User-Agent, told apart by login login:aaaaaaaaaaaa.</p>');
    expect(html).toContain('<p class="shares">One of 2 clients sending this User-Agent, told apart by login login:bbbbbbbbbbbb.</p>');
  });
});
