/**
 * The start-up check of the upstream (docs/first-run.md): reachable, which Odoo version, JSON-2
 * answering, and with the service key `api_doc` installed and `web.base.url` / its freeze, logged
 * as one block, then one line per service-key database on whether the gateway's password logins
 * leave `web.base.url` as it is (a warning where they cannot). An unreachable upstream is asked
 * again (every `retryMs`, up to 30 s apart) until it answers; until then `/readyz` says why.
 * `proxy_mode` is Odoo's command-line setting and no API shows it: the block says so.
 */
import { ownCallOrigin, type CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { LegacyError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { isStruct, struct, type Value } from '../value.ts';
import type { Upstream } from './index.ts';
import type { UpstreamHttp } from './pool.ts';
import { jsonFromAnswer } from './errors/index.ts';
import { probeOtherScheme } from './scheme-probe.ts';
import { fetchVersionInfo } from './version.ts';
import { baseUrlHeaders } from './web-session.ts';

/** What the check found so far; `/readyz` is not ready while `reachable` is false. */
export interface StartupState {
  reachable: boolean;
  /** Why the upstream could not be used yet (while `reachable` is false). */
  reason?: string;
  version?: string;
  json2?: string;
  perDatabase?: Record<string, { apiDoc: string; baseUrl: string; baseUrlFreeze: string }>;
}

/** The check. */
export interface StartupCheck {
  state(): StartupState;
  /** Runs it in the background; resolves once the upstream answered and the block was logged, or `stop()` was called. */
  start(): Promise<void>;
  /**
   * While the upstream is not reachable yet: asks it again now rather than at the next retry, and
   * resolves once that attempt ended (at once when it is reachable, or the check not started), so
   * `/readyz` never shows an old reason once Odoo is back (a legacy call answered, a probe).
   */
  retryNow(): Promise<void>;
  stop(): void;
}

const ownOrigin = (config: Config): CallOrigin => ownCallOrigin('startup', AbortSignal.timeout(config.callTimeoutMs));

const describeError = (err: unknown) => (err instanceof LegacyError ? `${err.message.split('\n')[0]}` : 'unexpected error');

/**
 * A database to probe JSON-2 in, as calls name theirs: the first one a service key is for, else the
 * first the database manager lists (undefined when listing is off or fails).
 */
async function probeDatabase(http: UpstreamHttp, config: Config, known: readonly string[]): Promise<string | undefined> {
  if (known[0] !== undefined) return known[0];
  try {
    const res = await http.send(
      {
        method: 'POST',
        path: '/web/database/list',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","method":"call","params":{},"id":null}',
      },
      ownOrigin(config),
    );
    if (res.status !== 200) return undefined;
    const envelope = jsonFromAnswer(res, http.url, config.maxDepth);
    const list = isStruct(envelope) ? envelope.get('result') : undefined;
    return Array.isArray(list) && typeof list[0] === 'string' ? list[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * JSON-2 answers a key-less call with 401 (its bearer check); anything else means no JSON-2 there.
 * The call names a database as the gateway's calls do: an Odoo with several databases picks none
 * without one and answers its "No database is selected" 404, which tells nothing about JSON-2.
 */
async function json2Answers(http: UpstreamHttp, config: Config, known: readonly string[]): Promise<string> {
  const db = await probeDatabase(http, config, known);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (db !== undefined) for (const name of config.dbHeaders) headers[name.toLowerCase()] = db;
  const res = await http.send({ method: 'POST', path: '/json/2/res.users/context_get', headers, body: '{}' }, ownOrigin(config));
  const where = db === undefined ? '' : ` (database ${db})`;
  if (res.status === 401) return `yes${where}`;
  if (res.status === 404 && db === undefined && res.text.includes('No database is selected')) {
    return 'unknown (Odoo picks no database for a call that names none, and none is known here: give --service-key db=KEY to probe in one)';
  }
  return `no (POST /json/2 answered ${res.status}${where})`;
}

async function databaseFindings(
  config: Config,
  upstream: Upstream,
  db: string,
  key: string,
): Promise<{ apiDoc: string; baseUrl: string; baseUrlFreeze: string }> {
  const call = (model: string, method: string, body: Map<string, Value>) =>
    upstream.json2({ db, key, model, method, body }, ownOrigin(config));
  const param = async (name: string) => {
    try {
      const value = await call('ir.config_parameter', 'get_param', struct({ key: name, default: false }));
      return typeof value === 'string' && value !== '' ? value : 'not set';
    } catch (err) {
      return `not readable with the service key (${describeError(err)})`;
    }
  };
  let apiDoc: string;
  try {
    const rows = await call('ir.module.module', 'search_read', struct({ domain: [['name', '=', 'api_doc']], fields: ['state'] }));
    const row = Array.isArray(rows) ? rows[0] : undefined;
    apiDoc = row !== undefined && isStruct(row) ? String(row.get('state')) : 'not found';
  } catch (err) {
    apiDoc = `not readable with the service key (${describeError(err)})`;
  }
  return { apiDoc, baseUrl: await param('web.base.url'), baseUrlFreeze: await param('web.base.url.freeze') };
}

/** The databases the service keys are for: each `db=key` entry's, and `--service-db` for a bare key. */
function checkedDatabases(config: Config): string[] {
  const keys = config.serviceKey;
  if (keys === undefined) return [];
  const dbs = [...keys.databases];
  if (config.serviceDb !== undefined && !dbs.includes(config.serviceDb)) dbs.push(config.serviceDb);
  return dbs;
}

type Findings = NonNullable<StartupState['perDatabase']>[string];

/**
 * Whether the gateway's password logins in a database leave `web.base.url` as it is: a system user's
 * web login stores the request's URL root unless `web.base.url.freeze` is set, and the gateway makes
 * it at the root Odoo already has (web-session.ts `baseUrlHeaders`), which a root with a path cannot be.
 */
export function baseUrlFinding(f: Findings): { level: 'info' | 'warn'; msg: string } {
  const see = ' (docs/first-run.md step 1.4)';
  if (f.baseUrlFreeze.startsWith('not readable'))
    return {
      level: 'warn',
      msg:
        'could not read web.base.url and its freeze with the service key (it needs a system user): the gateway logs in at the URL ' +
        `the last login stated, or at --upstream before any; set web.base.url.freeze to True to be sure${see}`,
    };
  if (f.baseUrlFreeze !== 'not set') return { level: 'info', msg: 'web.base.url.freeze is set: logins leave web.base.url as it is' };
  if (f.baseUrl === 'not set')
    return {
      level: 'warn',
      msg: `web.base.url is not set: the first password login of a system user through the gateway stores Odoo's address as --upstream names it; set web.base.url, or web.base.url.freeze to True${see}`,
    };
  if (baseUrlHeaders(f.baseUrl) === undefined)
    return {
      level: 'warn',
      msg: `web.base.url ${f.baseUrl} cannot be the URL root of a login (a path, or not http(s)): every password login of a system user through the gateway (to mint an API key) rewrites it; set web.base.url.freeze to True${see}`,
    };
  return {
    level: 'info',
    msg: f.baseUrl.startsWith('https:')
      ? `web.base.url ${f.baseUrl}: the gateway's password logins and the web logins it passes through are made at it and leave it as it is, provided Odoo runs with proxy_mode (without it Odoo sees plain HTTP: set web.base.url.freeze to True)`
      : `web.base.url ${f.baseUrl}: the gateway's password logins and the web logins it passes through are made at it and leave it as it is`,
  };
}

/**
 * Without a service key the gateway knows no database's `web.base.url` until a login's session info
 * states it, and a system user's login made before that stores the URL root it was made at (#43
 * item 2, measured in docs/first-run.md): the start says so instead of "not checked" alone.
 */
export const unknownBaseUrlNotice =
  'web.base.url not known (no --service-key): until a non-system user has logged in through the gateway, the first ' +
  "login of a system user through it makes Odoo store the address that login was made at (--upstream's for the " +
  "gateway's own password login, the gateway's for a /web/session/authenticate passed through); give a service key, " +
  'or set web.base.url.freeze to True while trying the gateway beside Odoo (docs/first-run.md: Trying it beside Odoo)';

/**
 * Odoo 19 shows its `limit_time_real` on no route (only `odoo/service/server.py` reads it), so the
 * gateway cannot match it: the start-up block says what its own bound cuts, and how to match it.
 */
export function callTimeoutNotice(callTimeoutMs: number): string {
  const s = `${callTimeoutMs / 1000} s`;
  return (
    `not visible over the API; --call-timeout ${s} cuts a legacy call still running after ${s}, which Odoo would finish ` +
    `if its limit_time_real is longer (prefork workers; a threaded Odoo has no limit): set --call-timeout (CALL_TIMEOUT, ms) ` +
    `to Odoo's limit_time_real (docs/configuration.md)`
  );
}

/**
 * Creates the check (started by `start()`). `onVersionInfo` hears the upstream's `common.version()`
 * dict each time the check reads it (the version cache keeps it, so the series is known from start).
 */
export function createStartupCheck(
  config: Config,
  http: UpstreamHttp,
  upstream: Upstream,
  log: Logger,
  retryMs = 2000,
  onVersionInfo?: (info: Value) => void,
): StartupCheck {
  let current: StartupState = { reachable: false };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  // retryNow() callers waiting for the end of the next attempt
  let attempted: (() => void)[] = [];
  const attemptEnded = () => {
    const waiting = attempted;
    attempted = [];
    for (const resolve of waiting) resolve();
  };

  async function reach(): Promise<string | undefined> {
    try {
      const info = await fetchVersionInfo(http, config, ownOrigin(config));
      onVersionInfo?.(info);
      const version = isStruct(info) ? info.get('server_version') : undefined;
      return typeof version === 'string' ? version : 'unknown';
    } catch (err) {
      let reason = `upstream unreachable: ${describeError(err)}`;
      const other = await probeOtherScheme(config.upstream, Math.min(config.callTimeoutMs, 5000));
      if (other !== undefined) {
        const fixed = config.upstream.replace(/^https?:/, `${other}:`);
        reason = `scheme mismatch: --upstream ${config.upstream} says ${other === 'http' ? 'https' : 'http'}, but the upstream speaks ${other} there (set --upstream ${fixed})`;
      }
      current = { reachable: false, reason };
      return undefined;
    }
  }

  const run = async () => {
    let wait = retryMs;
    let version: string | undefined;
    for (let attempt = 1; !stopped; attempt++) {
      version = await reach();
      // reachable from now on (the findings below only add to it)
      if (version !== undefined) current = { reachable: true, version };
      attemptEnded();
      if (version !== undefined || stopped) break;
      if (attempt === 1 || attempt % 10 === 0)
        log.warn(
          { upstream: config.upstream, attempt, reason: current.reason },
          'upstream not usable yet; retrying (/readyz answers not ready meanwhile)',
        );
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, wait);
      });
      wait = Math.min(wait * 2, 30_000);
    }
    if (version === undefined || stopped) return;
    const json2 = await json2Answers(http, config, checkedDatabases(config)).catch((err: unknown) => `unknown (${describeError(err)})`);
    const perDatabase: NonNullable<StartupState['perDatabase']> = {};
    for (const db of checkedDatabases(config)) {
      const key = config.serviceKey?.keyFor(db);
      if (key !== undefined) perDatabase[db] = await databaseFindings(config, upstream, db, key);
    }
    current = { reachable: true, version, json2, perDatabase };
    const lines = [
      `upstream ${config.upstream}: reachable`,
      `  Odoo version: ${version}`,
      `  JSON-2 answering: ${json2}`,
      `  proxy_mode: not visible over the API; set it in Odoo when the gateway forwards client addresses (docs/first-run.md)`,
      `  limit_time_real: ${callTimeoutNotice(config.callTimeoutMs)}`,
      ...Object.entries(perDatabase).map(
        ([db, f]) => `  database ${db}: api_doc ${f.apiDoc}; web.base.url ${f.baseUrl}; web.base.url.freeze ${f.baseUrlFreeze}`,
      ),
      ...(Object.keys(perDatabase).length === 0
        ? ['  api_doc, web.base.url, web.base.url.freeze: not checked (no --service-key with a database name)']
        : []),
    ];
    log.info({ upstream: config.upstream, version, json2, databases: perDatabase }, lines.join('\n'));
    for (const [db, f] of Object.entries(perDatabase)) {
      const finding = baseUrlFinding(f);
      log[finding.level]({ db }, finding.msg);
    }
    // the demo's simulated Odoo is nobody's: its base URL is not worth a warning
    if (config.serviceKey === undefined && !config.demo) log.warn(unknownBaseUrlNotice);
  };

  let running: Promise<void> | undefined;
  return {
    state: () => current,
    start: () => (running ??= run()),
    retryNow() {
      if (current.reachable || running === undefined || stopped) return Promise.resolve();
      return new Promise<void>((resolve) => {
        attempted.push(resolve);
        if (timer !== undefined) clearTimeout(timer);
        wake?.();
      });
    },
    stop() {
      stopped = true;
      attemptEnded();
      if (timer !== undefined) clearTimeout(timer);
      wake?.();
    },
  };
}
