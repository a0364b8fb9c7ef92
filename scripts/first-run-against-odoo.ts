/**
 * Opt-in (needs a real Odoo 19; never part of `npm test`): what a gateway's first run changes in
 * Odoo. `web.base.url` and its write date are read natively (XML-RPC, a read) before and after the
 * gateway's first password login of the admin, made through a gateway started for the purpose.
 * Use a database copy of your own: the admin's password login is real.
 *
 *   npx tsx scripts/first-run-against-odoo.ts --upstream http://127.0.0.1:8069 --db gw_copy --admin-password admin [--service-key KEY]
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
  },
});
if (values.db === undefined || values['admin-password'] === undefined) throw new Error('--db and --admin-password are required');
const db = values.db;
const adminPassword = values['admin-password'];

async function jsonrpc(base: string, service: string, method: string, args: unknown[]): Promise<{ result?: unknown; error?: unknown }> {
  const res = await fetch(`${base}/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args } }) });
  return (await res.json()) as { result?: unknown; error?: unknown };
}

/** web.base.url and its write date, read natively. */
async function baseUrl(): Promise<unknown> {
  const out = await jsonrpc(values.upstream, 'object', 'execute_kw', [db, 2, adminPassword, 'ir.config_parameter', 'search_read', [[['key', '=', 'web.base.url']]], { fields: ['value', 'write_date'] }]);
  return out.result;
}

const flags = ['--port', '0', '--admin-port', '0', '--upstream', values.upstream, ...(values['service-key'] === undefined ? [] : ['--service-key', `${db}=${values['service-key']}`])];
const gateway = await startGateway(loadConfig(flags, {}), createLogger('silent'));
try {
  const before = await baseUrl();
  if (values['warm-login'] !== undefined) {
    const [login, password] = values['warm-login'].split(':');
    console.log('non-system login first:', JSON.stringify(await jsonrpc(gateway.url, 'common', 'authenticate', [db, login, password, {}])));
  }
  const answer = await jsonrpc(gateway.url, 'common', 'authenticate', [db, 'admin', adminPassword, {}]);
  const after = await baseUrl();
  console.log(JSON.stringify({ gateway: gateway.url, login: answer.result ?? answer.error, before, after, unchanged: JSON.stringify(before) === JSON.stringify(after) }));
} finally {
  await gateway.close();
}
