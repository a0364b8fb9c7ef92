/**
 * Opt-in (needs a real Odoo 19; never part of `npm test`): issue #39's proof against the real thing.
 * Two gateways in `verify` at 100 % in front of a real Odoo 19.0 —
 *
 * 1. every client answer is byte-identical to Odoo's own: each call is sent to Odoo's legacy endpoint
 *    directly and through the gateway, and the two answers (status, content type, bytes) compared;
 * 2. each write reaches Odoo once: Odoo's log (one werkzeug line per request) gains exactly one
 *    legacy request per write and no JSON-2 request of the writing method, and the record exists once;
 * 3. the report's verdicts match: the well-bound client is "ready to switch"; a second gateway with a
 *    deliberately broken translation (search_read bound as search) shows its client "not ready" with
 *    the call differing, while that client still gets Odoo's own bytes.
 *
 * The gateway mints an API key and a partner is created and written, so it runs on a scratch copy
 * of `--from` (default gw) made through `/web/database/duplicate` and dropped at the end, or on
 * `--db`, a database of your own that is left as it is.
 *
 *   npx tsx scripts/verify-against-odoo.ts --upstream http://127.0.0.1:8069 --password admin
 *     [--login admin] [--master admin] [--from gw | --db NAME] [--odoo-log /var/log/odoo19.log]
 *
 * Exits non-zero when any check fails; docs/cutover.md gives the last run's figures.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../src/config.ts';
import type { CutoverSnapshot } from '../src/cutover/cutover-report.ts';
import { stringifyJson } from '../src/json/index.ts';
import { createLogger } from '../src/log.ts';
import { startGateway, type RunningGateway } from '../src/server/gateway.ts';
import { createSignatureResolverFromConfig, type SignatureResolver } from '../src/signatures/index.ts';
import type { Upstream } from '../src/upstream/index.ts';
import { struct, type Value } from '../src/value.ts';
import { encodeRequest } from '../test/fixtures-xml/xmlrpc-request.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    db: { type: 'string' },
    login: { type: 'string', default: 'admin' },
    password: { type: 'string' },
    'odoo-log': { type: 'string', default: '/var/log/odoo19.log' },
    master: { type: 'string', default: 'admin' },
    from: { type: 'string', default: 'gw' },
  },
});
if (values.password === undefined) throw new Error('--password is required');
const password = values.password;
// without --db, a scratch copy of --from, dropped at the end
const scratch = values.db === undefined;
const db = values.db ?? `${values.from}_verify_${Date.now().toString(36)}`;
const odooLog = values['odoo-log'];
if (!existsSync(odooLog)) throw new Error(`Odoo's log ${odooLog} is not readable: the write-once check reads it`);

const toValue = (v: unknown): Value =>
  Array.isArray(v)
    ? v.map(toValue)
    : v !== null && typeof v === 'object'
      ? struct(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toValue(x)])))
      : (v as Value);

type Dialect = 'xmlrpc1' | 'xmlrpc2' | 'jsonrpc';
interface Call {
  dialect: Dialect;
  service: string;
  method: string;
  params: unknown[];
  label: string;
}
interface Answer {
  status: number;
  contentType: string;
  bytes: Buffer;
}

async function send(base: string, c: Call, ua: string): Promise<Answer> {
  const [path, body, contentType] =
    c.dialect === 'jsonrpc'
      ? [
          '/jsonrpc',
          stringifyJson(
            toValue({ jsonrpc: '2.0', method: 'call', id: 7, params: { service: c.service, method: c.method, args: c.params } }),
          ),
          'application/json',
        ]
      : [`/xmlrpc/${c.dialect === 'xmlrpc2' ? '2/' : ''}${c.service}`, encodeRequest(c.method, c.params.map(toValue)), 'text/xml'];
  const res = await fetch(base + path, { method: 'POST', body, headers: { 'content-type': contentType, 'user-agent': ua } });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The built-in table, except that search_read is bound as search: its fields list lands in `offset`. */
function brokenSearchRead(config: Config): SignatureResolver {
  const real = createSignatureResolverFromConfig(config, {} as Upstream, createLogger('silent'));
  return {
    ...real,
    resolve: (d, model, method, origin, key) => real.resolve(d, model, method === 'search_read' ? 'search' : method, origin, key),
  };
}

/** Werkzeug lines Odoo's log gained since byte `from`, for this database's requests (its thread name carries it). */
function logLinesSince(from: number): string[] {
  const text = readFileSync(odooLog).subarray(from).toString('utf8');
  // `2026-12-02 00:10:16,473 7993 INFO gw_verify werkzeug: 127.0.0.1 - - [...] "POST /xmlrpc/2/object HTTP/1.1" 200 - 4 0.06 0.07`
  return text.split('\n').filter((l) => /^\S+ \S+ \d+ \w+ (\S+) werkzeug: /.exec(l)?.[1] === db && l.includes('"POST '));
}

const failures: string[] = [];
function check(ok: boolean, what: string): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

async function report(gateway: RunningGateway): Promise<CutoverSnapshot> {
  return (await (await fetch(`${gateway.adminUrl}/gateway/report.json`)).json()) as CutoverSnapshot;
}

/** A database manager form POST (`/web/database/duplicate`, `/drop`): Odoo answers a redirect when it worked. */
async function manage(action: 'duplicate' | 'drop', form: Record<string, string>): Promise<void> {
  const res = await fetch(`${values.upstream}/web/database/${action}`, {
    method: 'POST',
    body: new URLSearchParams({ master_pwd: values.master, ...form }),
    redirect: 'manual',
  });
  if (res.status !== 303) throw new Error(`/web/database/${action} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}

async function main(): Promise<void> {
  if (scratch) await manage('duplicate', { name: values.from, new_name: db });
  try {
    await checks();
  } finally {
    if (scratch) await manage('drop', { name: db });
  }
  if (failures.length > 0) process.exit(1);
}

async function checks(): Promise<void> {
  const flags = ['--port', '0', '--admin-port', '0', '--upstream', values.upstream, '--default-mode', 'verify'];
  const verifyFlags = [...flags, '--verify-sample', '100', '--verify-max-in-flight', '64'];
  const config = loadConfig(verifyFlags, {});
  const gateway = await startGateway(config, createLogger('warn'));
  const broken = await startGateway(loadConfig(verifyFlags, {}), createLogger('warn'), { signatures: brokenSearchRead(config) });
  const idle = async (g: RunningGateway) => g.routes?.verifier.idle();
  const ua = 'verify-against-odoo/1';
  try {
    const login = await send(
      gateway.url,
      { dialect: 'xmlrpc2', service: 'common', method: 'login', params: [db, values.login, password], label: '' },
      ua,
    );
    const uid = Number(/<int>(\d+)<\/int>/.exec(login.bytes.toString())?.[1] ?? 0);
    if (uid === 0) throw new Error(`login refused: ${login.bytes.toString()}`);
    await idle(gateway);
    const kw = (dialect: Dialect, model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}): Call => ({
      dialect,
      service: 'object',
      method: 'execute_kw',
      params: [db, uid, password, model, method, args, kwargs],
      label: `${dialect} ${model}.${method}`,
    });

    // 1. byte identity: read-only calls, answers and faults, all three dialects
    const reads: Call[] = [
      { dialect: 'xmlrpc2', service: 'common', method: 'version', params: [], label: 'xmlrpc2 common.version' },
      { dialect: 'jsonrpc', service: 'common', method: 'login', params: [db, values.login, password], label: 'jsonrpc common.login' },
      {
        dialect: 'xmlrpc2',
        service: 'common',
        method: 'login',
        params: [db, values.login, 'wrong-password'],
        label: 'xmlrpc2 common.login refused',
      },
      {
        dialect: 'xmlrpc1',
        service: 'common',
        method: 'authenticate',
        params: [db, values.login, password, {}],
        label: 'xmlrpc1 common.authenticate',
      },
      { dialect: 'jsonrpc', service: 'db', method: 'list', params: [], label: 'jsonrpc db.list' },
      { dialect: 'xmlrpc2', service: 'db', method: 'server_version', params: [], label: 'xmlrpc2 db.server_version' },
      kw('xmlrpc2', 'res.partner', 'search_read', [[['id', '<', 40]]], {
        fields: ['name', 'email', 'credit_limit', 'parent_id', 'write_date'],
      }),
      kw('jsonrpc', 'res.partner', 'read', [[1, 3, 7]], { fields: ['name', 'category_id', 'write_date'] }),
      kw('xmlrpc1', 'res.partner', 'search_count', [[['is_company', '=', true]]]),
      kw('xmlrpc2', 'res.partner', 'search', [[['customer_rank', '>=', 0]]], { limit: 15, order: 'name desc' }),
      kw('jsonrpc', 'res.partner', 'name_search', ['a'], { limit: 8 }),
      kw('xmlrpc2', 'res.partner', 'fields_get', [], { attributes: ['string', 'type', 'required'] }),
      kw('xmlrpc2', 'res.country', 'search_read', [[['code', 'in', ['BE', 'FR', 'US']]]], { fields: ['name', 'code', 'currency_id'] }),
      kw('jsonrpc', 'res.partner', 'read_group', [[], ['is_company'], ['is_company']], {}),
      kw('xmlrpc2', 'res.partner', 'read', [[1]], { fields: ['no_such_field'] }),
      kw('jsonrpc', 'no.such.model', 'search', [[]]),
      kw('xmlrpc2', 'res.partner', 'no_such_method', [[1]]),
      kw('xmlrpc2', 'res.partner', 'search_read', [[['no_such_field', '=', 1]]]),
    ];
    let identical = 0;
    for (const c of reads) {
      const odoo = await send(values.upstream, c, ua);
      const through = await send(gateway.url, c, ua);
      const same = through.status === odoo.status && through.contentType === odoo.contentType && through.bytes.equals(odoo.bytes);
      if (same) identical++;
      check(same, `byte-identical: ${c.label} (${odoo.status}, ${odoo.bytes.length} B)`);
      await idle(gateway);
    }

    // 2. writes reach Odoo once, natively
    const marker = `Verify Once ${Date.now().toString(36)}`;
    const logStart = statSync(odooLog).size;
    const created = await send(gateway.url, kw('xmlrpc2', 'res.partner', 'create', [{ name: marker }]), ua);
    const id = Number(/<int>(\d+)<\/int>/.exec(created.bytes.toString())?.[1] ?? 0);
    check(created.status === 200 && id > 0, `create answered with an id (${id})`);
    const wrote = await send(gateway.url, kw('jsonrpc', 'res.partner', 'write', [[id], { comment: marker }]), ua);
    check(wrote.status === 200 && wrote.bytes.toString().includes('"result": true'), 'write answered true');
    await idle(gateway);
    // Odoo writes a request's log line as its answer goes out: give the last one a moment
    await new Promise((r) => setTimeout(r, 500));
    const lines = logLinesSince(logStart);
    // Odoo 19's request line names the model and method after the path: `/xmlrpc/2/object#res.partner.create`
    const writes = lines.flatMap(
      (l) => /"POST (\S+?(?:#res\.partner\.(?:create|write)|\/json\/2\/res\.partner\/(?:create|write))) /.exec(l)?.[1] ?? [],
    );
    const legacy = writes.filter((w) => !w.startsWith('/json/2/')).length;
    const json2Writes = writes.length - legacy;
    check(
      writes.join(' ') === '/xmlrpc/2/object#res.partner.create /jsonrpc#res.partner.write',
      `Odoo's log: each write once, natively (${writes.join(', ') || 'none'})`,
    );
    const count = await send(values.upstream, kw('xmlrpc2', 'res.partner', 'search_count', [[['name', '=', marker]]]), ua);
    check(count.bytes.toString().includes('<int>1</int>'), 'the created partner exists once');
    const methods = (await report(gateway)).clients.flatMap((c) => (c.userAgent === ua ? c.methods : []));
    const createRow = methods.find((m) => m.modelMethod === 'res.partner.create' || m.modelMethod === 'create');
    check(createRow?.shadow?.bound === 1, `the report: create's binding checked once (bound ${createRow?.shadow?.bound ?? 0})`);
    check(!JSON.stringify(methods).includes(marker), 'the report holds no call argument');

    // 3. verdicts: the well-bound client is ready; the broken one differs and is not
    const served = await report(gateway);
    const client = served.clients.find((c) => c.userAgent === ua && c.methods.some((m) => m.modelMethod?.endsWith('search_read')));
    check(
      client?.switchReadiness.verdict === 'ready to switch' && client.switchReadiness.differs === 0,
      `well-bound client: "${client?.switchReadiness.verdict}", ${client?.switchReadiness.compared ?? 0} compared, ${client?.switchReadiness.differs ?? '?'} differ`,
    );
    const brokenUa = 'verify-against-odoo-broken/1';
    await send(
      broken.url,
      { dialect: 'xmlrpc2', service: 'common', method: 'login', params: [db, values.login, password], label: '' },
      brokenUa,
    );
    await idle(broken);
    const read = kw('xmlrpc2', 'res.partner', 'search_read', [[['id', '<', 10]], ['name']]);
    const odoo = await send(values.upstream, read, brokenUa);
    const answer = await send(broken.url, read, brokenUa);
    check(answer.bytes.equals(odoo.bytes), "broken translation: the client still gets Odoo's own bytes");
    await idle(broken);
    const brokenClient = (await report(broken)).clients.find(
      (c) => c.userAgent === brokenUa && c.methods.some((m) => m.modelMethod?.endsWith('search_read')),
    );
    check(
      brokenClient?.switchReadiness.verdict === 'not ready' &&
        brokenClient.switchReadiness.differing.some((m) => m.endsWith('search_read')),
      `broken translation: client "${brokenClient?.switchReadiness.verdict}", differing ${JSON.stringify(brokenClient?.switchReadiness.differing)}`,
    );
    check(!JSON.stringify(brokenClient).includes(password), 'the differences are redacted (no password)');
    console.log(
      `\n${identical}/${reads.length} answers byte-identical; writes: ${legacy} legacy / ${json2Writes} JSON-2; ${failures.length} check(s) failed`,
    );
  } finally {
    await gateway.close();
    await broken.close();
  }
}

await main();
