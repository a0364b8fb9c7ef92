import { describe, expect, it, vi } from 'vitest';
import { captureLog } from '../../test/support/captured-log.ts';
import type { LegacyCall } from '../call.ts';
import { accessDenied, LegacyError } from '../errors.ts';
import type { FormFields, FormFile, ManagerPage, WebDatabaseClient } from '../upstream/index.ts';
import { unknownDatabase } from '../upstream/index.ts';
import { StreamedString, type CallResult, type Value } from '../value.ts';
import { createDbService } from './db.ts';
import type { VersionCache } from './version-cache.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const origin = testCallOrigin({ requestId: 'r' });

/** A database manager holding `databases`, unprotected unless `master` is given. */
function fakeWeb(options: { databases?: string[]; master?: string; rename?: boolean; backup?: Buffer } = {}) {
  const databases = options.databases ?? ['gw', 'gw2'];
  const page: ManagerPage = {
    insecure: options.master === undefined,
    langs: [['fr_FR', 'French / Français']],
    countries: [['be', 'Belgium']],
  };
  const master = options.master ?? 'admin';
  const checked = (fields: FormFields) => {
    if (fields.find(([k]) => k === 'master_pwd')?.[1] !== master) throw accessDenied();
  };
  const submitted: [string, FormFields][] = [];
  const restored: [FormFields, FormFile][] = [];
  const web = {
    list: vi.fn(async () => [...databases]),
    manager: vi.fn(async () => page),
    submit: vi.fn(async (route: string, fields: FormFields) => {
      checked(fields);
      submitted.push([route, fields]);
    }),
    backup: vi.fn(async (fields: FormFields, name: string) => {
      checked(fields);
      // both managers refuse a name no database has (the master-password probe's)
      if (!databases.includes(name)) throw unknownDatabase(name);
      return (async function* backup() {
        yield options.backup ?? Buffer.from('PK\u0003\u0004backup');
      })();
    }),
    restore: vi.fn(async (fields: FormFields, file: FormFile) => {
      checked(fields);
      restored.push([fields, file]);
    }),
    managerKind: vi.fn(async () => (options.rename ? ('modules-db' as const) : ('service-db' as const))),
    forgetManager: vi.fn(),
  } satisfies WebDatabaseClient;
  return { web, submitted, restored, databases };
}

function service(
  web: WebDatabaseClient,
  databases: string[] = ['gw', 'gw2'],
  more: { serviceKey?: string; json2?: () => Promise<Value> } = {},
) {
  const versions: VersionCache = { get: async () => new Map(), serverVersion: async () => '19.0', remember: () => {}, serie: () => '19.0' };
  return createDbService({
    web,
    versions,
    probeDatabase: async (db) => {
      if (!databases.includes(db)) throw unknownDatabase(db);
    },
    json2: more.json2 ?? (async () => []),
    serviceKey: more.serviceKey,
    serviceDb: more.serviceKey === undefined ? undefined : 'gw',
    log: captureLog().log,
  });
}

const call = (method: string, ...params: Value[]): LegacyCall => ({ dialect: 'xmlrpc2', service: 'db', method, params });

async function run(dispatch: ReturnType<typeof service>, method: string, ...params: Value[]): Promise<CallResult | string> {
  try {
    return await dispatch(call(method, ...params), origin);
  } catch (err) {
    if (err instanceof LegacyError) return err.lastLine;
    throw err;
  }
}

describe('createDbService(): dispatch', () => {
  const { web } = fakeWeb();
  const db = service(web);

  it('refuses an unknown method with the KeyError of db.dispatch', async () => {
    expect(await run(db, 'foo', 'admin')).toBe("KeyError: 'Method not found: foo'");
  });

  it('takes params[0] as the master password: none at all is an IndexError', async () => {
    expect(await run(db, 'list_countries')).toBe('IndexError: tuple index out of range');
  });

  it('names a list, not a tuple, for the params of a JSON-RPC call', async () => {
    await expect(db({ ...call('list_countries'), dialect: 'jsonrpc' }, origin)).rejects.toMatchObject({
      lastLine: 'IndexError: list index out of range',
    });
  });

  it.each([
    ['drop', ['wrong', 'gw', 'extra'], 'odoo.exceptions.AccessDenied: Access Denied'],
    ['drop', ['admin', 'gw', 'extra'], 'TypeError: exp_drop() takes 1 positional argument but 2 were given'],
    ['dump', ['admin', 'gw'], "TypeError: exp_dump() missing 1 required positional argument: 'format'"],
    ['create_database', ['admin', 'gw9'], "TypeError: exp_create_database() missing 2 required positional arguments: 'demo' and 'lang'"],
    ['restore', ['wrong'], 'odoo.exceptions.AccessDenied: Access Denied'],
    ['list_countries', ['admin', 'x'], 'TypeError: exp_list_countries() takes 0 positional arguments but 1 was given'],
  ])('checks the master password before the arity: %s%j', async (method, params, lastLine) => {
    expect(await run(db, method, ...(params as Value[]))).toBe(lastLine);
  });

  it.each([
    ['db_exist', [], "TypeError: exp_db_exist() missing 1 required positional argument: 'db_name'"],
    ['list', [true, 1], 'TypeError: exp_list() takes from 0 to 1 positional arguments but 2 were given'],
    ['server_version', ['x'], 'TypeError: exp_server_version() takes 0 positional arguments but 1 was given'],
    ['list_lang', ['x'], 'TypeError: exp_list_lang() takes 0 positional arguments but 1 was given'],
  ])('runs %s without a password, with its arity', async (method, params, lastLine) => {
    expect(await run(db, method, ...(params as Value[]))).toBe(lastLine);
  });

  it.each([
    ['list', [], ['gw', 'gw2']],
    ['list', [true], ['gw', 'gw2']],
    ['db_exist', ['gw2'], true],
    ['db_exist', ['nope'], false],
    ['db_exist', ['  '], false],
    ['server_version', [], '19.0'],
    ['list_lang', [], [['fr_FR', 'French / Français']]],
    ['list_countries', ['admin'], [['be', 'Belgium']]],
  ])('%s%j → %j', async (method, params, result) => {
    expect(await run(db, method, ...(params as Value[]))).toEqual(result);
  });
});

describe('createDbService(): create, duplicate, drop, change_admin_password', () => {
  it.each([
    ['create_database', ['x y', false, 'en_US']],
    ['create_database', ['h', false, 'en_US']],
    ['duplicate_database', ['gw', '_gw']],
  ])('%s%j: a name legacy RPC takes but the manager refuses is a fault saying why, and nothing is sent', async (method, args) => {
    const { web, submitted } = fakeWeb();
    const db = service(web);
    expect(await run(db, method, 'admin', ...(args as Value[]))).toMatch(
      /^legacy_rpc_gateway\.NotSupported: db\.\w+: Odoo's database manager, through which the gateway creates databases, accepts only names of letters/,
    );
    expect(submitted).toEqual([]);
  });

  it('sends create_database as the create form reads it: defaults, phone always, demo and country only when set', async () => {
    const { web, submitted } = fakeWeb();
    const db = service(web);
    expect(await run(db, 'create_database', 'admin', 'gw6', false, 'en_US')).toBe(true);
    expect(await run(db, 'create_database', 'admin', 'gw7', true, 'fr_FR', 'pw', 'boss', 'BE', '+32')).toBe(true);
    expect(await run(db, 'create_database', 'admin', 'gw8', 0, 'en_US', 'pw', 'boss', null, null)).toBe(true);
    expect(submitted).toEqual([
      [
        'create',
        [
          ['master_pwd', 'admin'],
          ['name', 'gw6'],
          ['lang', 'en_US'],
          ['password', 'admin'],
          ['login', 'admin'],
          ['phone', ''],
        ],
      ],
      [
        'create',
        [
          ['master_pwd', 'admin'],
          ['name', 'gw7'],
          ['lang', 'fr_FR'],
          ['password', 'pw'],
          ['login', 'boss'],
          ['phone', '+32'],
          ['demo', '1'],
          ['country_code', 'BE'],
        ],
      ],
      [
        'create',
        [
          ['master_pwd', 'admin'],
          ['name', 'gw8'],
          ['lang', 'en_US'],
          ['password', 'pw'],
          ['login', 'boss'],
          ['phone', ''],
        ],
      ],
    ]);
  });

  it('sends neutralize_database only when truthy', async () => {
    const { web, submitted } = fakeWeb();
    const db = service(web);
    await run(db, 'duplicate_database', 'admin', 'gw', 'gw3');
    await run(db, 'duplicate_database', 'admin', 'gw', 'gw4', true);
    expect(submitted.map(([, f]) => f)).toEqual([
      [
        ['master_pwd', 'admin'],
        ['name', 'gw'],
        ['new_name', 'gw3'],
      ],
      [
        ['master_pwd', 'admin'],
        ['name', 'gw'],
        ['new_name', 'gw4'],
        ['neutralize_database', '1'],
      ],
    ]);
  });

  it('answers False for a name not listed, without sending a drop', async () => {
    const { web, submitted } = fakeWeb();
    const db = service(web);
    expect(await run(db, 'drop', 'admin', 'nope')).toBe(false);
    expect(submitted).toEqual([]);
    expect(await run(db, 'drop', 'admin', 'gw2')).toBe(true);
    expect(submitted).toEqual([
      [
        'drop',
        [
          ['master_pwd', 'admin'],
          ['name', 'gw2'],
        ],
      ],
    ]);
  });

  it('checks the password of a drop before the list, with a probe on a protected manager', async () => {
    const { web, submitted } = fakeWeb({ master: 'secret' });
    const db = service(web);
    expect(await run(db, 'drop', 'wrong', 'nope')).toBe('odoo.exceptions.AccessDenied: Access Denied');
    expect(web.list).not.toHaveBeenCalled();
    expect(await run(db, 'drop', 'secret', 'nope')).toBe(false);
    expect(submitted).toEqual([]);
    expect(web.backup.mock.calls.map(([, name]) => name)).toEqual([
      expect.stringMatching(/^legacy-rpc-gateway-probe-/),
      expect.stringMatching(/^legacy-rpc-gateway-probe-/),
    ]);
  });

  it('changes the master password through change_password', async () => {
    const { web, submitted } = fakeWeb();
    const db = service(web);
    expect(await run(db, 'change_admin_password', 'admin', 'n3w')).toBe(true);
    expect(await run(db, 'change_admin_password', 'admin', 7)).toBe('TypeError: secret must be unicode or bytes, not int');
    expect(submitted).toEqual([
      [
        'change_password',
        [
          ['master_pwd', 'admin'],
          ['master_pwd_new', 'n3w'],
        ],
      ],
    ]);
  });
});

describe('createDbService(): dump and restore', () => {
  it('answers a dump with a streamed string: the base64 of the backup, zip or dump format', async () => {
    const { web } = fakeWeb({ backup: Buffer.from('PGDMP-custom-format') });
    const db = service(web);
    const result = await run(db, 'dump', 'admin', 'gw', 'sql');
    expect(result).toBeInstanceOf(StreamedString);
    let text = '';
    for await (const chunk of (result as StreamedString).chunks) text += chunk;
    expect(text).toBe(Buffer.from('PGDMP-custom-format').toString('base64'));
    expect(web.backup.mock.calls[0]?.[0]).toEqual([
      ['master_pwd', 'admin'],
      ['name', 'gw'],
      ['backup_format', 'dump'],
    ]);
  });

  it('uploads a zip payload, decoded, as backup_file', async () => {
    const { web, restored } = fakeWeb();
    const db = service(web);
    const zip = Buffer.from('PK\u0003\u0004 a zip backup');
    expect(await run(db, 'restore', 'admin', 'gw5', zip.toString('base64'), true)).toBe(true);
    const [fields, file] = restored[0] as [FormFields, FormFile];
    expect(fields).toEqual([
      ['master_pwd', 'admin'],
      ['name', 'gw5'],
      ['copy', 'true'],
    ]);
    expect([file.field, file.filename, file.type, Buffer.concat([...file.chunks]).equals(zip)]).toEqual([
      'backup_file',
      'gw5.zip',
      'application/zip',
      true,
    ]);
  });

  it.each([
    ['a new name', 'gw5x', "Exception: Couldn't restore database"],
    ['an existing name', 'gw2', 'Exception: Database already exists'],
  ])('refuses a payload that is no backup, onto %s, without creating anything', async (_what, name, lastLine) => {
    const { web } = fakeWeb();
    const db = service(web);
    expect(await run(db, 'restore', 'admin', name, Buffer.from('not a dump').toString('base64'))).toBe(lastLine);
    expect(web.restore).not.toHaveBeenCalled();
  });

  it.each([
    [
      'a new name',
      'gw5x',
      "legacy_rpc_gateway.NotSupported: db.restore of a pg_dump custom-format backup: this Odoo's database manager restores zip backups only (dump the database with format 'zip'); nothing was created",
    ],
    ['an existing name', 'gw2', 'Exception: Database already exists'],
  ])(
    'refuses a pg_dump backup onto %s where the manager restores zip files only, without creating anything',
    async (_what, name, lastLine) => {
      const { web } = fakeWeb({ rename: true });
      const db = service(web);
      const dump = Buffer.from('PGDMP\u0000\u0001custom').toString('base64');
      expect(await run(db, 'restore', 'admin', name, dump)).toBe(lastLine);
      expect(web.restore).not.toHaveBeenCalled();
      const zip = Buffer.from('PK\u0003\u0004zip').toString('base64');
      expect(await run(db, 'restore', 'admin', 'gw6', zip)).toBe(true);
      expect(web.restore).toHaveBeenCalledTimes(1);
    },
  );

  it("answers a custom-format dump of a database that does not exist with pg_dump's empty output, a zip with the fault", async () => {
    const { web } = fakeWeb();
    const db = service(web);
    expect(await run(db, 'dump', 'admin', 'nope', 'dump')).toBe('');
    expect(await run(db, 'dump', 'admin', 'nope', 'zip')).toBe(
      'psycopg2.OperationalError: connection to server failed: FATAL:  database "nope" does not exist\n',
    );
    expect(await run(db, 'dump', 'wrong', 'nope', 'dump')).toBe('odoo.exceptions.AccessDenied: Access Denied');
  });

  it('checks the master password of a restore before its payload', async () => {
    const { web } = fakeWeb();
    const db = service(web);
    expect(await run(db, 'restore', 'wrong', 'gw5', 'garbage')).toBe('odoo.exceptions.AccessDenied: Access Denied');
    expect(await run(db, 'restore', 'admin', 'gw5', 5)).toBe(
      "TypeError: argument should be a bytes-like object or ASCII string, not 'int'",
    );
  });
});

describe('createDbService(): rename and migrate_databases', () => {
  it('renames through /web/database/rename where the upstream has it', async () => {
    const { web, submitted } = fakeWeb({ rename: true });
    const db = service(web);
    expect(await run(db, 'rename', 'admin', 'gw2', 'gw9')).toBe(true);
    expect(submitted).toEqual([
      [
        'rename',
        [
          ['master_pwd', 'admin'],
          ['name', 'gw2'],
          ['new_name', 'gw9'],
        ],
      ],
    ]);
  });

  it.each([
    [
      'rename',
      ['admin', 'gw2', 'gw9'],
      'legacy_rpc_gateway.NotSupported: db.rename has no replacement on this Odoo: it serves no /web/database/rename (Odoo 19.0 cannot rename a database over HTTP)',
    ],
    ['rename', ['wrong', 'gw2', 'gw9'], 'odoo.exceptions.AccessDenied: Access Denied'],
    [
      'migrate_databases',
      ['admin', ['gw']],
      'legacy_rpc_gateway.NotSupported: db.migrate_databases has no replacement in Odoo 19+: update the modules on the server (odoo-bin -u) instead',
    ],
    ['migrate_databases', ['wrong', ['gw']], 'odoo.exceptions.AccessDenied: Access Denied'],
  ])('answers %s%j with a clear fault where no replacement exists', async (method, params, lastLine) => {
    const { web } = fakeWeb();
    expect(await run(service(web), method, ...(params as Value[]))).toBe(lastLine);
  });
});
