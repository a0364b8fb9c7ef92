/**
 * The calls of the differential tester (`npm run conformance:odoo`): a systematic part (every
 * service function, every domain operator on every field type, every argument shape, every value
 * type, in each dialect) and a seeded random part drawing from the same pools, so a run is
 * reproducible from its seed. Writes (`create`, `write`, `unlink`, `copy`) are marked: the runner
 * sends them to a scratch database only and reads written records back from both sides.
 */
import { PyBinary, PyDateTime, PyFloat, struct, type Value } from '../../src/value.ts';

export type Dialect = 'xmlrpc2' | 'xmlrpc1' | 'jsonrpc';
export const dialects: readonly Dialect[] = ['xmlrpc2', 'xmlrpc1', 'jsonrpc'];

/** A legacy user the calls run as; `password` may be wrong on purpose. */
export interface User {
  uid: Value;
  password: Value;
}

/** One generated legacy call. `write` marks calls that change records (read back by the runner). */
export interface GeneratedCall {
  /** What it exercises, for grouping: `object.search_count domain-operator`, `db.db_exist`. */
  family: string;
  dialect: Dialect;
  service: string;
  method: string;
  /** The params after the database (the runner puts the scratch database first where it belongs). */
  params: Value[];
  /** Whether the database goes first (object, common.login/authenticate, db_exist). */
  db: 'first' | 'none' | 'given';
  write?: 'create' | 'write' | 'unlink' | 'copy';
  /** Object calls: who runs them (`uid, password` follow the database). */
  user?: User;
  /** The path to POST to instead of the dialect's own (`/xmlrpc`, a path naming no service). */
  path?: string;
}

/** admin and demo of the tester's database copy, and users that are wrong on purpose. */
export const users = {
  admin: { uid: 2, password: 'admin' },
  demo: { uid: 5, password: 'demo' },
  wrongPassword: { uid: 2, password: 'not-the-password' },
  uidZero: { uid: 0, password: 'admin' },
  unknownUid: { uid: 999999, password: 'admin' },
  uidAsText: { uid: '2', password: 'admin' },
  noPassword: { uid: 2, password: '' },
} satisfies Record<string, User>;

/** Mostly admin and demo; now and then a user that is wrong (few: each is a failed web login). */
function pickUser(random: () => number): User {
  const r = random();
  if (r < 0.7) return users.admin;
  if (r < 0.95) return users.demo;
  return pick(random, [users.wrongPassword, users.uidZero, users.unknownUid, users.uidAsText, users.noPassword]);
}

/** mulberry32: small, fast and the same in every Node version. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** The models the object calls go to, with a field of each type they have. */
export const models: Record<string, Record<string, string>> = {
  'res.partner': {
    id: 'integer',
    name: 'char',
    email: 'char',
    active: 'boolean',
    color: 'integer',
    credit_limit: 'float',
    type: 'selection',
    comment: 'html',
    create_date: 'datetime',
    country_id: 'many2one',
    parent_id: 'many2one',
    category_id: 'many2many',
    child_ids: 'one2many',
  },
  'res.users': { id: 'integer', login: 'char', active: 'boolean', partner_id: 'many2one', group_ids: 'many2many', create_date: 'datetime' },
  'res.country': { id: 'integer', name: 'char', code: 'char', phone_code: 'integer', currency_id: 'many2one' },
  'res.currency': { id: 'integer', name: 'char', rounding: 'float', active: 'boolean', decimal_places: 'integer' },
  // color last: its default is random (randint), so default_get and read-back never ask for it
  'res.partner.category': { id: 'integer', name: 'char', parent_id: 'many2one', partner_ids: 'many2many', color: 'integer' },
  'res.company': { id: 'integer', name: 'char', currency_id: 'many2one', partner_id: 'many2one' },
  'res.lang': { id: 'integer', name: 'char', code: 'char', active: 'boolean', date_format: 'char' },
  'ir.model': { id: 'integer', model: 'char', name: 'char', transient: 'boolean' },
};

export const operators = [
  '=',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  'like',
  'ilike',
  'not like',
  'not ilike',
  '=like',
  '=ilike',
  'in',
  'not in',
  'child_of',
  'parent_of',
  'any',
  'not any',
  '<>',
  '=?',
  'bogus',
] as const;

/** Values of every XML-RPC type, and a few that are wrong on purpose. */
export function valuePool(dialect: Dialect): Value[] {
  const pool: Value[] = [
    1,
    2,
    0,
    -1,
    3000000000,
    new PyFloat(1.5),
    new PyFloat(0),
    'a',
    'Azure',
    '',
    '%a%',
    'ü€😀',
    true,
    false,
    null,
    [],
    [1, 2],
    ['a', 'b'],
    [true],
    struct({ a: 1 }),
    new Map(),
  ];
  // JSON-RPC carries neither: the runner would send them as text, which is another call
  if (dialect !== 'jsonrpc') pool.push(new PyDateTime('2020-01-02 03:04:05'), new PyBinary('aGVsbG8='));
  return pool;
}

const contexts: Value[] = [
  struct({ lang: 'fr_FR' }),
  struct({ active_test: false }),
  struct({ tz: 'Europe/Brussels' }),
  struct({ lang: 'xx_XX' }),
  struct({ lang: 'en_US', tz: 'UTC', active_test: true }),
  null,
  new Map(),
  'ctx',
  5,
  [1],
];

/** Domains for one model: each operator on each field, with a value drawn from the pool. */
function domainsFor(model: string, random: () => number, dialect: Dialect, all: boolean): Value[] {
  const fields = Object.keys(models[model] as Record<string, string>);
  const out: Value[] = [];
  for (const field of fields) {
    const ops = all ? operators : [pick(random, operators)];
    for (const op of ops) out.push([[field, op, pick(random, valuePool(dialect))]]);
  }
  return out;
}

function read(model: string, method: string, args: Value, kwargs?: Value, family = `object.${method}`): Omit<GeneratedCall, 'dialect'> {
  return {
    family,
    service: 'object',
    method: 'execute_kw',
    db: 'first',
    params: kwargs === undefined ? [model, method, args] : [model, method, args, kwargs],
  };
}

/** The calls of one dialect before the user is put in (object calls carry `uid, password` after the db). */
function objectCalls(dialect: Dialect, random: () => number, systematic: boolean): Omit<GeneratedCall, 'dialect'>[] {
  const out: Omit<GeneratedCall, 'dialect'>[] = [];
  const model = systematic ? undefined : pick(random, Object.keys(models));
  for (const m of model === undefined ? Object.keys(models) : [model]) {
    const fields = Object.keys(models[m] as Record<string, string>);
    for (const domain of domainsFor(m, random, dialect, systematic)) {
      out.push(read(m, 'search_count', [domain], undefined, 'object.search_count domain'));
      if (systematic || random() < 0.3) out.push(read(m, 'search', [domain], struct({ limit: 5, order: 'id' }), 'object.search domain'));
    }
    out.push(read(m, 'search_read', [[]], struct({ fields: fields.slice(0, 4), limit: 3, order: 'id' })));
    out.push(read(m, 'read', [[1, 2], fields.slice(0, 5)]));
    out.push(read(m, 'fields_get', [], struct({ attributes: ['type', 'string'] })));
    out.push(read(m, 'name_search', [pick(random, ['a', '', 'zz', 'Y'])], struct({ limit: 4 })));
    out.push(read(m, 'default_get', [fields.slice(0, 3)]));
    out.push(
      read(m, 'check_access_rights', [pick(random, ['read', 'write', 'create', 'unlink', 'bogus'])], struct({ raise_exception: false })),
    );
    out.push(read(m, 'search_count', [[]], struct({ context: pick(random, contexts) }), 'object.context'));
    out.push(read(m, 'read', [[1], ['display_name']], struct({ context: pick(random, contexts) }), 'object.context'));
  }
  // argument shapes: what `args` and `kw` can be
  for (const args of [
    null,
    5,
    'ab',
    '',
    struct({ '1': 2 }),
    new Map(),
    [[]],
    [[], 1, 2, 3, 4, 5],
    [true],
    [[true], ['name']],
    [[1, true], ['name']],
  ]) {
    for (const method of ['search', 'read']) out.push(read('res.partner', method, args, undefined, 'object.args-shape'));
  }
  for (const kw of [null, [], [['limit', 1]], 'x', 5, struct({ limit: 'x' }), struct({ bogus: 1 }), struct({ context: 5 })]) {
    out.push(read('res.partner', 'search', [[]], kw, 'object.kwargs-shape'));
  }
  // names: models and methods that do not exist, are private, are no str, were removed
  for (const [m, method] of [
    ['no.such.model', 'search'],
    ['', 'search'],
    ['res/partner', 'search'],
    [null, 'search'],
    [5, 'search'],
    ['res.partner', '_read'],
    ['res.partner', 'no_such_method'],
    ['res.partner', ''],
    ['res.partner', 'a/b'],
    ['res.partner', null],
    ['res.partner', 'user_has_groups'],
    ['res.partner', 'name_get'],
    ['res.partner', 'browse'],
    ['res.partner', 'exists'],
    ['res.partner', 'sudo'],
  ] as [Value, Value][]) {
    out.push({ family: 'object.names', service: 'object', method: 'execute_kw', db: 'first', params: [m, method, [[]]] });
  }
  out.push(...unmarshallableCalls(), ...binaryFieldCalls(), ...contextOrderCalls(random), ...keywordOnlyCalls(), ...unboundMethodCalls());
  out.push({ family: 'object.execute', service: 'object', method: 'execute', db: 'first', params: ['res.partner', 'search_count', []] });
  out.push({
    family: 'object.execute',
    service: 'object',
    method: 'execute',
    db: 'first',
    params: ['res.partner', 'search', [['is_company', '=', true]], 0, 3],
  });
  out.push({ family: 'object.bad-method', service: 'object', method: 'execute_foo', db: 'first', params: ['res.partner', 'search', [[]]] });
  return out;
}

/** Results XML-RPC cannot marshal though JSON can: dicts keyed by ids, copy_data's properties values. */
function unmarshallableCalls(): Omit<GeneratedCall, 'dialect'>[] {
  return [
    read('res.currency', 'get_all_currencies', [], undefined, 'object.unmarshallable'),
    read('ir.ui.menu', 'load_menus', [false], undefined, 'object.unmarshallable'),
    read(
      'account.fiscal.position',
      'search_read',
      [[]],
      struct({ fields: ['name', 'tax_map', 'account_map'], order: 'id' }),
      'object.unmarshallable',
    ),
    read('res.partner', 'copy_data', [[1]], undefined, 'object.unmarshallable'),
    read('res.users', 'copy_data', [[2]], undefined, 'object.unmarshallable'),
    read('product.product', 'copy_data', [[1]], undefined, 'object.unmarshallable'),
    read('product.template', 'copy_data', [[1]], undefined, 'object.unmarshallable'),
    read('res.partner.category', 'copy_data', [[1]], undefined, 'object.unmarshallable'),
  ];
}

/** Binary fields: base64 text, and `raw` bytes (a PDF's are no UTF-8). */
function binaryFieldCalls(): Omit<GeneratedCall, 'dialect'>[] {
  return [
    read(
      'ir.attachment',
      'search_read',
      [[['mimetype', '=', 'application/pdf']]],
      struct({ fields: ['name', 'raw'], limit: 1, order: 'id' }),
      'object.binary',
    ),
    read(
      'ir.attachment',
      'search_read',
      [[['mimetype', '=', 'application/pdf']]],
      struct({ fields: ['name', 'datas'], limit: 1, order: 'id' }),
      'object.binary',
    ),
    read(
      'ir.attachment',
      'search_read',
      [[['mimetype', 'like', 'image']]],
      struct({ fields: ['raw', 'datas', 'file_size'], limit: 2, order: 'id' }),
      'object.binary',
    ),
    read(
      'res.partner',
      'read',
      [
        [1, 3],
        ['image_128', 'avatar_128'],
      ],
      undefined,
      'object.binary',
    ),
    read('res.users', 'read', [[2], ['image_1920']], undefined, 'object.binary'),
  ];
}

/** Contexts that are no dict, met after the model, the method and the ids, before the binding. */
function contextOrderCalls(random: () => number): Omit<GeneratedCall, 'dialect'>[] {
  const context = pick(random, ['ctx', 5, [1], [['lang', 'fr_FR']], [[1, 2]], [[[1], 2]], new PyFloat(1.5), true] as Value[]);
  const kw = struct({ context });
  return [
    read('res.partner', 'no_such_method', [[]], kw, 'object.context-order'),
    read('no.such.model', 'search', [[]], kw, 'object.context-order'),
    read('res.partner', 'read', [], kw, 'object.context-order'),
    read('res.partner', 'search', [[], 0, 1, 'id', false, 9, 9], kw, 'object.context-order'),
    read('res.partner', 'search_count', [[]], struct({ context, bogus: 1 }), 'object.context-order'),
    read('res.partner', 'name_search', ['a'], kw, 'object.context-order'),
  ];
}

/** Methods with keyword-only parameters called positionally (each fails binding: nothing is posted). */
function keywordOnlyCalls(): Omit<GeneratedCall, 'dialect'>[] {
  return [
    read('res.partner', 'message_post', [[1], 'hello'], undefined, 'object.keyword-only'),
    read('res.partner', 'message_post', [[1], 'hello', 'subject'], struct({ subject: 'x' }), 'object.keyword-only'),
    read('res.partner', 'message_post', [[1], 'hello'], struct({ body: 'x', message_type: 'comment' }), 'object.keyword-only'),
    read('res.partner.category', 'message_post', [[1], 'hello'], undefined, 'object.keyword-only'),
    read('res.users', 'message_post', [[2], 'hello'], undefined, 'object.keyword-only'),
  ];
}

/**
 * Classmethods and staticmethods (src/signatures/unbound-methods.ts): `call_kw` passes the browsed
 * `args[0]` as their first parameter, so each argument shape meets Python's binding there.
 */
function unboundMethodCalls(): Omit<GeneratedCall, 'dialect'>[] {
  const out: Omit<GeneratedCall, 'dialect'>[] = [];
  const shapes: [Value, Value?][] = [
    [[['base']]],
    [['base']],
    [[[]]],
    [[[1]]],
    [[1]],
    [[]],
    [[['base'], 'x']],
    [[['base']], struct({ name: 'base' })],
    [[[]], struct({ cls: 'x' })],
    [[[]], struct({ terp: struct({}) })],
  ];
  for (const [model, method] of [
    ['ir.module.module', 'get_module_info'],
    ['ir.module.module', 'get_values_from_terp'],
    ['res.partner', 'is_transient'],
    ['ir.http', 'is_a_bot'],
    ['ir.http', 'get_utm_domain_cookies'],
  ]) {
    for (const [args, kwargs] of shapes) out.push(read(model as string, method as string, args, kwargs, 'object.classmethod'));
  }
  return out;
}

/** Refusals, for their error envelopes: AccessDenied (a wrong password) and AccessError (demo where it may not go). */
function accessCalls(): Omit<GeneratedCall, 'dialect'>[] {
  return [
    { ...read('res.partner', 'search_count', [[]], undefined, 'object.access'), user: users.wrongPassword },
    { ...read('res.partner', 'read', [[1], ['name']], undefined, 'object.access'), user: users.wrongPassword },
    { ...read('ir.config_parameter', 'search_read', [[]], struct({ fields: ['key'], limit: 1 }), 'object.access'), user: users.demo },
    { ...read('ir.rule', 'search', [[]], undefined, 'object.access'), user: users.demo },
    { ...read('res.users', 'write', [[2], struct({ name: 'Not allowed' })], undefined, 'object.access'), user: users.demo },
    { ...read('res.company', 'write', [[1], struct({ name: 'Not allowed' })], undefined, 'object.access'), user: users.demo },
  ];
}

/**
 * What legacy RPC's missing HTTP request changes (issue 45): `@check_identity` methods, refused by
 * Odoo before their arguments are bound, and the language `_()` writes stored texts in: `copy` of
 * models whose `"%s (copy)"` is translated in a method's frame (product.category) and in a
 * comprehension's (account.payment.term), without and with a `lang` in the context.
 */
function requestLessCalls(): Omit<GeneratedCall, 'dialect'>[] {
  const out: Omit<GeneratedCall, 'dialect'>[] = [
    read('res.users', 'api_key_wizard', [[2]], undefined, 'object.identity-checked'),
    read('res.users', 'api_key_wizard', [[2], 'extra', 'args'], struct({ z: 1 }), 'object.identity-checked'),
    read('res.users', 'preference_change_password', [[2]], undefined, 'object.identity-checked'),
    read('res.users.apikeys.description', 'make_key', [[]], undefined, 'object.identity-checked'),
    read('res.users.apikeys', 'remove', [[]], struct({ context: struct({ lang: 'en_US' }) }), 'object.identity-checked'),
    { ...read('res.users', 'api_key_wizard', [[5]], undefined, 'object.identity-checked'), user: users.demo },
  ];
  for (const model of ['product.category', 'account.payment.term'])
    for (const kwargs of [undefined, struct({ context: struct({ lang: 'fr_FR' }) })])
      out.push({ ...read(model, 'copy', [[]], kwargs, 'object.copy-language'), write: 'copy' });
  return out;
}

/** Writes on `res.partner` and `res.partner.category`, with values of every type (the runner reads records back). */
function writeCalls(dialect: Dialect, random: () => number): Omit<GeneratedCall, 'dialect'>[] {
  const value = () => pick(random, valuePool(dialect));
  const values = [
    struct({ name: 'Differential A' }),
    struct({ name: 'Differential B', email: 'b@example.com', color: 3, credit_limit: new PyFloat(12.5), comment: '<p>x</p>' }),
    struct({ name: 'Differential C', category_id: [[6, 0, [1, 2]]], type: 'invoice' }),
    struct({ name: 'Differential D', child_ids: [[0, 0, struct({ name: 'Child' })]] }),
    struct({ name: 'Differential E', comment: value() }),
    struct({ name: value() }),
    struct({ name: 'Differential F', color: value() }),
    struct({ name: 'Differential G', active: value() }),
    struct({ name: 'Differential H', bogus_field: 1 }),
    struct({ name: 'Differential I', type: 'bogus' }),
  ];
  const out: Omit<GeneratedCall, 'dialect'>[] = [];
  for (const v of values) {
    out.push({
      family: 'object.create',
      service: 'object',
      method: 'execute_kw',
      db: 'first',
      params: ['res.partner', 'create', [v]],
      write: 'create',
    });
  }
  out.push({
    family: 'object.create',
    service: 'object',
    method: 'execute_kw',
    db: 'first',
    params: ['res.partner', 'create', [[values[0] as Value, values[1] as Value]]],
    write: 'create',
  });
  out.push({
    family: 'object.create',
    service: 'object',
    method: 'execute_kw',
    db: 'first',
    params: ['res.partner.category', 'create', [struct({ name: `Tag ${Math.floor(random() * 1000)}` })]],
    write: 'create',
  });
  for (const v of [
    struct({ name: 'Renamed' }),
    struct({ comment: value() }),
    struct({ color: value() }),
    struct({ category_id: [[4, 1]] }),
    struct({ no_field: 1 }),
  ]) {
    out.push({
      family: 'object.write',
      service: 'object',
      method: 'execute_kw',
      db: 'first',
      params: ['res.partner', 'write', [[], v]],
      write: 'write',
    });
  }
  out.push({
    family: 'object.copy',
    service: 'object',
    method: 'execute_kw',
    db: 'first',
    params: ['res.partner', 'copy', [[]]],
    write: 'copy',
  });
  out.push({
    family: 'object.unlink',
    service: 'object',
    method: 'execute_kw',
    db: 'first',
    params: ['res.partner', 'unlink', [[]]],
    write: 'unlink',
  });
  return out;
}

function otherServiceCalls(random: () => number): Omit<GeneratedCall, 'dialect'>[] {
  const name = () => pick(random, ['postgres', 'template0', 'template1', 'no_such_db', '', ' gw', 'gw ', 'gw\u0100', 'GW']);
  return [
    { family: 'common.version', service: 'common', method: 'version', db: 'none', params: [] },
    { family: 'common.version', service: 'common', method: 'version', db: 'none', params: [1] },
    { family: 'common.about', service: 'common', method: 'about', db: 'none', params: [] },
    { family: 'common.about', service: 'common', method: 'about', db: 'none', params: [true] },
    { family: 'common.bad', service: 'common', method: 'nope', db: 'none', params: [] },
    { family: 'common.login', service: 'common', method: 'login', db: 'first', params: ['admin', 'admin'] },
    { family: 'common.login', service: 'common', method: 'login', db: 'first', params: ['nobody', 'x'] },
    { family: 'common.login', service: 'common', method: 'login', db: 'first', params: ['nobody', pick(random, [5, true, null, ''])] },
    { family: 'common.authenticate', service: 'common', method: 'authenticate', db: 'first', params: ['demo', 'demo', struct({})] },
    {
      family: 'common.authenticate',
      service: 'common',
      method: 'authenticate',
      db: 'first',
      params: ['demo', 'demo', pick(random, [null, 5, [], 'x'])],
    },
    {
      family: 'common.database-name',
      service: 'common',
      method: 'login',
      db: 'given',
      params: [pick(random, [null, '', 5, true, ['gw'], ' x', 'x\ty']), 'admin', 'admin'],
    },
    { family: 'db.server_version', service: 'db', method: 'server_version', db: 'none', params: [] },
    { family: 'db.db_exist', service: 'db', method: 'db_exist', db: 'none', params: [name()] },
    { family: 'db.db_exist', service: 'db', method: 'db_exist', db: 'first', params: [] },
    { family: 'db.list_lang', service: 'db', method: 'list_lang', db: 'none', params: [] },
    { family: 'db.list_countries', service: 'db', method: 'list_countries', db: 'none', params: ['admin'] },
    { family: 'db.list_countries', service: 'db', method: 'list_countries', db: 'none', params: ['wrong'] },
    { family: 'db.bad', service: 'db', method: 'nope', db: 'none', params: [] },
    { family: 'service.bad', service: 'report', method: 'x', db: 'none', params: [] },
    // paths that name no service: Odoo's 404 no-database page (or, for `/xmlrpc/2`, the v1 route of service '2')
    ...['/xmlrpc', '/xmlrpc/', '/xmlrpc/2', '/xmlrpc/2/', '//xmlrpc'].map((path) => ({
      family: 'service.bare-path',
      service: '',
      method: 'version',
      db: 'none' as const,
      params: [],
      path,
    })),
  ];
}

/** A call to an XML-RPC path of its own goes as XML-RPC (v1: the path names the endpoint, not the dialect). */
function dialectFor(call: Omit<GeneratedCall, 'dialect'>, dialect: Dialect): Dialect {
  return call.path !== undefined && dialect === 'jsonrpc' ? 'xmlrpc1' : dialect;
}

/**
 * `count` calls: the systematic set first (each dialect once), then seeded random draws from the
 * same families, each with a random dialect.
 */
export function generateCalls(count: number, seed: number): GeneratedCall[] {
  const random = seededRandom(seed);
  const out: GeneratedCall[] = [];
  const withUser = (c: Omit<GeneratedCall, 'dialect'>, user: User) => (c.service === 'object' ? { ...c, user } : c);
  for (const dialect of dialects) {
    for (const c of [...otherServiceCalls(random), ...objectCalls(dialect, random, true), ...writeCalls(dialect, random)])
      out.push({ ...withUser(c, users.admin), dialect: dialectFor(c, dialect) });
    for (const c of accessCalls()) out.push({ ...c, dialect });
    for (const c of requestLessCalls()) out.push({ ...withUser(c, c.user ?? users.admin), dialect });
    for (const user of Object.values(users))
      out.push({
        family: 'object.users',
        dialect,
        service: 'object',
        method: 'execute_kw',
        db: 'first',
        params: ['res.partner', 'search_count', [[]]],
        user,
      });
  }
  while (out.length < count) {
    const dialect = pick(random, dialects);
    const r = random();
    if (r < 0.02) {
      out.push({ ...pick(random, accessCalls()), dialect });
      continue;
    }
    const batch = r < 0.1 ? otherServiceCalls(random) : r < 0.2 ? writeCalls(dialect, random) : objectCalls(dialect, random, false);
    const call = pick(random, batch);
    out.push({ ...withUser(call, call.write ? users.admin : pickUser(random)), dialect: dialectFor(call, dialect) });
  }
  return out.slice(0, Math.max(count, 0));
}
