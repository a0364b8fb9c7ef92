import { describe, expect, it } from 'vitest';
import { createMigrationReport } from '../report/migration-report.ts';
import { renderReportPage } from './report-page.ts';

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
