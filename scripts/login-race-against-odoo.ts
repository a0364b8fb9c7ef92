/**
 * Opt-in (needs a real Odoo 19; never part of `npm test`): whether a login checked by `verify` can get
 * a client refused (docs/cutover.md "Logins racing"). On a scratch copy of `--from` (dropped at the
 * end; a copy holds Odoo's default `web.base.url`, http://localhost:<port>, as every copy made with
 * /web/database/duplicate does), `--rounds` rounds of each kind, `web.base.url` set back to that
 * default before each round:
 *
 * 1. `native-legacy`: two `common.login` of a system user at once on Odoo's own `/jsonrpc`;
 * 2. `native-web`: two `/web/session/authenticate` of a system user at once, straight to Odoo;
 * 3. `gateways`: bench:verify's order — a client logs in through a gateway in `verify` (Odoo answers,
 *    then the gateway checks the login in the background: its own web login and key mint), then at
 *    once through a second gateway in `translate` (a web login and mint for that client). Each round
 *    uses a system user of its own (created in the copy), so both gateways log in afresh.
 *
 * Printed per kind: the logins answered, refused (a fault or `False`) with their reasons, and whether
 * `web.base.url` changed; for `gateways` also the verify checks by outcome. Nothing here is an
 * assertion; it exits 0.
 *
 *   npx tsx scripts/login-race-against-odoo.ts --upstream http://127.0.0.1:8069 [--from gw] [--master admin]
 *     [--admin-password admin] [--rounds 6] [--kinds native-legacy,native-web,gateways]
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startGateway, type RunningGateway } from '../src/server/gateway.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    from: { type: 'string', default: 'gw' },
    master: { type: 'string', default: 'admin' },
    'admin-password': { type: 'string', default: 'admin' },
    rounds: { type: 'string', default: '6' },
    kinds: { type: 'string', default: 'native-legacy,native-web,gateways' },
  },
});
const upstream = values.upstream;
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds needs a whole number above 0');
const kinds = new Set(values.kinds.split(','));
const db = `${values.from}_loginrace_${Date.now().toString(36)}`;
const adminPassword = values['admin-password'];
const defaultBaseUrl = `http://localhost:${new URL(upstream).port || '80'}`;

/** A legacy JSON-RPC call at `base` (Odoo's own `/jsonrpc`, or a gateway's): its result, or the error's last line. */
async function legacy(base: string, service: string, method: string, args: unknown[]): Promise<{ result?: unknown; error?: string }> {
  const res = await fetch(`${base}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'login-race/1' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args } }),
  });
  const answer = (await res.json()) as { result?: unknown; error?: { data?: { name?: string; message?: string } } };
  if (answer.error === undefined) return { result: answer.result };
  return { error: `${answer.error.data?.name ?? '?'}: ${(answer.error.data?.message ?? '').trim().split('\n').pop() ?? ''}` };
}

/** An `execute_kw` as the admin on Odoo's own endpoint; throws on an error. */
async function admin(model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}): Promise<unknown> {
  const out = await legacy(upstream, 'object', 'execute_kw', [db, 2, adminPassword, model, method, args, kwargs]);
  if (out.error !== undefined) throw new Error(`${model}.${method}: ${out.error}`);
  return out.result;
}

const setBaseUrl = (value: string) => admin('ir.config_parameter', 'set_param', ['web.base.url', value]);
const baseUrl = async () => String(await admin('ir.config_parameter', 'get_param', ['web.base.url']));

/** A database manager form POST (`/web/database/duplicate`, `/drop`): Odoo answers a redirect when it worked. */
async function manage(action: 'duplicate' | 'drop', form: Record<string, string>): Promise<void> {
  const res = await fetch(`${upstream}/web/database/${action}`, {
    method: 'POST',
    body: new URLSearchParams({ master_pwd: values.master, ...form }),
    redirect: 'manual',
  });
  if (res.status !== 303) throw new Error(`/web/database/${action} answered ${res.status}`);
}

async function webLogin(login: string, password: string): Promise<{ result?: unknown; error?: string }> {
  const res = await fetch(`${upstream}/web/session/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { db, login, password } }),
  });
  const answer = (await res.json()) as { result?: { uid?: unknown }; error?: { data?: { name?: string; message?: string } } };
  if (answer.error === undefined) return { result: answer.result?.uid };
  return { error: `${answer.error.data?.name ?? '?'}: ${(answer.error.data?.message ?? '').trim()}` };
}

/** Tallies of one kind: answered logins, refusals by reason, rounds in which web.base.url changed. */
function tally() {
  const refused = new Map<string, number>();
  let answered = 0;
  let changed = 0;
  return {
    note(out: { result?: unknown; error?: string }) {
      if (out.error === undefined && out.result !== false) answered++;
      else {
        const why = out.error ?? 'False';
        refused.set(why, (refused.get(why) ?? 0) + 1);
      }
    },
    changedOnce: () => void changed++,
    line: (kind: string, extra = '') =>
      `${kind}: ${answered} logins answered, ${[...refused.values()].reduce((a, b) => a + b, 0)} refused` +
      `${refused.size === 0 ? '' : ` (${[...refused].map(([why, n]) => `${n}× ${why}`).join('; ')})`}` +
      `; web.base.url changed in ${changed} of ${rounds} rounds${extra}`,
  };
}

async function nativeRounds(kind: 'native-legacy' | 'native-web'): Promise<string> {
  const t = tally();
  for (let r = 0; r < rounds; r++) {
    await setBaseUrl(defaultBaseUrl);
    const one = () =>
      kind === 'native-web' ? webLogin('admin', adminPassword) : legacy(upstream, 'common', 'login', [db, 'admin', adminPassword]);
    for (const out of await Promise.all([one(), one()])) t.note(out);
    if ((await baseUrl()) !== defaultBaseUrl) t.changedOnce();
  }
  return t.line(kind);
}

/** The `verify_calls_total` counters of a gateway, by outcome. */
async function verifyOutcomes(gateway: RunningGateway): Promise<Record<string, number>> {
  const text = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^legacy_rpc_gateway_verify_calls_total\{[^}]*outcome="(\w+)"[^}]*\} (\d+)$/gm))
    out[m[1] as string] = (out[m[1] as string] ?? 0) + Number(m[2]);
  return out;
}

async function gatewayRounds(): Promise<string> {
  const groupRows = (await admin(
    'ir.model.data',
    'search_read',
    [
      [
        ['module', '=', 'base'],
        ['name', '=', 'group_system'],
      ],
    ],
    {
      fields: ['res_id'],
    },
  )) as { res_id: number }[];
  const systemGroup = groupRows[0]?.res_id;
  if (systemGroup === undefined) throw new Error('base.group_system not found');
  const users: { login: string; password: string }[] = [];
  for (let r = 0; r < rounds; r++) {
    const login = `race-admin-${r}`;
    const password = `race-admin-${r}-${Date.now().toString(36)}`;
    await admin('res.users', 'create', [{ name: login, login, password, group_ids: [[4, systemGroup]] }]);
    users.push({ login, password });
  }
  const flags = ['--port', '0', '--admin-port', '0', '--upstream', upstream];
  const verify = await startGateway(loadConfig([...flags, '--default-mode', 'verify', '--verify-sample', '100'], {}), createLogger('warn'));
  const translate = await startGateway(loadConfig(flags, {}), createLogger('warn'));
  const t = tally();
  try {
    for (const { login, password } of users) {
      await setBaseUrl(defaultBaseUrl);
      // bench:verify's loginThrough: verify first (Odoo answers; the gateway's check starts), then translate
      t.note(await legacy(verify.url, 'common', 'login', [db, login, password]));
      t.note(await legacy(translate.url, 'common', 'login', [db, login, password]));
      await verify.routes?.verifier.idle();
      if ((await baseUrl()) !== defaultBaseUrl) t.changedOnce();
    }
    const outcomes = await verifyOutcomes(verify);
    return t.line('gateways', `; verify checks: ${JSON.stringify(outcomes)}`);
  } finally {
    await verify.close();
    await translate.close();
  }
}

async function main(): Promise<void> {
  await manage('duplicate', { name: values.from, new_name: db });
  try {
    console.log(`scratch copy ${db} of ${values.from}; web.base.url set to ${defaultBaseUrl} before each of ${rounds} rounds`);
    if (kinds.has('native-legacy')) console.log(await nativeRounds('native-legacy'));
    if (kinds.has('native-web')) console.log(await nativeRounds('native-web'));
    if (kinds.has('gateways')) console.log(await gatewayRounds());
  } finally {
    await manage('drop', { name: db });
  }
}

await main();
