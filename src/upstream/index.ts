/** The upstream layer: everything the gateway asks of Odoo 19+, and nothing else imports undici. */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import type { JsonText, Value } from '../value.ts';
import { fetchDocBearer, type DocBearerAnswer, type DocBearerRequest } from './doc-bearer.ts';
import { callJson2, callJson2Text, type Json2Call } from './json2.ts';
import { createUpstreamHttp, type UpstreamHttp } from './pool.ts';
import { fetchVersionInfo } from './version.ts';
import { createWebDatabaseClient, type WebDatabaseClient } from './web-database.ts';
import { createWebSessionClient, type WebSessionClient } from './web-session.ts';

export { kindFromName, unauthorizedName, unknownDatabase } from './errors/index.ts';
export type { Json2Call } from './json2.ts';
export type { DocBearerAnswer, DocBearerRequest } from './doc-bearer.ts';
export type { CallKw, WebLogin, WebSession, WebSessionClient } from './web-session.ts';
export { baseUrlHeaders, stampOf } from './web-session.ts';
export type { DatabaseRoute, FormFields, FormFile, ManagerPage, WebDatabaseClient } from './web-database.ts';
// Operations: the pool behind the legacy services, its timing wrapper, the health probe,
// and the raw passthrough and websocket tunnels.
export { createUpstreamHttp, type UpstreamHttp } from './pool.ts';
export { observeUpstreamHttp, type UpstreamObserver } from './observed-http.ts';
export { shareUpstreamHttp, workKindOf } from './shared-http.ts';
export { createUpstreamShares } from './upstream-shares.ts';
export type { Lane, WorkKind, WorkShareEvents, WorkShares } from './work-shares.ts';
export { createHealthCheck, type HealthCheck } from './health.ts';
export { createPassthroughClient, type PassthroughClient, type PassthroughRequest, type PassthroughResponse } from './passthrough.ts';
export { createTunnelOpener, type TunnelOpener } from './tunnel.ts';

/** What the legacy services and the credentials layer may ask of the upstream. */
export interface Upstream {
  readonly url: string;
  json2(call: Json2Call, origin: CallOrigin): Promise<Value>;
  /** The same call, its result left as the upstream's JSON text (parsed only if asked to). */
  json2Text(call: Json2Call, origin: CallOrigin): Promise<JsonText>;
  versionInfo(origin: CallOrigin): Promise<Value>;
  /** `GET /doc-bearer/<model>.json`, conditional when an ETag is given (signature discovery). */
  docBearer(request: DocBearerRequest, origin: CallOrigin): Promise<DocBearerAnswer>;
  /** The web session routes: password login, `call_kw` with the session cookie, logout (key minting). */
  readonly webSession: WebSessionClient;
  /** The `/web/database/*` controllers: the legacy `db` service's upstream. */
  readonly webDatabase: WebDatabaseClient;
  close(): Promise<void>;
}

/** Builds the upstream client from validated config. */
export function createUpstream(config: Config, http: UpstreamHttp = createUpstreamHttp(config)): Upstream {
  return {
    url: http.url,
    json2: (call, origin) => callJson2(http, config, call, origin),
    json2Text: (call, origin) => callJson2Text(http, config, call, origin),
    versionInfo: (origin) => fetchVersionInfo(http, config, origin),
    docBearer: (request, origin) => fetchDocBearer(http, config, request, origin),
    webSession: createWebSessionClient(http, config),
    webDatabase: createWebDatabaseClient(http, config),
    close: () => http.close(),
  };
}
// Shadow mode: the upstream's own legacy endpoints.
export { createLegacyEndpointClient, type LegacyEndpointAnswer, type LegacyEndpointClient } from './legacy-endpoint.ts';
