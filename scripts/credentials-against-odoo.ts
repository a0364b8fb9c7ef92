/**
 * Opt-in (needs a real Odoo 19; never part of `npm test`): the credential attacks (stolen passwords, revoked keys, guessing, path tricks)
 * tried through the gateway against a real Odoo, with the figures README's Security section and BENCHMARKS.md quote.
 *
 * 1. A changed password while its holder keeps the throttle armed (wrong passwords for the same
 *    login from the same address every 250 ms): how long after the change the old one is refused.
 * 2. 40 parallel wrong guesses for one login from one address: how many upstream logins they make.
 * 3. A credential in steady use for 20 s: how many session checks (and logins) confirm its password.
 *
 * It creates two users of its own (`<prefix>a`, `<prefix>b`) with the admin's password and deletes
 * them at the end. Odoo counts failed logins per address (5, then 60 s of cooldown for everyone from
 * that address on that database): the gateway runs with `--throttle-failures 2` and a successful
 * login is made before each batch of failures, so the script never trips it.
 *
 *   npx tsx scripts/credentials-against-odoo.ts --upstream http://127.0.0.1:8069 --db gw --admin-password admin [--prefix issue20]
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startGateway, type RunningGateway } from '../src/server/gateway.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    db: { type: 'string' },
    'admin-password': { type: 'string' },
    prefix: { type: 'string', default: 'issue20' },
  },
});
if (values.db === undefined || values['admin-password'] === undefined) throw new Error('--db and --admin-password are required');
const db = values.db;
const adminPassword = values['admin-password'];
const upstream = values.upstream;

type Envelope = { result?: unknown; error?: { data?: { name?: string; message?: string } } };

async function jsonrpc(base: string, service: string, method: string, args: unknown[]): Promise<Envelope> {
  const res = await fetch(`${base}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args } }),
  });
  return (await res.json()) as Envelope;
}

/** A call straight to Odoo as its admin (uid 2): user set-up and password changes. */
const asAdmin = (model: string, method: string, args: unknown[]) =>
  jsonrpc(upstream, 'object', 'execute_kw', [db, 2, adminPassword, model, method, args]);

async function gateway(): Promise<RunningGateway> {
  return startGateway(
    loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstream, '--throttle-failures', '2', '--throttle-backoff', '60000'], {}),
    createLogger('silent'),
  );
}

async function metric(g: RunningGateway, prefix: string): Promise<number> {
  const text = await (await fetch(`${g.adminUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith(prefix))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

async function userId(login: string, password: string): Promise<number> {
  const found = (await asAdmin('res.users', 'search', [[['login', '=', login]]])).result as number[];
  if (found.length > 0) {
    await asAdmin('res.users', 'write', [found, { password }]);
    return found[0] as number;
  }
  return (await asAdmin('res.users', 'create', [{ name: login, login, password }])).result as number;
}

/** Attack 1: seconds from the password change to the first refusal of the old password. */
async function changedPassword(login: string, uid: number, changeAfterMs: number): Promise<string> {
  await userId(login, 'old-password-20');
  const g = await gateway();
  try {
    if ((await jsonrpc(g.url, 'common', 'login', [db, login, 'old-password-20'])).result !== uid) return 'login refused';
    const started = Date.now();
    let changedAt: number | undefined;
    let servedAfter = 0;
    while (Date.now() - started < 20_000) {
      for (const i of [1, 2]) await jsonrpc(g.url, 'common', 'login', [db, login, `wrong-${i}`]);
      if (changedAt === undefined && Date.now() - started >= changeAfterMs) {
        await asAdmin('res.users', 'write', [[uid], { password: 'new-password-20' }]);
        changedAt = Date.now();
      }
      const out = await jsonrpc(g.url, 'object', 'execute_kw', [db, uid, 'old-password-20', 'res.users', 'context_get', []]);
      if (changedAt !== undefined) {
        if (out.error !== undefined)
          return `refused ${((Date.now() - changedAt) / 1000).toFixed(2)} s after the change (served ${servedAfter} times after it; ${out.error.data?.message})`;
        servedAfter++;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return 'NOT refused within 20 s';
  } finally {
    await jsonrpc(upstream, 'common', 'login', [db, login, 'new-password-20']); // resets Odoo's per-address count
    await g.close();
  }
}

/** Attack 2: upstream logins made by 40 parallel wrong guesses. */
async function parallelGuesses(login: string): Promise<string> {
  const g = await gateway();
  try {
    await jsonrpc(upstream, 'common', 'login', [db, login, 'right-password-20']);
    const before = await metric(g, 'legacy_rpc_gateway_key_exchanges_total');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => jsonrpc(g.url, 'common', 'login', [db, login, `guess-${i}`])));
    const logins = (await metric(g, 'legacy_rpc_gateway_key_exchanges_total')) - before;
    return `answers ${JSON.stringify([...new Set(answers.map((a) => a.result))])}, upstream logins ${logins} (limit 2)`;
  } finally {
    await jsonrpc(upstream, 'common', 'login', [db, login, 'right-password-20']);
    await g.close();
  }
}

/** Cost: session checks and logins that keep one credential in steady use confirmed for 20 s. */
async function steadyUse(login: string, uid: number): Promise<string> {
  const g = await gateway();
  try {
    await jsonrpc(g.url, 'common', 'login', [db, login, 'right-password-20']);
    const webBefore = await metric(g, 'legacy_rpc_gateway_upstream_request_duration_seconds_count{route="web_session"');
    const mintsBefore = await metric(g, 'legacy_rpc_gateway_key_exchanges_total');
    const latencies: number[] = [];
    const errors: string[] = [];
    const started = Date.now();
    while (Date.now() - started < 20_000) {
      const t = performance.now();
      const out = await jsonrpc(g.url, 'object', 'execute_kw', [db, uid, 'right-password-20', 'res.users', 'context_get', []]);
      latencies.push(performance.now() - t);
      if (out.error !== undefined) errors.push(out.error.data?.message ?? 'error');
      await new Promise((r) => setTimeout(r, 50));
    }
    await g.credentials.settled();
    const checks = (await metric(g, 'legacy_rpc_gateway_upstream_request_duration_seconds_count{route="web_session"')) - webBefore;
    const mints = (await metric(g, 'legacy_rpc_gateway_key_exchanges_total')) - mintsBefore;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => (latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] as number).toFixed(1);
    return `${latencies.length} calls in 20 s (p50 ${at(0.5)} ms, p99 ${at(0.99)} ms): ${checks} web-session requests (session checks), ${mints} logins${errors.length === 0 ? '' : `; ${errors.length} calls failed (${[...new Set(errors)].join('; ')})`}`;
  } finally {
    await g.close();
  }
}

async function main(): Promise<void> {
  const a = `${values.prefix}a`;
  const b = `${values.prefix}b`;
  const uidA = await userId(a, 'old-password-20');
  const uidB = await userId(b, 'right-password-20');
  try {
    for (const ms of [2600, 3900, 5200])
      console.log(`changed password, throttle kept armed, change after ${ms} ms: ${await changedPassword(a, uidA, ms)}`);
    console.log(`steady use: ${await steadyUse(b, uidB)}`);
    console.log(`40 parallel wrong guesses: ${await parallelGuesses(b)}`);
  } finally {
    // users with records of their own cannot be deleted: archived then
    if ((await asAdmin('res.users', 'unlink', [[uidA, uidB]])).error !== undefined)
      await asAdmin('res.users', 'write', [[uidA, uidB], { active: false }]);
  }
}

await main();
