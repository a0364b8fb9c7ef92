/**
 * The admin port's Hono app (docs/architecture.md §8): `/metrics` (Prometheus), `/readyz`, and the migration
 * report as JSON (`/gateway/report.json`) and HTML (`/gateway/report`). With a token, everything
 * but `/readyz` needs `Authorization: Bearer <token>` (probes rarely carry secrets; readiness
 * reveals nothing).
 */
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import type { GatewayMetrics } from '../metrics/metrics.ts';
import { reportPageChunks, withCutoverSliced, type ShadowStatus } from '../cutover/index.ts';
import type { ClientRoute, RoutesStatus } from '../cutover/cutover-report.ts';
import type { ReloadResult } from '../cutover/routes/index.ts';
import type { ClientReport, LazyReportSnapshot } from '../report/migration-report.ts';
import { jsonChunks, sliced, streamOf } from '../report/report-stream.ts';
import type { Readiness } from './readiness.ts';

/** What the admin app serves. */
export interface AdminDeps {
  metrics: Pick<GatewayMetrics, 'contentType' | 'text'>;
  /**
   * The migration report: the local one (its clients made as they are read), or the one shared
   * through Redis (which answers a promise).
   */
  report: { snapshotLazily(): LazyReportSnapshot | Promise<LazyReportSnapshot> };
  readiness: () => Promise<Readiness>;
  /** `--admin-token`; `undefined`: no authentication (the port listens on 127.0.0.1 by default). */
  token: string | undefined;
  /**
   * Shadow mode's state: with it, the report is served with readiness, deprecated calls
   * and JSON-2 equivalents (`src/cutover/cutover-report.ts`).
   */
  shadow?: () => ShadowStatus;
  /**
   * The methods the gateway answers through their successors (`src/successors/`), for the report's
   * dated verdicts (`src/cutover/verdicts.ts`).
   */
  successorMethods?: readonly string[];
  /** Route modes (`--routes-file`): their state for the report, and the reload `POST /routes/reload` runs. */
  routes?:
    | {
        status: () => RoutesStatus;
        routesOf: (userAgent: string, ip: string, database: string | undefined) => ClientRoute[];
        reload: (trigger: string) => ReloadResult;
      }
    | undefined;
  /** `--report-show-logins`: the login behind a pseudonym, shown in the report. */
  loginOf?: ((user: string) => string | undefined) | undefined;
  /** `--routes-token`: the bearer token `POST /routes/reload` requires; without it the endpoint answers 403. */
  routesToken?: string | undefined;
}

/** Builds the admin app (no sockets: tests call `app.request()`). */
export function createAdminApp({
  metrics,
  report,
  readiness,
  token,
  shadow,
  successorMethods,
  routes,
  routesToken,
  loginOf,
}: AdminDeps): Hono {
  const app = new Hono();
  if (token !== undefined) {
    const auth = bearerAuth({ token });
    app.use('/metrics', auth);
    app.use('/gateway/*', auth);
  }
  // reloading the routes changes what reaches Odoo: a token of its own, and no token no reload
  if (routesToken !== undefined) app.use('/routes/*', bearerAuth({ token: routesToken }));
  app.post('/routes/reload', (c) => {
    if (routesToken === undefined)
      return c.json(
        { status: 'refused', problems: ['set --routes-token (or --routes-token-file) to reload the routes here; SIGHUP reloads them too'] },
        403,
      );
    if (routes === undefined) return c.json({ status: 'refused', problems: ['no --routes-file to reload'] }, 409);
    const result = routes.reload('admin endpoint');
    return result.ok
      ? c.json({ status: 'reloaded', changes: result.changes })
      : c.json({ status: 'refused', problems: result.problems }, 422);
  });
  app.get('/routes', (c) => {
    if (routesToken === undefined || routes === undefined) return c.json({ status: 'refused' }, routesToken === undefined ? 403 : 409);
    return c.json(routes.status());
  });

  app.get('/readyz', async (c) => {
    const state = await readiness();
    const redis = state.redis === undefined ? {} : { redis: state.redis };
    return state.ready ? c.json({ status: 'ready', ...redis }) : c.json({ status: 'not ready', reason: state.reason, ...redis }, 503);
  });
  app.get('/metrics', async () => new Response(await metrics.text(), { headers: { 'content-type': metrics.contentType } }));
  // gathered in slices and sent in pieces, the event loop free between them: a large report never
  // stalls the client port
  const served = async () => {
    const snapshot = await report.snapshotLazily();
    if (shadow !== undefined)
      return withCutoverSliced(snapshot, shadow(), {
        successorMethods: successorMethods ?? [],
        ...(loginOf === undefined ? {} : { loginOf }),
        ...(routes === undefined ? {} : { routes: { status: routes.status(), routesOf: routes.routesOf } }),
      });
    const clients: ClientReport[] = [];
    for await (const c of sliced(snapshot.clients)) clients.push(c);
    return { ...snapshot, clients };
  };
  app.get(
    '/gateway/report.json',
    async () =>
      new Response(streamOf(jsonChunks(await served(), ['fleet', 'clients'])), { headers: { 'content-type': 'application/json' } }),
  );
  app.get(
    '/gateway/report',
    async () => new Response(streamOf(reportPageChunks(await served())), { headers: { 'content-type': 'text/html; charset=UTF-8' } }),
  );
  app.notFound(
    () =>
      new Response('Not Found: the admin port serves /metrics, /readyz, /gateway/report and /gateway/report.json.\n', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      }),
  );
  return app;
}
