/**
 * Opt-in (needs a real Odoo 19.0 of your own; never part of `npm test`): every legacy `db` function
 * through the gateway compared with the same call to Odoo's own legacy `db` service, over JSON-RPC —
 * the result, or the error's exception name and message — and the master-password probe checked to
 * change nothing (the config file and the database list stay as they were).
 *
 * The upstream must be an Odoo whose database manager is PROTECTED (a master password other than
 * `admin`) and that nobody else uses: with the default master password every form adopts the one it
 * is sent, and the script creates, restores and drops databases named `<prefix>_*` (it duplicates
 * `--source` once, and drops everything it made at the end). Restores make it slow: ~25 min on a
 * loaded two-core machine — do not cut it short, or drop `<prefix>_*` yourself afterwards.
 *
 *   npx tsx scripts/db-against-odoo.ts --upstream http://127.0.0.1:8169 --master <pw> --config /tmp/odoo.conf [--source gw2] [--prefix
 * gw_i28db]
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startGateway } from '../src/server/gateway.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8169' },
    master: { type: 'string' },
    config: { type: 'string' },
    source: { type: 'string', default: 'gw2' },
    prefix: { type: 'string', default: 'gw_i28db' },
  },
});
if (values.master === undefined || values.config === undefined)
  throw new Error("--master and --config (the upstream's config file, to show it unchanged) are required");
const { upstream, master, source, prefix } = values as { upstream: string; master: string; source: string; prefix: string };
const configFile = values.config;

type Envelope = { result?: unknown; error?: { data?: { name?: string; message?: string } } };

async function jsonrpc(base: string, method: string, args: unknown[]): Promise<Envelope> {
  const res = await fetch(`${base}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params: { service: 'db', method, args } }),
  });
  return (await res.json()) as Envelope;
}

/** What is compared: the result (base64 backups by their first bytes), or the exception's name and message. */
function outcome(e: Envelope): string {
  if (e.error !== undefined) {
    // Unknown-database faults do not name the PostgreSQL server (COMPATIBILITY.md)
    const message = (e.error.data?.message ?? '').replace(
      /^connection to server (?:on socket "[^"]*"|at "[^"]*"(?: \([^)]*\))?, port \d+) failed/,
      'connection to server failed',
    );
    return `${e.error.data?.name}: ${message}`;
  }
  if (typeof e.result === 'string' && e.result.length > 1000)
    return `base64 ${e.result.slice(0, 5)}… (${e.result.length > 1000 ? 'long' : ''})`;
  return JSON.stringify(e.result);
}

const sha = () => createHash('sha256').update(readFileSync(configFile)).digest('hex').slice(0, 16);
const nope = `${prefix}_nope`;
const src = `${prefix}_src`;
const b64 = (s: string) => Buffer.from(s).toString('base64');

const gateway = await startGateway(loadConfig(['--port', '0', '--admin-port', '0', '--upstream', upstream], {}), createLogger('silent'));
const made = new Set<string>();
try {
  console.log(`upstream ${upstream}, config ${sha()}`);
  const setup = await jsonrpc(upstream, 'duplicate_database', [master, source, src]);
  if (setup.error !== undefined) throw new Error(`duplicating ${source}: ${outcome(setup)}`);
  made.add(src);
  const zip = (await jsonrpc(upstream, 'dump', [master, src, 'zip'])).result as string;
  const dump = (await jsonrpc(upstream, 'dump', [master, src, 'dump'])).result as string;

  // 1. the master-password probe: right and wrong, on calls the gateway answers after it
  const before = { config: sha(), list: outcome(await jsonrpc(upstream, 'list', [])) };
  const probes = [
    await jsonrpc(gateway.url, 'drop', [master, nope]),
    await jsonrpc(gateway.url, 'drop', ['wrong', nope]),
    await jsonrpc(gateway.url, 'migrate_databases', ['wrong', [src]]),
  ];
  const after = { config: sha(), list: outcome(await jsonrpc(upstream, 'list', [])) };
  console.log(
    `probe: right → ${outcome(probes[0] as Envelope)}; wrong → ${outcome(probes[1] as Envelope)}; migrate wrong → ${outcome(probes[2] as Envelope)}`,
  );
  console.log(
    `probe changed nothing: config ${before.config === after.config ? 'same' : 'CHANGED'}, list ${before.list === after.list ? 'same' : 'CHANGED'}`,
  );

  // 2. each function, the gateway (side g) and Odoo's legacy db (side n) on names of their own
  type Case = [string, string, (side: string) => unknown[], string[]?];
  const cases: Case[] = [
    ['list', 'list', () => []],
    ['server_version', 'server_version', () => []],
    ['list_lang', 'list_lang', () => []],
    ['db_exist (exists)', 'db_exist', () => [src]],
    ['db_exist (unknown)', 'db_exist', () => [nope]],
    ['list_countries (right)', 'list_countries', () => [master]],
    ['list_countries (wrong)', 'list_countries', () => ['wrong']],
    ['drop (wrong password)', 'drop', () => ['wrong', nope]],
    ['drop (unknown database)', 'drop', () => [master, nope]],
    ['dump zip (wrong password)', 'dump', () => ['wrong', src, 'zip']],
    ['dump zip (unknown database)', 'dump', () => [master, nope, 'zip']],
    ['dump dump (unknown database)', 'dump', () => [master, nope, 'dump']],
    ['dump zip', 'dump', () => [master, src, 'zip']],
    ['dump dump', 'dump', () => [master, src, 'dump']],
    ['create_database (wrong password)', 'create_database', (s) => ['wrong', `${prefix}_${s}c`, false, 'en_US']],
    ['create_database (exists)', 'create_database', () => [master, src, false, 'en_US']],
    ['duplicate_database (wrong password)', 'duplicate_database', (s) => ['wrong', src, `${prefix}_${s}d`]],
    ['duplicate_database (target exists)', 'duplicate_database', () => [master, src, source]],
    ['duplicate_database (unknown source)', 'duplicate_database', (s) => [master, nope, `${prefix}_${s}d`]],
    ['duplicate_database', 'duplicate_database', (s) => [master, src, `${prefix}_${s}1`], ['1']],
    ['restore (wrong password)', 'restore', (s) => ['wrong', `${prefix}_${s}r`, zip]],
    ['restore (exists)', 'restore', () => [master, src, zip]],
    ['restore (garbage)', 'restore', (s) => [master, `${prefix}_${s}bad`, b64('not a backup')], ['bad']],
    ['restore zip', 'restore', (s) => [master, `${prefix}_${s}2`, zip, true], ['2']],
    ['restore dump', 'restore', (s) => [master, `${prefix}_${s}3`, dump], ['3']],
    ['rename', 'rename', (s) => [master, `${prefix}_${s}1`, `${prefix}_${s}4`], ['4']],
    ['change_admin_password (wrong password)', 'change_admin_password', () => ['wrong', 'x']],
    ['migrate_databases (wrong password)', 'migrate_databases', () => ['wrong', [src]]],
    ['drop', 'drop', (s) => [master, `${prefix}_${s}2`]],
    ['list (after)', 'list', () => []],
  ];
  let same = 0;
  const differ: string[] = [];
  for (const [label, method, args, creates = []] of cases) {
    for (const s of ['g', 'n']) for (const c of creates) made.add(`${prefix}_${s}${c}`);
    const g = outcome(await jsonrpc(gateway.url, method, args('g')));
    const n = outcome(await jsonrpc(upstream, method, args('n')));
    const equal = g.replaceAll(`${prefix}_g`, `${prefix}_n`) === n;
    if (equal) same++;
    else differ.push(`${label}:\n    gateway: ${g.slice(0, 300)}\n    odoo:    ${n.slice(0, 300)}`);
    console.log(`${equal ? 'same  ' : 'DIFFER'} ${label}: ${g.slice(0, 120)}`);
  }
  console.log(`\n${same} of ${cases.length} calls answered as Odoo 19.0's legacy db; ${differ.length} differ:\n  ${differ.join('\n  ')}`);
} finally {
  for (const name of made) await jsonrpc(upstream, 'drop', [master, name]);
  for (const s of ['g', 'n']) await jsonrpc(upstream, 'drop', [master, `${prefix}_${s}1`]);
  console.log(`dropped what the run made; config ${sha()}`);
  await gateway.close();
}
