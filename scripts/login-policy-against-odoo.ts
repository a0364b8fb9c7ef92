/**
 * Opt-in (needs a real Odoo 19 with auth_totp_mail; never part of `npm test`): after an admin
 * enforces two-factor authentication (`auth_totp.policy` = `employee_required`), how many seconds
 * until the gateway refuses a password it was serving. Odoo refuses it on RPC at once. Use a
 * database copy of your own: the policy is switched on, then off again, with the admin's API key.
 *
 *   npx tsx scripts/login-policy-against-odoo.ts --upstream http://127.0.0.1:8069 --db gw_copy --admin-key KEY [--login-recheck-interval
 * 60000]
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startGateway } from '../src/server/gateway.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    db: { type: 'string' },
    'admin-key': { type: 'string' },
    'login-recheck-interval': { type: 'string', default: '600000' },
  },
});
if (values.db === undefined || values['admin-key'] === undefined) throw new Error('--db and --admin-key are required');
const db = values.db;
const adminKey = values['admin-key'];

async function jsonrpc(base: string, service: string, method: string, args: unknown[]): Promise<{ result?: unknown; error?: unknown }> {
  const res = await fetch(`${base}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args } }),
  });
  return (await res.json()) as { result?: unknown; error?: unknown };
}
const setPolicy = (value: string | false) =>
  jsonrpc(values.upstream, 'object', 'execute_kw', [db, 2, adminKey, 'ir.config_parameter', 'set_param', ['auth_totp.policy', value]]);

const flags = [
  '--port',
  '0',
  '--admin-port',
  '0',
  '--upstream',
  values.upstream,
  '--login-recheck-interval',
  values['login-recheck-interval'],
];
const gateway = await startGateway(loadConfig(flags, {}), createLogger('silent'));
try {
  console.log('login:', JSON.stringify((await jsonrpc(gateway.url, 'common', 'login', [db, 'demo', 'demo'])).result));
  const call = () => jsonrpc(gateway.url, 'object', 'execute_kw', [db, 5, 'demo', 'res.users', 'context_get', []]);
  console.log('before the policy:', (await call()).error === undefined ? 'served' : 'refused');
  await setPolicy('employee_required');
  const native = await jsonrpc(values.upstream, 'common', 'login', [db, 'demo', 'demo']);
  console.log('Odoo itself, right after:', JSON.stringify(native.result));
  const started = performance.now();
  let served = 0;
  const limitMs = Number(values['login-recheck-interval']) + 120_000;
  for (;;) {
    const out = await call();
    if (out.error !== undefined) break;
    served += 1;
    if (performance.now() - started > limitMs) throw new Error('still served past the bound');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  console.log(
    JSON.stringify({
      loginRecheckIntervalMs: Number(values['login-recheck-interval']),
      refusedAfterS: Math.round((performance.now() - started) / 100) / 10,
      callsServedMeanwhile: served,
    }),
  );
} finally {
  await setPolicy(false);
  await gateway.close();
}
