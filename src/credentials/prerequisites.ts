/**
 * The upstream prerequisites of minting (docs/architecture.md §5 step 9, Odoo: `res_users.py` `authenticate`): a system user's web
 * login rewrites `web.base.url` unless `web.base.url.freeze` is set, so at start the gateway reads
 * that parameter in each database it has a service key for and warns where it is not set.
 * (`proxy_mode`, which makes Odoo's per-address login cooldown see each client, cannot be read over
 * the API: README only.)
 */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { LegacyError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Upstream } from '../upstream/index.ts';
import { isTruthy, struct } from '../value.ts';

/** The databases the service keys are for: each `db=key` entry's, and `--service-db` for a bare key. */
function checkedDatabases(config: Config): string[] {
  const keys = config.serviceKey;
  if (keys === undefined) return [];
  const dbs = [...keys.databases];
  if (config.serviceDb !== undefined && !dbs.includes(config.serviceDb)) dbs.push(config.serviceDb);
  return dbs;
}

/** Checks what the service keys can check, in each of their databases, logging one line per finding. Never throws. */
export async function checkUpstreamPrerequisites(config: Config, upstream: Upstream, log: Logger): Promise<void> {
  if (config.serviceKey === undefined) {
    log.debug('upstream prerequisites not checked: no --service-key');
    return;
  }
  const dbs = checkedDatabases(config);
  if (dbs.length === 0) {
    log.info('upstream prerequisites not checked: set --service-db to the database of the service key');
    return;
  }
  await Promise.all(dbs.map((db) => checkDatabase(config, upstream, log, db, config.serviceKey?.keyFor(db) as string)));
}

async function checkDatabase(config: Config, upstream: Upstream, log: Logger, db: string, key: string): Promise<void> {
  const origin: CallOrigin = {
    host: '',
    ip: '127.0.0.1',
    proto: 'http',
    userAgent: '',
    requestId: 'startup',
    signal: AbortSignal.timeout(config.callTimeoutMs),
  };
  try {
    const body = struct({ key: 'web.base.url.freeze', default: false });
    const value = await upstream.json2({ db, key, model: 'ir.config_parameter', method: 'get_param', body }, origin);
    if (isTruthy(value)) {
      log.info({ db }, 'upstream prerequisite met: web.base.url.freeze is set');
      return;
    }
    log.warn(
      { db },
      'web.base.url.freeze is not set upstream: every password login of a system user through the gateway (to mint an API key) ' +
        "rewrites web.base.url to the gateway's address. Set the system parameter web.base.url.freeze to True (docs/first-run.md: Upstream prerequisites).",
    );
  } catch (err) {
    const why = err instanceof LegacyError ? `${err.name}: ${err.message.split('\n')[0]}` : 'unexpected error';
    log.warn(
      { db, why },
      'could not check web.base.url.freeze with the service key (it needs a system user); set it upstream by hand (docs/first-run.md: Upstream prerequisites)',
    );
  }
}
