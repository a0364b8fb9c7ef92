import { describe, expect, it } from 'vitest';
import { createMigrationReport } from './migration-report.ts';
import { escapeHtml, renderReportPage } from './report-page.ts';

describe('escapeHtml()', () => {
  it('escapes the five HTML metacharacters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });
});

describe('renderReportPage()', () => {
  it('says so when no call was seen', () => {
    const html = renderReportPage(createMigrationReport({ maxClients: 1, now: () => 0 }).snapshot());
    expect(html).toContain('<p id="empty">No legacy call since the report started.</p>');
    expect(html).toContain('<span id="client-count">0</span> legacy clients');
  });

  it('escapes every client-supplied string', () => {
    const report = createMigrationReport({ maxClients: 1, now: () => 0 });
    report.record({ dialect: 'xmlrpc2', userAgent: '<script>alert(1)</script>', ip: '10.0.0.1', service: 'object', method: 'execute_kw', model: '"><img src=x>', modelMethod: 'read', failed: false });
    const html = renderReportPage(report.snapshot());
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('<code>&#60;script&#62;alert(1)&#60;/script&#62;</code>');
    expect(html).toContain('<td>&#34;&#62;&#60;img src=x&#62;</td>');
  });
});
