/**
 * Opt-in (needs a real Odoo 19; never part of `npm test`): what a gateway's first run changes in
 * Odoo. `web.base.url` and its write date are read natively (XML-RPC, a read) before and after the
 * gateway's first password login of the admin, made through a gateway started for the purpose.
 * Use a database copy of your own: the admin's password login is real.
 *
 *   npx tsx scripts/first-run-against-odoo.ts --upstream http://127.0.0.1:8069 --db gw_copy --admin-password admin [--service-key KEY]
 *
 * `--restarts N`: instead, N gateway runs, each started, used for one admin password call
 * (`common.authenticate`) and stopped cleanly; then the admin's live keys named by the gateway,
 * counted natively (the key removal at each login keeps them bounded; docs/security.md).
 *
 * `--uid-only-db DB2` (a second copy): instead, admin logs in through one gateway run on `--db`; a
 * second run (a restart) is asked `execute_kw(DB2, 2, password, res.users.read)` without a login
 * there. With `--logins-file FILE` or `--redis-url URL` (keys written under a prefix of its own,
 * deleted at the end).
 *
 * `--web-login`: the logins (`--warm-login` too) are OdooRPC's, `POST /web/session/authenticate`
 * passed through the gateway, instead of `common.authenticate`; the gateway listens on another port
 * than Odoo, as in a trial beside it.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startGateway } from '../src/server/gateway.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    db: { type: 'string' },
    'admin-password': { type: 'string' },
    'service-key': { type: 'string' },
    'warm-login': { type: 'string' },
    restarts: { type: 'string' },
    'uid-only-db': { type: 'string' },
    'logins-file': { type: 'string' },
    'redis-url': { type: 'string' },
    'web-login': { type: 'boolean', default: false },
  },
});
if (values.db === undefined || values['admin-password'] === undefined) throw new Error('--db and --admin-password are required');
const db = values.db;
const adminPassword = values['admin-password'];

async function jsonrpc(base: string, service: string, method: string, args: unknown[]): Promise<{ result?: unknown; error?: unknown }> {
  const res = await fetch(`${base}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args } }),
  });
  return (await res.json()) as { result?: unknown; error?: unknown };
}

/** web.base.url and its write date, read natively. */
async function baseUrl(): Promise<unknown> {
  const out = await jsonrpc(values.upstream, 'object', 'execute_kw', [
    db,
    2,
    adminPassword,
    'ir.config_parameter',
    'search_read',
    [[['key', '=', 'web.base.url']]],
    { fields: ['value', 'write_date'] },
  ]);
  return out.result;
}

const flags = [
  '--port',
  '0',
  '--admin-port',
  '0',
  '--upstream',
  values.upstream,
  ...(values['service-key'] === undefined ? [] : ['--service-key', `${db}=${values['service-key']}`]),
];

/** One gateway run: started, `use`d, stopped cleanly. */
async function run<T>(extra: string[], use: (url: string) => Promise<T>): Promise<T> {
  const g = await startGateway(loadConfig([...flags, ...extra], {}), createLogger('silent'));
  try {
    return await use(g.url);
  } finally {
    await g.close();
  }
}

/** The admin's keys named by the gateway, read natively. */
async function gatewayKeys(): Promise<unknown[]> {
  const out = await jsonrpc(values.upstream, 'object', 'execute_kw', [
    db,
    2,
    adminPassword,
    'res.users.apikeys',
    'search_read',
    [
      [
        ['user_id', '=', 2],
        ['name', '=like', 'legacy-rpc-gateway %'],
      ],
    ],
    { fields: ['id', 'name', 'create_date'] },
  ]);
  return (out.result ?? []) as unknown[];
}

if (values.restarts !== undefined) {
  const before = (await gatewayKeys()).length;
  const answers: unknown[] = [];
  for (let i = 0; i < Number(values.restarts); i++) {
    answers.push(await run([], async (url) => (await jsonrpc(url, 'common', 'authenticate', [db, 'admin', adminPassword, {}])).result));
  }
  const left = await gatewayKeys();
  console.log(
    JSON.stringify({ restarts: Number(values.restarts), answers, gatewayKeysBefore: before, gatewayKeysAfter: left.length, keys: left }),
  );
  process.exit(0);
}

const second = values['uid-only-db'];
if (second !== undefined) {
  const redisPrefix = `lrg-first-run:${process.pid}:`;
  const store =
    values['redis-url'] !== undefined
      ? [
          '--redis-url',
          values['redis-url'],
          '--redis-prefix',
          redisPrefix,
          '--state-secret',
          'first-run-against-odoo-state-secret-32+chars',
        ]
      : values['logins-file'] !== undefined
        ? ['--logins-file', values['logins-file']]
        : [];
  const login = await run(store, async (url) => (await jsonrpc(url, 'common', 'login', [db, 'admin', adminPassword])).result);
  const read = await run(store, (url) =>
    jsonrpc(url, 'object', 'execute_kw', [second, 2, adminPassword, 'res.users', 'read', [[2], ['login']]]),
  );
  const wrongUid = await run(store, (url) =>
    jsonrpc(url, 'object', 'execute_kw', [second, 5, adminPassword, 'res.users', 'read', [[5], ['login']]]),
  );
  if (values['redis-url'] !== undefined) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(values['redis-url']);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    console.log(`removed ${keys.length} Redis keys under ${redisPrefix}`);
  }
  const fault = (a: { error?: unknown }) => (a.error as { data?: { message?: string } } | undefined)?.data?.message;
  console.log(
    JSON.stringify({
      store: store[0] ?? 'none',
      loginOnFirstDb: login,
      uidOnlyOnSecondDb: read.result ?? fault(read),
      otherUidSamePassword: wrongUid.result ?? fault(wrongUid),
    }),
  );
  process.exit(0);
}

/** OdooRPC's login through the gateway: the uid (or the error) `/web/session/authenticate` answered. */
async function webLogin(base: string, login: string, password: string): Promise<{ result?: unknown; error?: unknown }> {
  const res = await fetch(`${base}/web/session/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { db, login, password } }),
  });
  const out = (await res.json()) as { result?: { uid?: unknown }; error?: unknown };
  return out.error === undefined ? { result: out.result?.uid } : { error: out.error };
}

const logIn = (base: string, login: string, password: string) =>
  values['web-login'] ? webLogin(base, login, password) : jsonrpc(base, 'common', 'authenticate', [db, login, password, {}]);

const gateway = await startGateway(loadConfig(flags, {}), createLogger('silent'));
try {
  const before = await baseUrl();
  if (values['warm-login'] !== undefined) {
    const [login, password] = values['warm-login'].split(':');
    console.log('non-system login first:', JSON.stringify(await logIn(gateway.url, login!, password!)));
  }
  const answer = await logIn(gateway.url, 'admin', adminPassword);
  const after = await baseUrl();
  console.log(
    JSON.stringify({
      gateway: gateway.url,
      via: values['web-login'] ? '/web/session/authenticate' : 'common.authenticate',
      login: answer.result ?? answer.error,
      before,
      after,
      unchanged: JSON.stringify(before) === JSON.stringify(after),
    }),
  );
} finally {
  await gateway.close();
}
