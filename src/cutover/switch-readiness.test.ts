import { describe, expect, it } from 'vitest';
import { switchReadinessOf, withCutover } from './cutover-report.ts';
import { renderReportPage } from '../../test/support/render-report-page.ts';
import type { MethodReport, ReportSnapshot } from '../report/migration-report.ts';

const m = (modelMethod: string, shadow?: MethodReport['shadow']): MethodReport => ({
  service: 'object',
  method: 'execute_kw',
  model: 'res.partner',
  modelMethod,
  calls: 3,
  faults: 0,
  firstSeen: '2025-01-01T00:00:00.000Z',
  lastSeen: '2025-01-01T00:00:00.000Z',
  ...(shadow === undefined ? {} : { shadow }),
});
const counts = (c: Partial<NonNullable<MethodReport['shadow']>>) => ({ equal: 0, intended: 0, differs: 0, errors: 0, dropped: 0, ...c });

describe('switchReadinessOf', () => {
  it('is ready only when every method was verified and none differed', () => {
    expect(switchReadinessOf([m('read', counts({ equal: 2 })), m('write', counts({ bound: 1 }))])).toMatchObject({
      verdict: 'ready to switch',
      compared: 2,
      bound: 1,
    });
    expect(switchReadinessOf([m('read', counts({ equal: 2 })), m('write')])).toMatchObject({
      verdict: 'not ready',
      neverVerified: ['res.partner.write'],
    });
    expect(switchReadinessOf([m('read', counts({ equal: 5, differs: 1 }))])).toMatchObject({
      verdict: 'not ready',
      differing: ['res.partner.read'],
    });
    expect(switchReadinessOf([m('read', counts({ errors: 2, dropped: 1 }))]).verdict).toBe('not ready');
    expect(switchReadinessOf([]).verdict).toBe('not ready');
  });

  it('puts the verdicts with each client route first on the page', () => {
    const snapshot: ReportSnapshot = {
      generatedAt: '2025-01-01T00:00:00.000Z',
      since: '2025-01-01T00:00:00.000Z',
      clients: [
        {
          userAgent: 'erp/1',
          ip: '10.0.0.1',
          database: 'demo',
          firstSeen: '2025-01-01T00:00:00.000Z',
          lastSeen: '2025-01-01T00:00:00.000Z',
          calls: 3,
          faults: 0,
          dialects: { xmlrpc2: 3 },
          services: { object: 3 },
          methods: [m('read', counts({ equal: 3 }))],
          unlistedCalls: 0,
        },
      ],
    } as unknown as ReportSnapshot;
    const served = withCutover(
      snapshot,
      { enabled: false, samplePercent: 0, maxInFlight: 4, methods: [], gone: [] },
      {
        routes: {
          status: { file: 'routes.yaml', defaultMode: 'translate', rules: [{ name: 'erp', mode: 'verify', line: 2 }], fallbacks: [] },
          routesOf: () => [{ rule: 'erp', mode: 'verify' }],
        },
      },
    );
    const page = renderReportPage(served);
    expect(page.indexOf('id="switch"')).toBeGreaterThan(0);
    expect(page.indexOf('id="switch"')).toBeLessThan(page.indexOf('id="clients-title"'));
    expect(page).toContain('<td>erp → verify</td><td class="verdict">ready to switch</td>');
  });
});
