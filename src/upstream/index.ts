/** The upstream layer: everything the gateway asks of Odoo 19+, and nothing else imports undici. */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import type { Value } from '../value.ts';
import { callJson2, type Json2Call } from './json2.ts';
import { createUpstreamHttp, type UpstreamHttp } from './pool.ts';
import { fetchVersionInfo } from './version.ts';

export { unauthorizedName, unknownDatabase } from './answer.ts';
export { kindFromName } from './error-json.ts';
export type { Json2Call } from './json2.ts';

/** What the legacy services and the credentials layer may ask of the upstream. */
export interface Upstream {
  readonly url: string;
  json2(call: Json2Call, origin: CallOrigin): Promise<Value>;
  versionInfo(origin: CallOrigin): Promise<Value>;
  close(): Promise<void>;
}

/** Builds the upstream client from validated config. */
export function createUpstream(config: Config, http: UpstreamHttp = createUpstreamHttp(config)): Upstream {
  return {
    url: http.url,
    json2: (call, origin) => callJson2(http, config, call, origin),
    versionInfo: (origin) => fetchVersionInfo(http, config, origin),
    close: () => http.close(),
  };
}
