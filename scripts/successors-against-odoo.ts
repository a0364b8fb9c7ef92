/**
 * Opt-in (needs a real Odoo 19; never part of `npm test`): the successors of removed methods checked
 * call for call against Odoo 19.0's own answers. The gateway runs with `--successors always`, so
 * every `read_group`, `toggle_active`, `ir.http.get_currencies` and `check_access_rights` goes
 * through its successor, while Odoo's native XML-RPC (and JSON-RPC) endpoint answers the same call
 * with the method itself; the two answers are compared typed (XML-RPC bodies byte for byte after
 * masking tracebacks). Generated `read_group` shapes: lazy and not, one to three groupbys, every
 * date granularity, bare fields, `f:agg`, `name:agg(f)`, `__count`, orderby, offset/limit, domains
 * with `|` and `!`, languages en_US and fr_FR, a time zone, users admin and demo. Generated
 * `check_access_rule` (records that exist, are refused by rules, do not exist) and
 * `check_field_access_rights` (no names, valid, unknown and restricted names) calls, users admin,
 * demo and portal (when portal/portal logs in), four operations.
 *
 * `toggle_active` WRITES: use a database copy of your own. The gateway also mints an API key there.
 *
 *   npx tsx scripts/successors-against-odoo.ts --db gw_copy [--calls 600] [--seed 1] [--verbose]
 */
import { parseArgs } from 'node:util';
import { compareJsonrpcBodies, compareXmlrpcBodies, type Difference } from '../src/cutover/compare/compare.ts';
import { loadConfig } from '../src/config.ts';
import { stringifyJson } from '../src/json/index.ts';
import { createLogger } from '../src/log.ts';
import { startGateway } from '../src/server/gateway.ts';
import { struct, type Value } from '../src/value.ts';
import { encodeRequest } from '../test/fixtures-xml/xmlrpc-request.ts';
import { seededRandom as random } from '../test/differential/generate.ts';
import { mintKey } from './mint-key.ts';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string', default: 'http://127.0.0.1:8069' },
    db: { type: 'string' },
    calls: { type: 'string', default: '600' },
    seed: { type: 'string', default: '1' },
    verbose: { type: 'boolean', default: false },
  },
});
if (values.db === undefined) throw new Error('--db is required (a database copy of your own: toggle_active writes)');
const db = values.db;
const upstream = values.upstream;

const users = [
  { login: 'admin', password: 'admin' },
  { login: 'demo', password: 'demo' },
];
const models = [
  'res.partner',
  'sale.order',
  'sale.order.line',
  'res.users',
  'product.template',
  'res.country',
  'res.currency',
  'res.partner.bank',
];

const toValue = (v: unknown): Value =>
  Array.isArray(v)
    ? v.map(toValue)
    : v !== null && typeof v === 'object' && !(v instanceof Map)
      ? struct(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toValue(x)])))
      : (v as Value);

const rnd = random(Number(values.seed));
const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
const chance = (p: number) => rnd() < p;

async function xmlrpc(base: string, path: string, method: string, params: unknown[]): Promise<string> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: encodeRequest(method, params.map(toValue)),
  });
  return res.text();
}
async function jsonrpc(base: string, service: string, method: string, args: unknown[]): Promise<string> {
  const body = stringifyJson(toValue({ jsonrpc: '2.0', method: 'call', id: 1, params: { service, method, args } }));
  const res = await fetch(`${base}/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return res.text();
}

interface FieldMeta {
  type: string;
  store?: boolean;
  groupable?: boolean;
  aggregator?: string;
}

/** Native fields_get over JSON-RPC, as admin. */
async function fieldsOf(model: string): Promise<Record<string, FieldMeta>> {
  const text = await jsonrpc(upstream, 'object', 'execute_kw', [
    db,
    2,
    'admin',
    model,
    'fields_get',
    [],
    { attributes: ['type', 'store', 'groupable', 'aggregator'] },
  ]);
  const answer = JSON.parse(text) as { result?: Record<string, FieldMeta>; error?: unknown };
  if (answer.result === undefined) throw new Error(`fields_get ${model}: ${text.slice(0, 300)}`);
  return answer.result;
}

interface Shape {
  model: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
}

const granularities = ['day', 'week', 'month', 'quarter', 'year'];

function groupSpecs(fields: Record<string, FieldMeta>) {
  const entries = Object.entries(fields).filter(([name, f]) => f.store === true && f.groupable === true && name !== 'id');
  const byType = (...types: string[]) => entries.filter(([, f]) => types.includes(f.type)).map(([n]) => n);
  return {
    plain: byType('many2one', 'selection', 'boolean', 'char', 'integer', 'many2many'),
    dates: byType('date', 'datetime'),
    numbers: Object.entries(fields)
      .filter(([, f]) => f.aggregator !== undefined)
      .map(([n]) => n),
    others: byType('float', 'monetary', 'integer', 'many2one', 'char').slice(0, 8),
  };
}

function readGroupShape(model: string, fields: Record<string, FieldMeta>): Shape {
  const specs = groupSpecs(fields);
  const groupby: string[] = [];
  const count = pick([0, 1, 1, 1, 2, 2, 3]);
  for (let i = 0; i < count; i++) {
    if (specs.dates.length > 0 && chance(0.4)) {
      const date = pick(specs.dates);
      groupby.push(chance(0.2) ? date : `${date}:${pick(granularities)}`);
    } else if (specs.plain.length > 0) groupby.push(pick(specs.plain));
  }
  const fieldList: string[] = [];
  const nFields = pick([0, 1, 2, 3]);
  for (let i = 0; i < nFields; i++) {
    const kind = pick(['bare', 'bare', 'agg', 'alias', 'count', 'other']);
    if (kind === 'count') fieldList.push('__count');
    else if (kind === 'other' && specs.others.length > 0) fieldList.push(pick(specs.others));
    else if (specs.numbers.length > 0) {
      const f = pick(specs.numbers);
      if (kind === 'bare') fieldList.push(f);
      else if (kind === 'agg') fieldList.push(`${f}:${pick(['sum', 'max', 'min', 'avg', 'count', 'count_distinct'])}`);
      else fieldList.push(`${f}_x:${pick(['sum', 'max', 'min'])}(${f})`);
    }
  }
  const domains: unknown[] = [
    [],
    [],
    [['id', '>', 0]],
    ['|', ['id', '<', 20], ['id', '>', 40]],
    ['!', ['id', '=', 3]],
    [['create_date', '!=', false]],
    [['id', 'in', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]],
  ];
  const kwargs: Record<string, unknown> = {};
  const lazy = chance(0.5);
  if (!lazy || chance(0.3)) kwargs.lazy = lazy;
  if (chance(0.3)) {
    const first = groupby[0];
    const terms = [
      first === undefined ? 'id' : `${first.split(':')[0]} desc`,
      '__count desc',
      first === undefined ? '__count' : `${first.split(':')[0]}_count desc`,
    ];
    const aggregate = fieldList.find((f) => f !== '__count');
    if (aggregate !== undefined) terms.push(`${aggregate.split(':')[0]} desc`);
    kwargs.orderby = pick(terms);
  }
  if (chance(0.25)) kwargs.limit = pick([1, 2, 3, 5]);
  if (chance(0.2)) kwargs.offset = pick([1, 2]);
  const context: Record<string, unknown> = { lang: pick(['en_US', 'fr_FR']) };
  if (chance(0.25)) context.tz = pick(['Europe/Brussels', 'America/New_York', 'Asia/Kolkata']);
  kwargs.context = context;
  return { model, args: [pick(domains), fieldList, groupby], kwargs };
}

function describe(user: string, shape: Shape): string {
  return `${user} ${shape.model}.read_group(${JSON.stringify(shape.args)}, ${JSON.stringify(shape.kwargs)})`;
}

const mintAdminKey = () => mintKey(upstream, db, 'admin', 'admin', 'successors-against-odoo');

/** A difference COMPATIBILITY.md lists, by its section, or undefined. */
function listedReason(native: string, through: string): string | undefined {
  if (native.includes('<fault>') && through.includes('exactly through its successor'))
    return 'Methods answered through their successors: what cannot be answered exactly is refused';
  // str() of an exception with several arguments is the repr of their tuple
  if (/<name>faultCode<\/name>\s*<value><int>2<\/int><\/value>[\s\S]*<string>\(/.test(native))
    return "A RedirectWarning's fault text is its message";
  return undefined;
}

async function main(): Promise<void> {
  // the service key lets the gateway read every field's aggregator, as read_group itself does
  const serviceKey = await mintAdminKey();
  const config = loadConfig(
    ['--port', '0', '--admin-port', '0', '--upstream', upstream, '--successors', 'always', '--service-key', `${db}=${serviceKey}`],
    {},
  );
  const gateway = await startGateway(config, createLogger('warn'));
  const uids = new Map<string, number>();
  const tally = {
    readGroup: 0,
    readGroupEqual: 0,
    toggle: 0,
    toggleEqual: 0,
    currencies: 0,
    currenciesEqual: 0,
    access: 0,
    accessEqual: 0,
    rule: 0,
    ruleEqual: 0,
    ruleRefused: 0,
    ruleFaults: 0,
    ruleAccessErrorsEqual: 0,
    fieldAccess: 0,
    fieldAccessEqual: 0,
    fieldAccessRefused: 0,
    fieldAccessFaults: 0,
    fieldAccessErrorsEqual: 0,
    faults: 0,
  };
  const differences: string[] = [];
  const listed: string[] = [];
  const note = (what: string, diffs: Difference[], native = '', through = '') => {
    const text = `${what}\n    ${diffs
      .slice(0, 3)
      .map((d) => `${d.path}: ${d.message}`)
      .join('\n    ')}`;
    const reason = listedReason(native, through);
    if (reason === undefined) differences.push(text);
    else listed.push(`${what}: ${reason}`);
  };
  try {
    for (const user of users) {
      const text = await xmlrpc(upstream, '/xmlrpc/2/common', 'login', [db, user.login, user.password]);
      const uid = Number(/<int>(\d+)<\/int>/.exec(text)?.[1] ?? 0);
      if (uid === 0) throw new Error(`login ${user.login} refused: ${text}`);
      uids.set(user.login, uid);
      // the gateway learns the uid's login (it trades the password for an API key)
      await xmlrpc(gateway.url, '/xmlrpc/2/common', 'login', [db, user.login, user.password]);
    }
    // portal, for the access checks only, when it can work through the gateway at all: 19.0 mints API
    // keys for internal users only ("Only internal users can create API keys"), unless allowed
    const portal = { login: 'portal', password: 'portal' };
    {
      const text = await xmlrpc(upstream, '/xmlrpc/2/common', 'login', [db, portal.login, portal.password]);
      const uid = Number(/<int>(\d+)<\/int>/.exec(text)?.[1] ?? 0);
      if (uid !== 0) {
        await xmlrpc(gateway.url, '/xmlrpc/2/common', 'login', [db, portal.login, portal.password]);
        const probe = await xmlrpc(gateway.url, '/xmlrpc/2/object', 'execute_kw', [
          db,
          uid,
          portal.password,
          'res.partner',
          'check_access_rights',
          ['read', false],
        ]);
        if (probe.includes('<boolean>')) uids.set(portal.login, uid);
        else console.log(`portal left out: ${probe.replace(/\s+/g, ' ').slice(0, 240)}`);
      }
    }
    const accessUsers = [...users, portal].filter((u) => uids.has(u.login));
    const call = (base: string, login: string, model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}) => {
      const user = accessUsers.find((u) => u.login === login) as (typeof users)[number];
      return xmlrpc(base, '/xmlrpc/2/object', 'execute_kw', [db, uids.get(login), user.password, model, method, args, kwargs]);
    };

    // read_group: generated shapes on every model, by both users
    const fieldsByModel = new Map<string, Record<string, FieldMeta>>();
    for (const model of models) fieldsByModel.set(model, await fieldsOf(model));
    const total = Number(values.calls);
    for (let i = 0; i < total; i++) {
      const model = models[i % models.length] as string;
      const login = (users[Math.floor(i / models.length) % users.length] as (typeof users)[number]).login;
      const shape = readGroupShape(model, fieldsByModel.get(model) as Record<string, FieldMeta>);
      const native = await call(upstream, login, model, 'read_group', shape.args, shape.kwargs);
      const through = await call(gateway.url, login, model, 'read_group', shape.args, shape.kwargs);
      tally.readGroup++;
      if (native.includes('<fault>')) tally.faults++;
      const diffs = compareXmlrpcBodies(native, through);
      if (diffs.length === 0) tally.readGroupEqual++;
      else note(describe(login, shape), diffs, native, through);
      if (values.verbose && diffs.length === 0) console.log(`ok ${describe(login, shape)}`);
    }

    // toggle_active: the same toggle natively, then through the gateway (which toggles back)
    const toggleSets: Array<{ model: string; pick: unknown[] }> = [
      { model: 'res.partner', pick: [['id', 'in', [7, 8, 9, 10]]] },
      { model: 'res.partner.category', pick: [] },
      { model: 'product.template', pick: [['id', '<', 6]] },
      { model: 'res.currency', pick: [['name', 'in', ['EUR', 'USD', 'GBP', 'CHF']]] },
    ];
    for (const set of toggleSets) {
      const idsText = await jsonrpc(upstream, 'object', 'execute_kw', [
        db,
        2,
        'admin',
        set.model,
        'search',
        [set.pick],
        { context: { active_test: false }, limit: 4 },
      ]);
      const ids = (JSON.parse(idsText) as { result: number[] }).result;
      // a mixed set: archive one record first (natively), so the toggle has both kinds
      if (ids.length > 1) await call(upstream, 'admin', set.model, 'action_archive', [[ids[0]]]);
      const shapes: Array<{ login: string; ids: unknown }> = [
        { login: 'admin', ids },
        { login: 'admin', ids: ids.slice(0, 1) },
        { login: 'admin', ids: [] },
        { login: 'admin', ids: [...ids, 999_999] },
        { login: 'demo', ids },
      ];
      for (const s of shapes) {
        const readActive = async () => jsonrpc(upstream, 'object', 'execute_kw', [db, 2, 'admin', set.model, 'read', [ids, ['active']]]);
        const before = await readActive();
        const native = await call(upstream, s.login, set.model, 'toggle_active', [s.ids]);
        const afterNative = await readActive();
        const through = await call(gateway.url, s.login, set.model, 'toggle_active', [s.ids]);
        const afterThrough = await readActive();
        tally.toggle++;
        const diffs = compareXmlrpcBodies(native, through);
        // the gateway's toggle undoes the native one: the records end as they began
        if (afterThrough !== before)
          diffs.push({
            path: 'active',
            message: `records after both toggles ${afterThrough}, before ${before} (after the native toggle ${afterNative})`,
          });
        if (diffs.length === 0) tally.toggleEqual++;
        else note(`${s.login} ${set.model}.toggle_active(${JSON.stringify(s.ids)})`, diffs, native, through);
      }
      if (ids.length > 1) await call(upstream, 'admin', set.model, 'action_unarchive', [[ids[0]]]);
    }

    // ir.http.get_currencies: XML-RPC and JSON-RPC, both users, both languages
    for (const login of ['admin', 'demo']) {
      for (const lang of ['en_US', 'fr_FR']) {
        for (const args of [[[]], []]) {
          const user = users.find((u) => u.login === login) as (typeof users)[number];
          const params = [db, uids.get(login), user.password, 'ir.http', 'get_currencies', args, { context: { lang } }];
          const x = compareXmlrpcBodies(
            await xmlrpc(upstream, '/xmlrpc/2/object', 'execute_kw', params),
            await xmlrpc(gateway.url, '/xmlrpc/2/object', 'execute_kw', params),
          );
          const j = compareJsonrpcBodies(
            await jsonrpc(upstream, 'object', 'execute_kw', params),
            await jsonrpc(gateway.url, 'object', 'execute_kw', params),
          );
          tally.currencies += 2;
          if (x.length === 0) tally.currenciesEqual++;
          else note(`${login} ir.http.get_currencies(${JSON.stringify(args)}) lang=${lang} (XML-RPC)`, x);
          if (j.length === 0) tally.currenciesEqual++;
          else note(`${login} ir.http.get_currencies(${JSON.stringify(args)}) lang=${lang} (JSON-RPC)`, j);
        }
      }
    }

    // check_access_rights: raise_exception False (exact), and True where allowed
    for (const login of ['admin', 'demo']) {
      for (const model of ['res.partner', 'sale.order', 'res.users', 'res.currency', 'ir.config_parameter']) {
        for (const operation of ['read', 'write', 'create', 'unlink']) {
          for (const kwargs of [{ raise_exception: false }, {}]) {
            const native = await call(upstream, login, model, 'check_access_rights', [operation], kwargs);
            const through = await call(gateway.url, login, model, 'check_access_rights', [operation], kwargs);
            tally.access++;
            const diffs = compareXmlrpcBodies(native, through);
            if (diffs.length === 0) tally.accessEqual++;
            else note(`${login} ${model}.check_access_rights(${operation}, ${JSON.stringify(kwargs)})`, diffs, native, through);
          }
        }
      }
    }

    // check_access_rule and check_field_access_rights: generated record sets and field lists
    const accessModels = [
      'res.partner',
      'sale.order',
      'sale.order.line',
      'res.users',
      'res.currency',
      'ir.config_parameter',
      'product.template',
    ];
    const refusedThrough = (answer: string) => answer.includes('exactly through its successor');
    for (const model of accessModels) {
      const idsText = await jsonrpc(upstream, 'object', 'execute_kw', [
        db,
        2,
        'admin',
        model,
        'search',
        [[]],
        { context: { active_test: false }, limit: 30 },
      ]);
      const known = (JSON.parse(idsText) as { result?: number[] }).result ?? [];
      const adminFields = Object.keys(await fieldsOf(model));
      // the fields some user may not see: restricted names for the lists below
      const restricted = new Set<string>();
      for (const u of accessUsers) {
        const text = await jsonrpc(upstream, 'object', 'execute_kw', [
          db,
          uids.get(u.login),
          u.password,
          model,
          'fields_get',
          [],
          { attributes: ['type'] },
        ]);
        const seen = (JSON.parse(text) as { result?: Record<string, unknown> }).result;
        if (seen !== undefined) for (const f of adminFields) if (!(f in seen)) restricted.add(f);
      }
      const restrictedList = [...restricted];
      for (const u of accessUsers) {
        for (const operation of ['read', 'write', 'create', 'unlink']) {
          for (let i = 0; i < 4; i++) {
            const ids: number[] = [];
            for (let n = pick([0, 1, 1, 2, 3]); n > 0 && known.length > 0; n--) ids.push(pick(known));
            if (chance(0.25)) ids.push(999_999);
            const native = await call(upstream, u.login, model, 'check_access_rule', [ids, operation]);
            const through = await call(gateway.url, u.login, model, 'check_access_rule', [ids, operation]);
            tally.rule++;
            if (native.includes('<fault>')) tally.ruleFaults++;
            const what = `${u.login} ${model}.check_access_rule(${JSON.stringify(ids)}, ${operation})`;
            const diffs = compareXmlrpcBodies(native, through);
            // Odoo's fault code 4 (AccessError) or 2 (MissingError), answered identically
            const odooFault = /<name>faultCode<\/name>\s*<value><int>[24]<\/int>/.test(native);
            if (diffs.length === 0 && odooFault) tally.ruleAccessErrorsEqual++;
            if (diffs.length === 0) tally.ruleEqual++;
            else if (refusedThrough(through) && native.includes('<fault>')) {
              tally.ruleRefused++;
              listed.push(
                `${what}: refused (natively a fault): ${/through its successor has_access\(\): ([^.]*)/.exec(through)?.[1] ?? ''}`,
              );
            } else note(what, diffs, native, through);
            if (values.verbose && diffs.length === 0) console.log(`ok ${what}`);
          }
          for (let i = 0; i < 4; i++) {
            const names: unknown = pick([
              null,
              [],
              false,
              () => [pick(adminFields)],
              () => [pick(adminFields), 'x_not_a_field', pick(adminFields)],
              () => (restrictedList.length > 0 ? [pick(adminFields), pick(restrictedList)] : [pick(adminFields)]),
              () => (restrictedList.length > 0 ? ['x_not_a_field', pick(restrictedList), pick(adminFields)] : ['x_not_a_field']),
            ] as unknown[]);
            const list = typeof names === 'function' ? (names as () => unknown)() : names;
            const native = await call(upstream, u.login, model, 'check_field_access_rights', [operation, list]);
            const through = await call(gateway.url, u.login, model, 'check_field_access_rights', [operation, list]);
            tally.fieldAccess++;
            if (native.includes('<fault>')) tally.fieldAccessFaults++;
            const what = `${u.login} ${model}.check_field_access_rights(${operation}, ${JSON.stringify(list)})`;
            const diffs = compareXmlrpcBodies(native, through);
            if (diffs.length === 0 && /<name>faultCode<\/name>\s*<value><int>4<\/int>/.test(native)) tally.fieldAccessErrorsEqual++;
            if (diffs.length === 0) tally.fieldAccessEqual++;
            else if (refusedThrough(through)) {
              tally.fieldAccessRefused++;
              listed.push(
                `${what}: refused (natively ${native.includes('<fault>') ? 'a fault' : 'an answer'}): ${/through its successor \w+\(\): ([^.]*)/.exec(through)?.[1] ?? ''}`,
              );
            } else note(what, diffs, native, through);
            if (values.verbose && diffs.length === 0) console.log(`ok ${what}`);
          }
        }
      }
    }

    const metrics = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
    const served = metrics.split('\n').filter((l) => l.startsWith('legacy_rpc_gateway_successor_calls_total{'));
    console.log(`read_group: ${tally.readGroupEqual}/${tally.readGroup} equal (${tally.faults} of them faults natively)`);
    console.log(`toggle_active: ${tally.toggleEqual}/${tally.toggle} equal`);
    console.log(`ir.http.get_currencies: ${tally.currenciesEqual}/${tally.currencies} equal`);
    console.log(`check_access_rights: ${tally.accessEqual}/${tally.access} equal`);
    console.log(
      `check_access_rule: ${tally.ruleEqual}/${tally.rule} equal (${tally.ruleFaults} faults natively, None being one over XML-RPC; ${tally.ruleAccessErrorsEqual} of the equal ones Odoo's AccessError/MissingError), ${tally.ruleRefused} refused by the gateway`,
    );
    console.log(
      `check_field_access_rights: ${tally.fieldAccessEqual}/${tally.fieldAccess} equal (${tally.fieldAccessFaults} faults natively; ${tally.fieldAccessErrorsEqual} of the equal ones Odoo's AccessError), ${tally.fieldAccessRefused} refused by the gateway`,
    );
    console.log(`successor calls (metrics): ${served.join(', ')}`);
    console.log(`differences COMPATIBILITY.md lists: ${listed.length}`);
    for (const d of listed) console.log(`LISTED ${d}`);
    console.log(`other differences: ${differences.length}`);
    for (const d of differences) console.log(`DIFF ${d}`);
    if (differences.length > 0) process.exitCode = 1;
  } finally {
    await gateway.close();
  }
}

await main();
