/**
 * The Odoo 19 simulator (design §7): an in-memory HTTP server answering the JSON-2 API and the
 * version routes like Odoo 19.0, seeded from `fixtures/odoo-data/`. Used by tests, the conformance
 * runner, benchmarks and the demo command; never the gateway's default upstream.
 */
import type { Server } from 'node:http';
import { buildDatabase } from './database-build.ts';
import type { Database } from './database.ts';
import { listen, portOf, type RecordedRequest, type ServerState } from './http-server.ts';
import { KeyStore } from './key-store.ts';
import { loadSeed } from './seed.ts';

export type { RecordedRequest } from './http-server.ts';
export { KeyStore, type ApiKeyRecord, type NewApiKey } from './key-store.ts';
export { notModelled, type NotModelled } from './not-modelled.ts';

export interface SimulatorOptions {
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
   * Most requests kept in `log` (the oldest are dropped). Default 100 000, so a long benchmark run
   * does not grow the process without bound; 0 keeps none.
   */
  logLimit?: number;
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
  /** The key store shared by all databases (add keys with an expiry, remove keys). */
  keys: KeyStore;
  /** Database names, in creation order. */
  databases(): string[];
}

function validateOptions(opts: SimulatorOptions): Required<SimulatorOptions> {
  const databases = opts.databases ?? ['demo'];
  if (!Array.isArray(databases) || databases.length === 0) throw new Error('databases must list at least one name');
  for (const name of databases) if (typeof name !== 'string' || name === '') throw new Error(`invalid database name ${JSON.stringify(name)}`);
  if (new Set(databases).size !== databases.length) throw new Error('databases must not repeat a name');
  const generatedPartners = opts.generatedPartners ?? 0;
  if (!Number.isInteger(generatedPartners) || generatedPartners < 0) {
    throw new Error(`generatedPartners must be a non-negative integer, got ${generatedPartners}`);
  }
  const logLimit = opts.logLimit ?? 100_000;
  if (!Number.isInteger(logLimit) || logLimit < 0) throw new Error(`logLimit must be a non-negative integer, got ${logLimit}`);
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port must be 0..65535, got ${port}`);
  return { host: opts.host ?? '127.0.0.1', port, databases, generatedPartners, now: opts.now ?? (() => new Date()), logLimit };
}

function buildAll(options: Required<SimulatorOptions>): Map<string, Database> {
  const seed = loadSeed();
  const now = options.now();
  return new Map(
    options.databases.map((name) => [name, buildDatabase(name, seed, { generatedPartners: options.generatedPartners, now })]),
  );
}

/** Seeds the databases, generates one API key per active user, and starts listening. */
export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const options = validateOptions(opts);
  const keys = new KeyStore(options.now);
  const state: ServerState = {
    databases: buildAll(options),
    keys,
    methods: loadSeed().methods,
    now: options.now,
    log: [],
    logLimit: options.logLimit,
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
      keys.restore();
    },
    databases: () => [...state.databases.keys()],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
