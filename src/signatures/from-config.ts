/**
 * The signature resolver the configuration asks for (docs/architecture.md §4): the signatures file when
 * `--signatures-file` is set, live `/doc-bearer` discovery (with the database's `--service-key`,
 * else the caller's own key), then the built-in table. Says once, at start, which of them are on.
 */
import { ownCallOrigin, type CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Upstream } from '../upstream/index.ts';
import { createDiscoverySource } from './discovery.ts';
import { loadOverridesFile } from './overrides-file.ts';
import { createOverridesSource } from './overrides.ts';
import { createSignatureResolver, type SignatureResolver, type SignatureSource } from './resolver.ts';
import { createUpstreamChanges } from './upstream-changes.ts';

/** Test hooks of {@link createSignatureResolverFromConfig}. */
export interface ResolverFromConfigOptions {
  /** The discovery clock (epoch ms). Default `Date.now`. */
  now?: () => number;
  /**
   * The upstream's series as last seen (the version cache's `serie`): a method a later series
   * changed is then known as changed before any call to it (`upstream-changes.ts`). Default: unknown.
   */
  serie?: () => string | undefined;
}

/**
 * The headers of the call that needs a signature (Host for dbfilter, forwarded address), but a
 * deadline of its own: the fetch is shared by every call waiting on it, so one client going away
 * must not abort it for the others.
 */
function discoveryOrigin(origin: CallOrigin | undefined, timeoutMs: number): CallOrigin {
  const signal = AbortSignal.timeout(timeoutMs);
  if (origin !== undefined) return { ...origin, signal };
  return ownCallOrigin('signature-discovery', signal);
}

/**
 * Builds the resolver from validated config. Throws the signatures file's ConfigError (one line per
 * mistake) when the file does not validate.
 */
export function createSignatureResolverFromConfig(
  config: Config,
  upstream: Pick<Upstream, 'docBearer'>,
  log: Pick<Logger, 'debug' | 'info' | 'warn'>,
  options: ResolverFromConfigOptions = {},
): SignatureResolver {
  const sources: SignatureSource[] = [];
  if (config.signaturesFile !== undefined) {
    const table = loadOverridesFile(config.signaturesFile);
    const methods = [...table.values()].reduce((n, m) => n + m.size, 0);
    log.info({ file: config.signaturesFile, models: table.size, methods }, 'signatures file loaded');
    sources.push(createOverridesSource(table));
  }
  const keys = config.serviceKey;
  log.info(
    { ttlMs: config.signatureTtlMs },
    keys === undefined
      ? "signature discovery through /doc-bearer is on with each caller's own key (no --service-key)"
      : "signature discovery through /doc-bearer is on: the database's service key, else each caller's own key",
  );
  const fetchDoc = (db: string, model: string, key: string, etag: string | undefined, origin: CallOrigin | undefined) =>
    upstream.docBearer({ db, key, model, etag }, discoveryOrigin(origin, config.callTimeoutMs));
  sources.push(
    createDiscoverySource({ fetchDoc, serviceKeyFor: (db) => keys?.keyFor(db), ttlMs: config.signatureTtlMs, log, now: options.now }),
  );
  const upstreamSeries = options.serie;
  const changes = createUpstreamChanges({
    onChange(db, model, method, change) {
      log.warn(
        { db, model, method, evidence: change.evidence, change: change.what },
        "the upstream changed a method since Odoo 19.0: legacy calls to it are answered through its successor or refused, never bound to the upstream's other parameters",
      );
    },
  });
  return createSignatureResolver({ sources, changes, ...(upstreamSeries === undefined ? {} : { upstreamSeries }) });
}
