/**
 * The admin port's Hono app (design §8): `/metrics` (Prometheus), `/readyz`, and the migration
 * report as JSON (`/gateway/report.json`) and HTML (`/gateway/report`). With a token, everything
 * but `/readyz` needs `Authorization: Bearer <token>` (probes rarely carry secrets; readiness
 * reveals nothing).
 */
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import type { GatewayMetrics } from '../metrics/metrics.ts';
import type { MigrationReport } from '../report/migration-report.ts';
import { renderReportPage } from '../report/report-page.ts';
import type { Readiness } from './readiness.ts';

/** What the admin app serves. */
export interface AdminDeps {
  metrics: Pick<GatewayMetrics, 'contentType' | 'text'>;
  report: Pick<MigrationReport, 'snapshot'>;
  readiness: () => Promise<Readiness>;
  /** `--admin-token`; `undefined`: no authentication (the port listens on 127.0.0.1 by default). */
  token: string | undefined;
}

/** Builds the admin app (no sockets: tests call `app.request()`). */
export function createAdminApp({ metrics, report, readiness, token }: AdminDeps): Hono {
  const app = new Hono();
  if (token !== undefined) {
    const auth = bearerAuth({ token });
    app.use('/metrics', auth);
    app.use('/gateway/*', auth);
  }

  app.get('/readyz', async (c) => {
    const state = await readiness();
    return state.ready ? c.json({ status: 'ready' }) : c.json({ status: 'not ready', reason: state.reason }, 503);
  });
  app.get('/metrics', async () => new Response(await metrics.text(), { headers: { 'content-type': metrics.contentType } }));
  app.get('/gateway/report.json', (c) => c.json(report.snapshot()));
  app.get('/gateway/report', (c) => c.html(renderReportPage(report.snapshot())));
  app.notFound(
    () =>
      new Response('Not Found: the admin port serves /metrics, /readyz, /gateway/report and /gateway/report.json.\n', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      }),
  );
  return app;
}
