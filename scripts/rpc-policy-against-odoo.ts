/**
 * Opt-in (needs a real Odoo 19; never part of `npm test`): what a real Odoo 19.0 without rpc_helper
 * says to the gateway's look for RPC policy modules (src/legacy/rpc-policy.ts, docs/security.md
 * "RPC policy modules"). It checks that the look itself is a request Odoo 19.0 answers with an admin's
 * key (no module listed), that a non-administrator's key gets the AccessError the gateway reads as
 * "cannot know", and, through a gateway with the admin's service key, that `--calls` object calls
 * (reads and a create) are answered with one policy look in Odoo's log per database and 5 s.
 * rpc_helper itself is an OCA module the shared Odoo does not have: its refusals are checked against
 * the simulator only (test/integration/rpc-policy.test.ts).
 *
 * WRITES (partners, an API key per user): use a database copy of your own.
 *
 *   npx tsx scripts/rpc-policy-against-odoo.ts --db gw_copy [--calls 50] [--log /var/log/odoo19.log]
 */
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startGateway } from '../src/server/gateway.ts';
import { mintKey } from './mint-key.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    db: { type: 'string' },
    calls: { type: 'string', default: '50' },
    log: { type: 'string', default: '/var/log/odoo19.log' },
  },
});
if (values.db === undefined) throw new Error('--db is required (a database copy of your own: the check creates partners)');
const { upstream, db } = { upstream: values.upstream, db: values.db };
const calls = Number(values.calls);

const mint = (login: string, password: string) => mintKey(upstream, db, login, password, 'rpc-policy-against-odoo');

/** A `search_read` as rpc-policy.ts sends it. */
async function searchRead(key: string, model: string, domain: unknown[], fields: string[]): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${upstream}/json/2/${model}/search_read`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `bearer ${key}`, 'x-odoo-database': db },
    body: JSON.stringify({ domain, fields }),
  });
  return { status: res.status, body: await res.json() };
}

/** The gateway's first look: is rpc_helper loaded? */
const policyLook = (key: string) =>
  searchRead(
    key,
    'ir.module.module',
    [
      ['name', '=', 'rpc_helper'],
      ['state', 'in', ['installed', 'to upgrade', 'to remove']],
    ],
    ['state'],
  );

async function main(): Promise<void> {
  const adminKey = await mint('admin', 'admin');
  const demoKey = await mint('demo', 'demo');
  const admin = await policyLook(adminKey);
  const demo = await policyLook(demoKey);
  // the second look (ir.model, once rpc_helper is listed) with a non-administrator's key
  const demoModels = await searchRead(demoKey, 'ir.model', [['model', '=', 'res.partner']], ['model']);
  const demoModelsError = (demoModels.body as { name?: string }).name;
  console.log(`ir.model read, demo's key: ${demoModels.status} ${demoModelsError}`);
  console.log(`policy look, admin's key: ${admin.status} ${JSON.stringify(admin.body)}`);
  console.log(`policy look, demo's key: ${demo.status} ${JSON.stringify(demo.body)}`);

  const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstream, '--service-key', `${db}=${adminKey}`], {});
  const gateway = await startGateway(config, createLogger('warn'));
  const logStart = statSync(values.log).size;
  const started = Date.now();
  let faults = 0;
  try {
    for (let i = 0; i < calls; i++) {
      const [method, args] = i % 5 === 4 ? ['create', [{ name: `rpc-policy check ${i}` }]] : ['search_count', [[]]];
      const res = await fetch(`${gateway.url}/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          method: 'call',
          params: { service: 'object', method: 'execute_kw', args: [db, 5, demoKey, 'res.partner', method, args] },
        }),
      });
      if (((await res.json()) as { error?: unknown }).error !== undefined) faults++;
    }
  } finally {
    await gateway.close();
  }
  const seconds = (Date.now() - started) / 1000;
  // the log is the server's: other databases' requests are in it too
  const lines = readFileSync(values.log)
    .subarray(logStart)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.includes(` ${db} werkzeug: `));
  const looks = lines.filter((l) => l.includes(' - - [') && l.includes('/json/2/ir.module.module/search_read')).length;
  const partnerCalls = lines.filter((l) => l.includes(' - - [') && l.includes('/json/2/res.partner/')).length;
  console.log(
    `${calls} object calls through the gateway in ${seconds.toFixed(1)} s: ${faults} faults, ${partnerCalls} res.partner JSON-2 requests, ` +
      `${looks} policy looks in Odoo's log (at most ${Math.ceil(seconds / 5) + 1} expected: one per 5 s)`,
  );
  const ok =
    admin.status === 200 &&
    Array.isArray(admin.body) &&
    admin.body.length === 0 &&
    demo.status === 200 &&
    demoModelsError === 'odoo.exceptions.AccessError' &&
    faults === 0 &&
    partnerCalls === calls &&
    looks >= 1 &&
    looks <= Math.ceil(seconds / 5) + 1;
  console.log(ok ? 'OK' : 'FAILED');
  if (!ok) process.exitCode = 1;
}

await main();
