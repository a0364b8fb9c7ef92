/**
 * Opt-in (needs a real Odoo 19; never part of `npm test`; run it on a copy database): how long a
 * changed password or a new second factor keeps working through the gateway (docs/security.md
 * "The session-check race"). For each kind — an admin's reset (the Change Password wizard), the
 * user's own `change_password`, enabling TOTP (the `auth_totp.wizard` behind the identity check) —
 * `--runs` times: a fresh user calls `context_get` through the gateway every 100 ms; 5.5–9 s after
 * its first call (past its first fresh login and a few session checks) the change is made straight
 * on Odoo, and the time from the change's answer to the first refusal is measured (bound:
 * `--revalidate-interval` + 2 s). Kinds run side by side, each with its own gateway; each run's
 * user is new (left behind in the copy database). After a refusal the script logs in once with the
 * new password, which clears Odoo's per-address failure count.
 *
 *   npx tsx scripts/password-race-against-odoo.ts --upstream http://127.0.0.1:8069 --db gw_i40 --admin-password admin [--runs 20]
 */
import { createHmac, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startGateway, type RunningGateway } from '../src/server/gateway.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    db: { type: 'string' },
    'admin-password': { type: 'string' },
    runs: { type: 'string', default: '20' },
    prefix: { type: 'string', default: `race${Date.now().toString(36)}` },
    kinds: { type: 'string', default: 'reset,self,totp' },
  },
});
if (values.db === undefined || values['admin-password'] === undefined) throw new Error('--db and --admin-password are required');
const db = values.db;
const adminPassword = values['admin-password'];
const upstream = values.upstream;
const runs = Number(values.runs);
const boundMs = 5000 + 2000;

type Envelope = { result?: unknown; error?: { data?: { name?: string; message?: string } } };

async function jsonrpc(base: string, service: string, method: string, args: unknown[]): Promise<Envelope> {
  const res = await fetch(`${base}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args } }),
  });
  return (await res.json()) as Envelope;
}

const asAdmin = (model: string, method: string, args: unknown[], kwargs: object = {}) =>
  jsonrpc(upstream, 'object', 'execute_kw', [db, 2, adminPassword, model, method, args, kwargs]);

function must(out: Envelope, what: string): unknown {
  if (out.error !== undefined) throw new Error(`${what}: ${out.error.data?.name} ${out.error.data?.message}`);
  return out.result;
}

/** A web session straight on Odoo (the TOTP wizard needs one). */
async function webSession(login: string, password: string): Promise<(path: string, params: object) => Promise<Envelope>> {
  const res = await fetch(`${upstream}/web/session/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { db, login, password } }),
  });
  const cookie = /session_id=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (cookie === undefined) throw new Error('no session');
  return async (path, params) =>
    (await (
      await fetch(`${upstream}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `session_id=${cookie}` },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params }),
      })
    ).json()) as Envelope;
}

const base32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function toBase32(bytes: Buffer): string {
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i + 5 <= bits.length; i += 5) out += base32[parseInt(bits.slice(i, i + 5), 2)];
  return out;
}
/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits), as `auth_totp` checks it. */
function totp(secret: Buffer, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const h = createHmac('sha1', secret).update(counter).digest();
  const offset = (h[h.length - 1] as number) & 0xf;
  return String((h.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

type Kind = 'reset' | 'self' | 'totp';

/** Makes the change straight on Odoo; resolves once Odoo answered (committed). */
async function change(kind: Kind, uid: number, login: string, oldPassword: string, newPassword: string): Promise<void> {
  if (kind === 'reset') {
    const wizard = must(
      await asAdmin('change.password.wizard', 'create', [
        { user_ids: [[0, 0, { user_id: uid, user_login: login, new_passwd: newPassword }]] },
      ]),
      'wizard',
    );
    must(await asAdmin('change.password.wizard', 'change_password_button', [[wizard]]), 'change_password_button');
  } else if (kind === 'self') {
    must(
      await jsonrpc(upstream, 'object', 'execute_kw', [db, uid, oldPassword, 'res.users', 'change_password', [oldPassword, newPassword]]),
      'change_password',
    );
  } else {
    const call = await webSession(login, oldPassword);
    const secret = randomBytes(20);
    const kw = (model: string, method: string, args: unknown[], kwargs: object = {}) =>
      call(`/web/dataset/call_kw/${model}/${method}`, { model, method, args, kwargs });
    const wizard = must(await kw('auth_totp.wizard', 'create', [{ user_id: uid, secret: toBase32(secret) }]), 'totp wizard');
    const action = must(await kw('auth_totp.wizard', 'enable', [[wizard]], { context: { code: totp(secret) } }), 'enable') as {
      res_id?: number;
    };
    if (action.res_id === undefined) throw new Error('enable asked for no identity check');
    must(await kw('res.users.identitycheck', 'run_check', [[action.res_id]], { context: { password: oldPassword } }), 'run_check');
  }
}

async function gateway(): Promise<RunningGateway> {
  return startGateway(loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstream], {}), createLogger('silent'));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One run: ms from the change's answer to the first refusal (Infinity: none within 60 s). */
async function run(g: RunningGateway, kind: Kind, n: number): Promise<{ ms: number; servedAfter: number; lastServedMs: number }> {
  const login = `${values.prefix}-${kind}-${n}`;
  const oldPassword = `old-${randomBytes(6).toString('hex')}`;
  const newPassword = `new-${randomBytes(6).toString('hex')}`;
  const uid = must(await asAdmin('res.users', 'create', [{ name: login, login, password: oldPassword }]), 'create user') as number;
  if ((await jsonrpc(g.url, 'common', 'login', [db, login, oldPassword])).result !== uid) throw new Error('login refused');
  const call = () => jsonrpc(g.url, 'object', 'execute_kw', [db, uid, oldPassword, 'res.users', 'context_get', []]);
  const started = Date.now();
  const changeAt = 5500 + Math.random() * 3500;
  let changedAt: number | undefined;
  let changing: Promise<void> | undefined;
  let servedAfter = 0;
  let lastServedMs = 0; // the answer of the last call served after the change, ms after it
  try {
    while (changedAt === undefined || Date.now() - changedAt < 60_000) {
      if (changing === undefined && Date.now() - started >= changeAt)
        changing = change(kind, uid, login, oldPassword, newPassword).then(() => void (changedAt = Date.now()));
      const out = await call();
      if (changedAt !== undefined) {
        if (out.error !== undefined) return { ms: Date.now() - changedAt, servedAfter, lastServedMs };
        servedAfter++;
        lastServedMs = Date.now() - changedAt;
      } else if (out.error !== undefined && changing === undefined)
        throw new Error(`refused before the change: ${out.error.data?.message}`);
      await sleep(100);
    }
    return { ms: Number.POSITIVE_INFINITY, servedAfter, lastServedMs };
  } finally {
    await changing;
    if (kind !== 'totp') await jsonrpc(upstream, 'common', 'login', [db, login, newPassword]); // clears Odoo's failure count
  }
}

async function kindRuns(kind: Kind): Promise<string> {
  const g = await gateway();
  const times: number[] = [];
  const served: number[] = [];
  try {
    for (let n = 0; n < runs; n++) {
      const { ms, servedAfter, lastServedMs } = await run(g, kind, n);
      times.push(ms);
      served.push(lastServedMs);
      console.log(
        `${kind} #${n + 1}: refused ${(ms / 1000).toFixed(2)} s after the change (served ${servedAfter} calls after it, the last answered ${(lastServedMs / 1000).toFixed(2)} s after it)`,
      );
    }
  } finally {
    await g.close();
  }
  const within = times.filter((t) => t <= boundMs).length;
  const lastServed = (Math.max(...served) / 1000).toFixed(2);
  return `${kind}: refused within ${boundMs / 1000} s in ${within} of ${times.length} runs; no call served later than ${lastServed} s after the change; refusal worst ${(Math.max(...times) / 1000).toFixed(2)} s, median ${((times.sort((a, b) => a - b)[Math.floor(times.length / 2)] as number) / 1000).toFixed(2)} s`;
}

const summaries = await Promise.all((values.kinds.split(',') as Kind[]).map(kindRuns));
for (const line of summaries) console.log(line);
