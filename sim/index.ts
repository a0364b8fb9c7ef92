/**
 * The Odoo 19 simulator (docs/architecture.md §7): an in-memory HTTP server answering the JSON-2 API, the version
 * routes, the web session routes (key minting) and the database manager (`/web/database/*`) like
 * Odoo 19.0, seeded from `fixtures/odoo-data/`. Used by tests, the conformance
 * runner, benchmarks and the demo command; never the gateway's default upstream.
 */
import type { Server } from 'node:http';
import { parseJson } from '../src/json/index.ts';
import { configParameters, parameterWriteDates } from './orm/config-parameters.ts';
import { buildDatabase, withoutFields } from './manager/database-build.ts';
import type { Database } from './orm/database.ts';
import { docsFor } from './http/doc-bearer-docs.ts';
import { listen, portOf, type RecordedRequest, type ServerState } from './http-server.ts';
import { KeyStore } from './auth/key-store.ts';
import { methodTableFor, personaMethodTable, withoutMethods } from './methods/method-specs.ts';
import { withCustomSpecs } from './methods/custom.ts';
import { loadSeed } from './seed.ts';
import { SessionStore } from './auth/sessions.ts';
import { sessionToken } from './http/web-session-routes.ts';
import { formatDatetime } from './clock.ts';
import type { Row } from './orm/model.ts';
import type { LegacyEndpointSettings } from './legacy/route.ts';
import type { Perturbation } from './legacy/xmlrpc-write.ts';
import { createTransfers, type TransferControl } from './http/transfer-routes.ts';
import type { DatabaseManagerSettings } from './manager/web-database-routes.ts';
import { personaOf, type Series } from './persona.ts';
import { setModuleState, setRpcConfig } from './rpc-helper.ts';

export type { RecordedRequest } from './http-server.ts';
export { KeyStore, type ApiKeyRecord, type NewApiKey } from './auth/key-store.ts';
export { notModelled, type NotModelled } from './not-modelled.ts';
export type { DatabaseManagerSettings } from './manager/web-database-routes.ts';
export type { LegacyEndpointSettings } from './legacy/route.ts';
export { personas, seriesNames, type Persona, type Series } from './persona.ts';
export type { Perturbation } from './legacy/xmlrpc-write.ts';

export interface SimulatorOptions {
  /**
   * The Odoo series to play (`sim/persona.ts`): `19.0` (default), `saas-19.1` for Odoo Online's
   * saas-19.x — no legacy `db` service, the rewritten database manager, programmatic API keys, the
   * old `read_group` and check-access methods gone — or `20.0`: saas-19.1's changes, the new
   * `read_group` answering tuples, `ir.access` instead of `ir.model.access` / `ir.rule`.
   */
  series?: Series;
  /** Interface to bind. Default `127.0.0.1`: the simulator is a local test double. */
  host?: string;
  /** TCP port; default 0 picks a free one (read it back from `port`). */
  port?: number;
  /** Database names, all seeded alike. Default `['demo']` (one database: no header needed). */
  databases?: string[];
  /** Extra synthetic `res.partner` rows per database, for benchmarks. Default 0. */
  generatedPartners?: number;
  /** The clock for create/write dates and key expiry. Default: the real time. */
  now?: () => Date;
  /**
   * PostgreSQL's clock where Odoo reads it rather than its own: an API key's `create_date` and the
   * expiry check (`expiration_date >= now() at time zone 'utc'`); the wizard still computes the expiry
   * by `now` (Odoo's clock). Default: `now`. Set apart to model an Odoo host whose clock lags its database's.
   */
  databaseNow?: () => Date;
  /**
   * Most requests kept in `log` (the oldest are dropped). Default 100 000, so a long benchmark run
   * does not grow the process without bound; 0 keeps none.
   */
  logLimit?: number;
  /**
   * The later 19.0 build (19.0-20260402): public `res.users.apikeys.generate` / `revoke` with their
   * rules (Odoo: `res_users.py` `res.users.apikeys.generate` (later builds)). Default false (true for `saas-19.1`): the recorded build,
   * which answers 404 for both.
   */
  laterBuild?: boolean;
  /** Logins that have two-factor authentication (TOTP) enabled, in every database. Default none. */
  totpLogins?: string[];
  /** Odoo's `proxy_mode` setting: X-Forwarded-Host/-Proto make the request's URL root. Default false. */
  proxyMode?: boolean;
  /**
   * How long a web login's password check takes, in ms (Odoo's pbkdf2-sha512 at 600,000 rounds: a few
   * hundred ms), its transaction open meanwhile, so that logins can overlap and PostgreSQL's rule
   * for concurrent writes applies to them (`sim/auth/login-policy.ts`). Default 0: a login is instant.
   */
  passwordCheckMs?: number;
  /** System parameters (`ir.config_parameter`) every database starts with. Default none. */
  configParameters?: Record<string, string>;
  /**
   * The database manager (`/web/database/*`): master password (default `admin`, the unprotected
   * state), `enabled: false` for `--no-database-list`, the later versions' rename route, and
   * generated filestore bytes in every backup (benchmarks). Defaults: Odoo 19.0's.
   */
  databaseManager?: Partial<Omit<DatabaseManagerSettings, 'failBackupsAfter'>>;
  /**
   * Serve the legacy endpoints (`/xmlrpc`, `/xmlrpc/2`, `/jsonrpc`) from the simulator's own model
   * layer and its own XML-RPC/JSON-RPC encoding (`sim/legacy/`), for shadow-mode tests. Default
   * false: they answer 404, so the gateway's own tests can never be answered by them.
   * `removedServices` answers those services as unknown (a later Odoo); `perturb` writes one answer
   * type wrongly.
   */
  legacyEndpoints?: boolean | { removedServices?: string[]; perturb?: Perturbation };
  /**
   * Public methods a later Odoo removed: `read_group` (from every model) or `model.method`. JSON-2
   * (and the web session's call_kw) answer them as any unknown method. Default: the series' own list
   * (on 20.0, `read_group` is the new method unless listed here).
   */
  removedMethods?: string[];
}

/** A seeded user with the credentials a client needs. */
export interface SimUser {
  uid: number;
  login: string;
  password: string;
  /** The 40-hex API key generated for this user at start. */
  key: string;
  name: string;
}

export interface Simulator {
  /** `http://host:port` */
  url: string;
  port: number;
  close(): Promise<void>;
  /** Seeded users that were active at start (they hold a key), with their password and API key. */
  users(db: string): SimUser[];
  /** The API key of a seeded user; throws for an unknown database or login. */
  keyFor(db: string, login: string): string;
  /** Every HTTP request received, oldest first. */
  log: RecordedRequest[];
  clearLog(): void;
  /** Back to a freshly seeded state (same databases, same initial keys). */
  reset(): void;
  /** The key store of all databases (add keys with an expiry, remove keys; a key a test adds is in every database). */
  keys: KeyStore;
  /** Database names, in creation order. */
  databases(): string[];
  /** What `/doc-bearer` documents (tests change a signature the way a module upgrade would). */
  docBearer: DocBearerControl;
  /** Users and system parameters. */
  control: SimulatorControl;
  /** The database manager's live settings (master password, rename route, failing backups…); tests change them. */
  databaseManager: DatabaseManagerSettings;
  /** The streaming test routes (`/sim/upload`, `/sim/download`): wait for upload progress, release held downloads. */
  transfers: TransferControl;
  /** The legacy endpoints' live settings (on/off, removed services, the perturbation switch). */
  legacyEndpoints: LegacyEndpointSettings;
}

/** The test API of the `/doc-bearer` routes. */
export interface DocBearerControl {
  /**
   * Adds or replaces (`doc`, plain JSON data shaped like a `/doc-bearer` method entry) or removes
   * (`undefined`) one method's documentation in `db`; every ETag of `db` changes. What JSON-2 runs
   * is not changed. Throws for an unknown database.
   */
  setMethod(db: string, model: string, method: string, doc: unknown): void;
}

/** How a write to a session-token field meets a concurrent session check. */
export interface WriteRace {
  racedByCheck?: boolean;
}

/** The test API of users and system parameters. */
export interface SimulatorControl {
  /**
   * Changes a user's password in `db` (as the user would in Preferences: the user's `write_date`
   * moves); throws for unknown names. `racedByCheck`: a `check_session` ran inside the writing
   * transaction, so every open session of the user keeps passing the check (Odoo 19.0's race,
   * docs/security.md) while the new password and `write_date` are visible.
   */
  setPassword(db: string, login: string, password: string, opts?: WriteRace): void;
  /** Turns on two-factor authentication for `login` (its `totp_secret` written in every database: `write_date` moves). */
  enableTotp(login: string, opts?: WriteRace): void;
  /** Sets (or, with `undefined`, removes) a system parameter of `db`. */
  setConfigParameter(db: string, key: string, value: string | undefined): void;
  /** A system parameter of `db` and when a login last wrote it (`undefined`: not since the start). */
  configParameter(db: string, key: string): { value: string | undefined; writtenAt: Date | undefined };
  /** Forgets every web session, as Odoo does when its session store is emptied (session GC, a new data_dir). */
  dropSessions(): void;
  /** Sets a module's `ir.module.module` state in `db` (`installed`, `uninstalled`): `rpc_helper` (sim/rpc-helper.ts). */
  setModuleState(db: string, module: string, state: string): void;
  /** rpc_helper's `ir.model.rpc_config_edit` of `model` in `db` (a JSON text, or false). */
  setRpcConfig(db: string, model: string, text: string | false): void;
}

function validateOptions(opts: SimulatorOptions): Required<SimulatorOptions> {
  const databases = opts.databases ?? ['demo'];
  if (!Array.isArray(databases) || databases.length === 0) throw new Error('databases must list at least one name');
  for (const name of databases)
    if (typeof name !== 'string' || name === '') throw new Error(`invalid database name ${JSON.stringify(name)}`);
  if (new Set(databases).size !== databases.length) throw new Error('databases must not repeat a name');
  const generatedPartners = opts.generatedPartners ?? 0;
  if (!Number.isInteger(generatedPartners) || generatedPartners < 0) {
    throw new Error(`generatedPartners must be a non-negative integer, got ${generatedPartners}`);
  }
  const logLimit = opts.logLimit ?? 100_000;
  if (!Number.isInteger(logLimit) || logLimit < 0) throw new Error(`logLimit must be a non-negative integer, got ${logLimit}`);
  const passwordCheckMs = opts.passwordCheckMs ?? 0;
  if (!Number.isFinite(passwordCheckMs) || passwordCheckMs < 0)
    throw new Error(`passwordCheckMs must be 0 or more, got ${passwordCheckMs}`);
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port must be 0..65535, got ${port}`);
  const persona = personaOf(opts.series ?? '19.0');
  return {
    series: persona.series,
    host: opts.host ?? '127.0.0.1',
    port,
    databases,
    generatedPartners,
    now: opts.now ?? (() => new Date()),
    databaseNow: opts.databaseNow ?? opts.now ?? (() => new Date()),
    logLimit,
    laterBuild: opts.laterBuild ?? persona.programmaticApiKeys,
    totpLogins: opts.totpLogins ?? [],
    proxyMode: opts.proxyMode ?? false,
    passwordCheckMs,
    configParameters: opts.configParameters ?? {},
    databaseManager: opts.databaseManager ?? {},
    legacyEndpoints: opts.legacyEndpoints ?? false,
    removedMethods: opts.removedMethods ?? [...persona.removedMethods],
  };
}

/** The legacy endpoints' settings at start. */
function initialLegacy(option: SimulatorOptions['legacyEndpoints']): LegacyEndpointSettings {
  if (option === undefined || typeof option === 'boolean')
    return { enabled: option === true, removedServices: new Set(), perturb: undefined };
  return { enabled: true, removedServices: new Set(option.removedServices ?? []), perturb: option.perturb };
}

/** The database manager's settings at start (and after `reset()`). */
function initialManager(options: Required<SimulatorOptions>): DatabaseManagerSettings {
  const padding = options.databaseManager.backupPadding ?? 0;
  if (!Number.isInteger(padding) || padding < 0) throw new Error(`backupPadding must be a non-negative integer, got ${padding}`);
  return {
    masterPassword: options.databaseManager.masterPassword ?? 'admin',
    enabled: options.databaseManager.enabled ?? true,
    renameRoute: options.databaseManager.renameRoute ?? personaOf(options.series).databaseManager === 'modules-db',
    backupPadding: padding,
    failBackupsAfter: undefined,
  };
}

/** The method table the series serves over `methods` (the seed's, or with the custom methods). */
function servedMethods(options: Required<SimulatorOptions>, methods: ReturnType<typeof loadSeed>['methods']) {
  const table = personaMethodTable(methodTableFor(methods, options.laterBuild), personaOf(options.series));
  return withoutMethods(table, options.removedMethods);
}

/** Builds one seeded database (at start, and for the database manager's create and restore). */
function databaseBuilder(options: Required<SimulatorOptions>): (name: string) => Database {
  const seed = loadSeed();
  // every model of the served method table exists (ir.config_parameter included, ir.access on 20.0)
  const served = { ...seed, methods: servedMethods(options, seed.methods) };
  const persona = personaOf(options.series);
  return (name) => {
    const db = buildDatabase(name, served, { generatedPartners: options.generatedPartners, now: options.now() });
    withoutFields(db, persona.removedFields);
    // `_default_parameters` at database creation: the base URL of Odoo's own port
    configParameters(db).set('web.base.url', 'http://localhost:8069');
    for (const [key, value] of Object.entries(options.configParameters)) configParameters(db).set(key, value);
    return db;
  };
}

function buildAll(options: Required<SimulatorOptions>): Map<string, Database> {
  const build = databaseBuilder(options);
  return new Map(options.databases.map((name) => [name, build(name)]));
}

/** Seeds the databases, generates one API key per active user, and starts listening. */
export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const options = validateOptions(opts);
  // the key store is in the database: its create dates and expiry checks are PostgreSQL's clock
  const keys = new KeyStore(options.databaseNow, () => [...state.databases.keys()]);
  const totpLogins = new Set(options.totpLogins); // enableTotp adds to it
  const state: ServerState = {
    databases: buildAll(options),
    keys,
    methods: servedMethods(options, withCustomSpecs(loadSeed().methods)),
    docs: new Map(),
    sessions: new SessionStore(),
    laterBuild: options.laterBuild,
    totpLogins,
    proxyMode: options.proxyMode,
    passwordCheckMs: options.passwordCheckMs,
    now: options.now,
    log: [],
    logLimit: options.logLimit,
    manager: initialManager(options),
    // the series' surface, with the removed methods the options chose (`/doc-bearer` lists the others)
    persona: { ...personaOf(options.series), removedMethods: options.removedMethods },
    buildDatabase: databaseBuilder(options),
    transfers: createTransfers(),
    legacy: initialLegacy(options.legacyEndpoints),
  };
  const initialKeys = new Map<number, string>();
  const first = [...state.databases.values()][0] as Database;
  for (const user of first.model('res.users')?.rows.values() ?? []) {
    if (user.v.active !== true) continue;
    initialKeys.set(user.id, keys.add({ uid: user.id, name: `simulator-${String(user.v.login)}` }).key);
  }
  keys.freeze();
  const server: Server = await listen(state, options.host, options.port);
  const port = portOf(server);
  const dbOf = (name: string): Database => {
    const db = state.databases.get(name);
    if (db === undefined) throw new Error(`unknown database ${JSON.stringify(name)}`);
    return db;
  };
  const users = (name: string): SimUser[] => {
    const db = dbOf(name);
    const out: SimUser[] = [];
    for (const row of db.model('res.users')?.rows.values() ?? []) {
      const key = initialKeys.get(row.id);
      if (key === undefined) continue;
      const login = String(row.v.login);
      out.push({ uid: row.id, login, password: db.passwords.get(row.id) ?? login, key, name: String(row.v.name) });
    }
    return out;
  };
  /**
   * A `write()` to a session-token field of `user`: the change, `write_date`, and the cache cleared
   * inside the transaction; with `racedByCheck`, a check in that window cached the old token.
   */
  const writeTokenField = (users: { db: Database; user: Row }[], opts: WriteRace | undefined, change: () => void): void => {
    const before = users.flatMap(({ db, user }) =>
      state.sessions.ofUser(db.name, user.id).map((s) => [s.sid, sessionToken(db, user.id, totpLogins)] as const),
    );
    change();
    for (const { user } of users) user.v.write_date = formatDatetime(state.now());
    state.sessions.clearTokenCache();
    if (opts?.racedByCheck === true) for (const [sid, token] of before) state.sessions.cacheStaleToken(sid, token);
  };
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
    log: state.log,
    keys,
    users,
    keyFor(name, login) {
      const user = users(name).find((u) => u.login === login);
      if (user === undefined) throw new Error(`no seeded user ${JSON.stringify(login)} with a key in ${name}`);
      return user.key;
    },
    clearLog: () => void state.log.splice(0),
    reset() {
      state.databases = buildAll(options);
      Object.assign(state.manager, initialManager(options));
      state.docs.clear();
      state.sessions.clear();
      totpLogins.clear();
      for (const login of options.totpLogins) totpLogins.add(login);
      keys.restore();
    },
    databases: () => [...state.databases.keys()],
    docBearer: {
      setMethod(name, model, method, doc) {
        dbOf(name);
        docsFor(state, name).setMethod(model, method, doc === undefined ? undefined : parseJson(JSON.stringify(doc)));
      },
    },
    databaseManager: state.manager,
    transfers: state.transfers,
    legacyEndpoints: state.legacy,
    control: {
      setPassword(name, login, password, opts) {
        const db = dbOf(name);
        const user = [...(db.model('res.users')?.rows.values() ?? [])].find((u) => u.v.login === login);
        if (user === undefined) throw new Error(`no user ${JSON.stringify(login)} in ${name}`);
        writeTokenField([{ db, user }], opts, () => db.passwords.set(user.id, password));
      },
      enableTotp(login, opts) {
        const found = [...state.databases.values()].flatMap((db) =>
          [...(db.model('res.users')?.rows.values() ?? [])].filter((u) => u.v.login === login).map((user) => ({ db, user })),
        );
        if (found.length === 0) throw new Error(`no user ${JSON.stringify(login)}`);
        writeTokenField(found, opts, () => totpLogins.add(login));
      },
      dropSessions() {
        state.sessions.clear();
      },
      configParameter(name, key) {
        const db = dbOf(name);
        return { value: configParameters(db).get(key), writtenAt: parameterWriteDates(db).get(key) };
      },
      setModuleState(name, module, moduleState) {
        setModuleState(dbOf(name), state.methods, module, moduleState);
      },
      setRpcConfig(name, model, text) {
        setRpcConfig(dbOf(name), model, text);
      },
      setConfigParameter(name, key, value) {
        const params = configParameters(dbOf(name));
        if (value === undefined) params.delete(key);
        else params.set(key, value);
      },
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
        state.transfers.closeUpgraded();
      }),
  };
}
