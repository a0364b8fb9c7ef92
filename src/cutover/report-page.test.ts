import { describe, expect, it } from 'vitest';
import { createMigrationReport } from '../report/migration-report.ts';
import type { ShadowStatus } from './cutover-report.ts';
import { renderReportPage } from '../../test/support/render-report-page.ts';

describe('renderReportPage()', () => {
  it('says so when no call was seen', () => {
    const html = renderReportPage(createMigrationReport({ maxClients: 1, now: () => 0 }).snapshot());
    expect(html).toContain('<p id="empty">No legacy call since the report started.</p>');
    expect(html).toContain('<span id="client-count">0</span> legacy clients');
  });

  it('escapes every client-supplied string', () => {
    const report = createMigrationReport({ maxClients: 1, now: () => 0 });
    report.record({
      dialect: 'xmlrpc2',
      userAgent: '<script>alert(1)</script>',
      ip: '10.0.0.1',
      service: 'object',
      method: 'execute_kw',
      model: '"><img src=x>',
      modelMethod: 'read',
      failed: false,
    });
    const html = renderReportPage(report.snapshot());
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>');
    expect(html).toContain('<td>&quot;&gt;&lt;img src=x&gt;</td>');
  });

  it('escapes all five HTML metacharacters in attribute values and text, and only once', () => {
    const report = createMigrationReport({ maxClients: 1, now: () => 0 });
    report.record({
      dialect: 'jsonrpc',
      userAgent: `<a href="x">'&amp;'</a>`,
      ip: '10.0.0.2',
      service: 'common',
      method: 'version',
      failed: false,
    });
    const html = renderReportPage(report.snapshot());
    const escaped = '&lt;a href=&quot;x&quot;&gt;&#39;&amp;amp;&#39;&lt;/a&gt;';
    expect(html).toContain(`<section class="client" data-user-agent="${escaped}" data-ip="10.0.0.2">`);
    expect(html).toContain(`<h4><code>${escaped}</code> from <code>10.0.0.2</code></h4>`);
  });
});

describe('renderReportPage() with the cutover parts', () => {
  const shadow = {
    enabled: true,
    samplePercent: 25,
    maxInFlight: 4,
    methods: ['read'],
    gone: [{ service: 'db', since: '2026-01-01T00:00:00.000Z', reason: 'the upstream answers HTTP 404' }],
  };

  it('shows shadow mode, readiness, deprecated calls, differences and JSON-2 equivalents, all escaped', async () => {
    const { withCutover } = await import('./cutover-report.ts');
    const report = createMigrationReport({ maxClients: 1, now: () => 0 });
    const base = {
      dialect: 'xmlrpc2' as const,
      userAgent: 'sync',
      ip: '10.0.0.1',
      service: 'object',
      method: 'execute_kw',
      model: 'res.partner',
      failed: false,
    };
    report.record({ ...base, modelMethod: 'read', json2Body: () => '{"ids": ["<int>"]}' });
    report.record({ ...base, modelMethod: 'toggle_active' });
    report.recordShadow({
      userAgent: 'sync',
      ip: '10.0.0.1',
      service: 'object',
      method: 'execute_kw',
      model: 'res.partner',
      modelMethod: 'read',
      outcome: 'differs',
      difference: {
        at: '2026-01-01T00:00:00.000Z',
        dialect: 'xmlrpc2',
        differences: ['result[0].name: expected <string>"<b>"'],
        gateway: '<i>g</i>',
        legacy: 'l',
      },
    });
    const html = renderReportPage(withCutover(report.snapshot(), shadow));
    expect(html).toContain('<span id="shadow-state">on: 25 % of the calls to <code>read</code>, at most 4 in flight</span>');
    expect(html).toContain('<li class="gone" data-service="db">db: the upstream answers HTTP 404 (since 2026-01-01T00:00:00.000Z)</li>');
    expect(html).toContain(
      '<p class="readiness">0 % of 1 compared calls equal (0 equal, 0 intended deviations, 1 differ). Never sampled: res.partner.toggle_active (never shadowed: it can change state).</p>',
    );
    expect(html).toContain(
      '“Deprecated since 19.0, use action_archive or action_unarchive” (deprecated since 19.0); replace with <code class="replacement">action_archive</code>',
    );
    expect(html).toContain('<li>result[0].name: expected &lt;string&gt;&quot;&lt;b&gt;&quot;</li>');
    expect(html).toContain('<pre class="gateway-answer">&lt;i&gt;g&lt;/i&gt;</pre>');
    expect(html).toContain('<code class="request">POST /json/2/res.partner/read</code>');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<i>');
  });
});

describe('renderReportPage() with the dated verdicts', () => {
  const shadow = { enabled: false, samplePercent: 0, maxInFlight: 4, methods: [], gone: [] };
  const base = {
    dialect: 'xmlrpc2' as const,
    ip: '10.0.0.1',
    service: 'object',
    method: 'execute_kw',
    failed: false,
    database: 'demo',
    user: 'login:0123456789ab',
  };

  it("shows each client's verdict, each method's removal and gateway verdict, and who breaks on 20 even through the gateway", async () => {
    const { withCutover } = await import('./cutover-report.ts');
    const report = createMigrationReport({ maxClients: 10, now: () => 0 });
    report.record({ ...base, userAgent: '<b>auditor</b>', model: 'ir.rule', modelMethod: 'search_read' });
    report.record({ ...base, userAgent: 'erp-sync', model: 'res.partner', modelMethod: 'read_group' });
    report.record({ ...base, userAgent: 'reader', model: 'res.partner', modelMethod: 'search_read' });
    const html = renderReportPage(withCutover(report.snapshot(), shadow, { successorMethods: ['read_group'] }));

    expect(html).toContain('<th>Succeeded</th><th>Removed in</th><th>JSON-2 equivalent</th>');
    expect(html).toContain(
      '<td class="removed-in"><span class="series">Odoo 20.0 / Online saas-19.1</span><br><span class="muted">the gateway serves it there through formatted_read_group</span></td>',
    );
    expect(html).toContain(
      '<td class="removed-in"><span class="series">Odoo 20.0</span><br><span class="breaks-through">it breaks through the gateway too (ir.rule was replaced by ir.access in Odoo 20.0)</span></td>',
    );
    expect(html).toContain(
      '<td class="removed-in"><span class="series">Odoo 22.0 / Online saas-21.1</span><br><span class="muted">the gateway serves it there</span></td>',
    );

    expect(html).toContain('<section id="breaks">');
    expect(html).toContain(
      '<li data-series="20.0"><strong>Breaks on Odoo 20.0 / Online saas-19.1</strong>: <span class="natively">2</span> clients whose calls first break natively there; ' +
        '<span class="through-gateway">1</span> even through the gateway:<ul class="who"><li>demo / login:0123456789ab / &lt;b&gt;auditor&lt;/b&gt; @ 10.0.0.1</li></ul></li>',
    );
    expect(html).toContain(
      '<li data-series="22.0"><strong>Breaks on Odoo 22.0 / Online saas-21.1</strong>: <span class="natively">1</span> client whose calls first break natively there; none even through the gateway</li>',
    );
    // after the fleet table, before the clients
    expect(html.indexOf('<section id="fleet">')).toBeLessThan(html.indexOf('<section id="breaks">'));
    expect(html.indexOf('<section id="breaks">')).toBeLessThan(html.indexOf('<h2 id="clients-title">'));

    expect(html).toContain(
      '<h5>Dated verdict</h5>\n<p class="verdict">Breaks natively on Odoo 20.0 (ir.rule.search_read); breaks on Odoo 20.0 even through the gateway: ir.rule.search_read (ir.rule was replaced by ir.access in Odoo 20.0).</p>',
    );
    expect(html).toContain(
      '<p class="verdict">Breaks natively on Odoo 20.0 / Online saas-19.1 (res.partner.read_group); through the gateway: works on Odoo 20.0 / Online saas-19.1 and later (res.partner.read_group through formatted_read_group).</p>',
    );
    expect(html).toContain('<p class="verdict">Works natively until Odoo 22.0 / Online saas-21.1; the gateway serves it after.</p>');
    expect(html).not.toContain('<b>');
  });
});

describe('renderReportPage(): a client planned on its own', () => {
  const off: ShadowStatus = { enabled: false, samplePercent: 0, maxInFlight: 4, methods: [], gone: [] };
  const base = {
    dialect: 'xmlrpc2' as const,
    userAgent: 'erp-sync',
    ip: '10.0.0.1',
    service: 'object',
    method: 'execute_kw',
    model: 'res.partner',
    failed: false,
    database: 'demo',
    user: 'login:0123456789ab',
  };

  async function pageOf(record: (report: ReturnType<typeof createMigrationReport>) => void, shadow = off) {
    const { withCutover } = await import('./cutover-report.ts');
    const report = createMigrationReport({ maxClients: 10, now: () => 0 });
    record(report);
    return renderReportPage(withCutover(report.snapshot(), shadow));
  }
  const clientTable = (html: string) => html.slice(html.indexOf('<section class="client"'));

  it('leaves out the columns that say the same in every row or nothing: Service and Method all object.execute_kw, Shadow while it is off', async () => {
    const html = clientTable(
      await pageOf((r) => {
        r.record({ ...base, modelMethod: 'search_read', json2Body: () => '{"domain": []}' });
        r.record({ ...base, modelMethod: 'write', json2Body: () => '{"ids": ["<int>"], "vals": {"name": "<string>"}}' });
      }),
    );
    expect(html).toContain(
      '<thead><tr><th>Model</th><th>Model method</th><th>Calls</th><th>Faults</th><th>First seen</th><th>Last seen</th><th>JSON-2 request</th></tr></thead>',
    );
    expect(html).toContain('<p class="shared">Every call listed: <code>object.execute_kw</code>.</p>');
    expect(html).not.toContain('<td>execute_kw</td>');
    expect(html).not.toContain('class="shadow');
  });

  it('keeps them where rows differ, and Shadow while shadow mode is on', async () => {
    const on = { enabled: true, samplePercent: 10, maxInFlight: 4, methods: ['read'], gone: [] };
    const html = clientTable(
      await pageOf((r) => {
        r.record({ ...base, modelMethod: 'search_read' });
        r.record({ ...base, method: 'execute', modelMethod: 'read' });
        r.record({ ...base, service: 'common', method: 'version', model: undefined });
      }, on),
    );
    expect(html).toContain(
      '<thead><tr><th>Service</th><th>Method</th><th>Model</th><th>Model method</th><th>Calls</th><th>Faults</th><th>First seen</th><th>Last seen</th><th>Shadow</th><th>JSON-2 request</th></tr></thead>',
    );
    expect(html).not.toContain('<p class="shared">');
  });

  it("gives the JSON-2 request of each of its methods, its own body where it differs from the fleet table's, and warns where create's answer changes", async () => {
    const html = await pageOf((r) => {
      r.record({ ...base, modelMethod: 'create', json2Body: () => '{"vals_list": {"name": "<string>"}}' });
      r.record({ ...base, userAgent: 'other', modelMethod: 'create', json2Body: () => '{"vals_list": {"name": "<string>"}}' });
      r.record({ ...base, modelMethod: 'write', json2Body: () => '{"ids": ["<int>"], "vals": {"name": "<string>"}}' });
      r.record({ ...base, userAgent: 'other', modelMethod: 'write', json2Body: () => '{"ids": ["<int>"], "vals": {"email": "<string>"}}' });
      r.record({ ...base, modelMethod: 'unlink', failed: true });
    });
    const client = (agent: string) => {
      const at = html.indexOf(`<section class="client" data-user-agent="${agent}"`);
      return html.slice(at, html.indexOf('</section>', at));
    };
    const sync = client('erp-sync');
    expect(sync).toContain(
      '<td><code class="request">POST /json/2/res.partner/create</code><p class="warning">JSON-2 answers a list of ids, [id], where the legacy create',
    );
    expect(sync).toContain('<td><code class="request">POST /json/2/res.partner/write</code></td>');
    expect(sync).toContain('<td class="muted">–</td></tr>');
    // the fleet table has the first client's body, the curl and Python examples; a client only its own body where it differs
    expect(client('other')).toContain(
      '<td><code class="request">POST /json/2/res.partner/write</code><details><summary>its body</summary><pre class="body">{&quot;ids&quot;: [&quot;&lt;int&gt;&quot;], &quot;vals&quot;: {&quot;email&quot;',
    );
    expect(sync + client('other')).not.toContain('<pre class="curl">');
  });

  it("says whose each fault is: one Odoo would have answered too (the script's own) or the gateway's", async () => {
    const full = await pageOf((r) => {
      r.record({ ...base, modelMethod: 'write', failed: true });
      r.record({ ...base, modelMethod: 'write', failed: true, gatewayFault: true });
      r.record({ ...base, modelMethod: 'read', failed: true, gatewayFault: true });
      r.record({ ...base, modelMethod: 'unlink', failed: true });
    });
    const html = clientTable(full);
    expect(html).toContain(
      `<span class="faults">4</span> faults (<span class="gateway-faults">2</span> the gateway's own, <span class="odoo-faults">2</span> Odoo would have answered too)`,
    );
    expect(html).toContain(`<td class="n" data-gateway="1">2<span class="gw">, 1 the gateway's</span></td>`);
    expect(html).toContain(`<td class="n" data-gateway="1">1<span class="gw">, 1 the gateway's</span></td>`);
    expect(html).toMatch(/<td>unlink<\/td><td class="n">1<\/td><td class="n">1<\/td>/);
    expect(full).toContain(
      "A fault is one Odoo's own legacy endpoint would have answered too (the script's own) unless marked the gateway's.",
    );
  });
});
