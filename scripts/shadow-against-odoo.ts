/**
 * Opt-in (needs a real Odoo 19; never part of `npm test`): shadow mode at 100 % in front of a real
 * Odoo, a mixed read-only workload in all three dialects, then what shadow mode found — the
 * question whether the gateway answers as Odoo does, answered on Odoo's own legacy endpoints instead of the simulator's. Use a
 * database of your own: the gateway mints an API key there for the password.
 *
 *   npx tsx scripts/shadow-against-odoo.ts --upstream http://127.0.0.1:8069 --db gw_copy --login admin --password admin [--rounds N]
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { stringifyJson } from '../src/json/index.ts';
import { createLogger } from '../src/log.ts';
import type { CutoverSnapshot } from '../src/cutover/cutover-report.ts';
import { startGateway } from '../src/server/gateway.ts';
import { struct, type Value } from '../src/value.ts';
import { encodeRequest } from '../test/fixtures-xml/xmlrpc-request.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    db: { type: 'string' },
    login: { type: 'string', default: 'admin' },
    password: { type: 'string' },
    master: { type: 'string', default: 'admin' },
    rounds: { type: 'string', default: '3' },
  },
});
if (values.db === undefined || values.password === undefined) throw new Error('--db and --password are required (a database of your own)');
const db = values.db;
const password = values.password;

const toValue = (v: unknown): Value =>
  Array.isArray(v)
    ? v.map(toValue)
    : v !== null && typeof v === 'object'
      ? struct(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toValue(x)])))
      : (v as Value);

async function main(): Promise<void> {
  const config = loadConfig(
    ['--port', '0', '--admin-port', '0', '--upstream', values.upstream, '--shadow-sample', '100', '--shadow-max-in-flight', '64'],
    {},
  );
  const gateway = await startGateway(config, createLogger('warn'));
  const ua = 'shadow-against-odoo/1';
  const post = async (dialect: 'xmlrpc1' | 'xmlrpc2' | 'jsonrpc', service: string, method: string, params: unknown[]) => {
    const res =
      dialect === 'jsonrpc'
        ? await fetch(`${gateway.url}/jsonrpc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'user-agent': ua },
            body: stringifyJson(toValue({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args: params } })),
          })
        : await fetch(`${gateway.url}/xmlrpc/${dialect === 'xmlrpc2' ? '2/' : ''}${service}`, {
            method: 'POST',
            headers: { 'content-type': 'text/xml', 'user-agent': ua },
            body: encodeRequest(method, params.map(toValue)),
          });
    await res.text();
    await gateway.shadow?.idle();
  };
  try {
    await post('xmlrpc2', 'common', 'login', [db, values.login, password]);
    const uidText = await (
      await fetch(`${gateway.url}/xmlrpc/2/common`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml', 'user-agent': ua },
        body: encodeRequest('login', [db, values.login, password]),
      })
    ).text();
    const uid = Number(/<int>(\d+)<\/int>/.exec(uidText)?.[1] ?? 0);
    if (uid === 0) throw new Error(`login refused: ${uidText}`);
    const kw = (
      dialect: 'xmlrpc1' | 'xmlrpc2' | 'jsonrpc',
      model: string,
      method: string,
      args: unknown[],
      kwargs: Record<string, unknown> = {},
    ) => post(dialect, 'object', 'execute_kw', [db, uid, password, model, method, args, kwargs]);
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const dialect of ['xmlrpc2', 'xmlrpc1', 'jsonrpc'] as const) {
        await post(dialect, 'common', 'version', []);
        await post(dialect, 'db', 'server_version', []);
        await post(dialect, 'db', 'db_exist', [db]);
        await post(dialect, 'db', 'list_lang', []);
        await post(dialect, 'db', 'list_countries', [values.master]);
        await kw(dialect, 'res.partner', 'search', [[['is_company', '=', true]]], { limit: 10 });
        await kw(dialect, 'res.partner', 'search_read', [[]], {
          fields: ['name', 'email', 'country_id', 'is_company', 'credit_limit', 'category_id', 'write_date'],
          limit: 20,
        });
        await kw(dialect, 'res.partner', 'read', [[1, 3, 7]], { fields: ['name', 'image_128', 'create_date', 'child_ids'] });
        await kw(dialect, 'res.partner', 'search_count', [[['customer_rank', '>', 0]]]);
        await kw(dialect, 'res.partner', 'fields_get', [], { attributes: ['string', 'type', 'required'] });
        await kw(dialect, 'res.partner', 'name_search', ['a'], { limit: 5 });
        await kw(dialect, 'sale.order', 'read_group', [[], ['amount_total:sum'], ['state']]);
        await kw(dialect, 'sale.order', 'search_read', [[['state', '=', 'sale']]], {
          fields: ['name', 'amount_total', 'date_order', 'order_line'],
          limit: 10,
        });
        await kw(dialect, 'sale.order', 'formatted_read_group', [[]], { groupby: ['state'], aggregates: ['amount_total:sum', '__count'] });
        await kw(dialect, 'res.partner', 'default_get', [['name', 'type', 'lang']]);
        await kw(dialect, 'res.partner', 'check_access_rights', ['write'], { raise_exception: false });
        await kw(dialect, 'res.users', 'context_get', []);
        await kw(dialect, 'res.partner', 'read', [[1]], { fields: ['no_such_field'] });
        await kw(dialect, 'no.such.model', 'search', [[]]);
        await kw(dialect, 'res.partner', 'search', [[['no_such_field', '=', 1]]]);
        await post(dialect, 'db', 'list', []);
        // an intended deviation (COMPATIBILITY.md): the gateway cannot name Odoo's PostgreSQL server
        await post(dialect, 'object', 'execute_kw', ['no_such_database', uid, password, 'res.partner', 'search_count', [[]]]);
      }
    }
    const report = (await (await fetch(`${gateway.adminUrl}/gateway/report.json`)).json()) as CutoverSnapshot;
    const client = report.clients.find((c) => c.userAgent === ua);
    console.log(`upstream ${values.upstream}, database ${db}: ${client?.readiness.line}`);
    for (const m of client?.methods ?? []) {
      const s = m.shadow;
      if (s === undefined) continue;
      const name = m.service === 'object' ? `${m.model}.${m.modelMethod}` : `${m.service}.${m.method}`;
      console.log(
        `  ${name}: ${s.equal} equal, ${s.intended} intended${s.deviations ? ` ${JSON.stringify(s.deviations)}` : ''}, ${s.differs} differ, ${s.errors} failed, ${s.dropped} dropped`,
      );
      for (const d of m.differences ?? [])
        console.log(
          `    ${d.dialect}: ${d.differences.join(' | ')}\n      gateway: ${d.gateway.slice(0, 300)}\n      legacy:  ${d.legacy.slice(0, 300)}`,
        );
    }
  } finally {
    await gateway.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
