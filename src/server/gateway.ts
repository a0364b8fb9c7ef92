/**
 * The composition root: builds upstream, credentials, signatures, services and the app from a
 * validated Config, and starts or stops the HTTP server.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.ts';
import { pythonError } from '../errors.ts';
import { createCredentials } from '../credentials/index.ts';
import { createCommonService } from '../legacy/common.ts';
import { createDispatch } from '../legacy/dispatch.ts';
import { createObjectService } from '../legacy/object.ts';
import { createVersionCache } from '../legacy/version-cache.ts';
import type { Logger } from '../log.ts';
import { createSignatureResolver, type SignatureResolver } from '../signatures/index.ts';
import { createUpstream, type Upstream } from '../upstream/index.ts';
import { createApp } from './app.ts';

export interface GatewayOptions {
  /** Replaces the built-in signature resolver (tests mutate the table through it). */
  signatures?: SignatureResolver;
}

/** Builds the Hono app and the upstream client it uses. */
export function createGateway(config: Config, log: Logger, options: GatewayOptions = {}) {
  const upstream = createUpstream(config);
  const credentials = createCredentials(config, upstream);
  const versions = createVersionCache(upstream, config.versionCacheTtlMs);
  const signatures = options.signatures ?? createSignatureResolver();
  const dispatch = createDispatch({
    common: createCommonService({ upstream, credentials, versions }),
    object: createObjectService({ upstream, credentials, signatures }),
    db: dbNotYetAvailable,
  });
  return { app: createApp({ config, log, dispatch }), upstream };
}

// TODO(#5): the db service over /web/database/*.
async function dbNotYetAvailable(): Promise<never> {
  throw pythonError('legacy_rpc_gateway.NotSupported', 'the db service is not available in this version of legacy-rpc-gateway');
}

export interface RunningGateway {
  url: string;
  port: number;
  upstream: Upstream;
  close(): Promise<void>;
}

/** Starts listening on `config.host:config.port` (port 0 picks a free one). */
export async function startGateway(config: Config, log: Logger, options: GatewayOptions = {}): Promise<RunningGateway> {
  const { app, upstream } = createGateway(config, log, options);
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    upstream,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.close();
    },
  };
}
