/**
 * The legacy `db` service through the gateway, over real HTTP, in front of the simulator's
 * `/web/database/*`: master password safety, every function on both XML-RPC dialects and
 * `/jsonrpc`, the streamed dump (and its truncation when the upstream fails midway), restore,
 * rename where the upstream has it, and the language/country lists with their JSON-2 fallback —
 * each against every series the simulator plays (19.0's database manager, and the rewrite of
 * saas-19.1 and 20.0), answered as Odoo 19.0's legacy `db` answers.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Value } from '../../src/value.ts';
import { captureLog } from '../support/captured-log.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';
import { xmlrpcCall, type XmlRpcAnswer } from '../support/xmlrpc-call.ts';
import { personas, seriesNames } from '../../sim/index.ts';

describe.each(seriesNames)('against a %s upstream', (series) => {
  const later = series !== '19.0';
  let stack: Stack;
  const log = captureLog();
  beforeAll(async () => {
    stack = await startStack({ databases: ['gw', 'gw2'], log: log.log, sim: { series } });
  });
  beforeEach(() => {
    stack.sim.reset();
    stack.sim.clearLog();
  });
  afterAll(() => stack.close());

  const call = (method: string, ...params: Value[]) => xmlrpcCall(stack, 'xmlrpc2', 'db', method, params);
  const faultOf = (answer: XmlRpcAnswer) => ('fault' in answer ? answer.fault : undefined);
  const lastLine = (answer: XmlRpcAnswer) => faultOf(answer)?.faultString.trimEnd().split('\n').at(-1);
  /** The simulator's `/web/database/*` requests of the last calls, as `METHOD path`. */
  const managerRequests = () => stack.sim.log.filter((r) => r.path.startsWith('/web/database/')).map((r) => `${r.method} ${r.path}`);

  /** Protects the manager through the gateway, which forgets the unprotected page it saw (web-database.ts). */
  const protect = async (password: string) => {
    expect(await call('change_admin_password', 'admin', password)).toEqual({ result: true });
    stack.sim.clearLog();
  };

  /** The nine functions that take a master password, with arguments that would otherwise succeed. */
  const withMaster: [string, (pw: string) => Value[]][] = [
    ['create_database', (pw) => [pw, 'gw6', false, 'en_US']],
    ['duplicate_database', (pw) => [pw, 'gw2', 'gw3']],
    ['drop', (pw) => [pw, 'gw2']],
    ['dump', (pw) => [pw, 'gw', 'zip']],
    ['restore', (pw) => [pw, 'gw5', Buffer.from('PK\u0003\u0004').toString('base64')]],
    ['rename', (pw) => [pw, 'gw2', 'gw4']],
    ['change_admin_password', (pw) => [pw, 'new-master']],
    ['migrate_databases', (pw) => [pw, ['gw']]],
    ['list_countries', (pw) => [pw]],
  ];

  describe('master password safety', () => {
    it("refuses drop('wrong', …) on an unprotected manager without forwarding the password: the database stays, the master password too", async () => {
      expect(faultOf(await call('drop', 'wrong', 'gw2'))).toEqual({ faultCode: 3, faultString: 'Access Denied' });
      expect(stack.sim.databases()).toEqual(['gw', 'gw2']);
      expect(stack.sim.databaseManager.masterPassword).toBe('admin');
      expect(managerRequests()).toEqual(['GET /web/database/manager']);
    });

    it.each(withMaster)('refuses a bad master password on %s (unprotected manager, nothing forwarded)', async (method, args) => {
      expect(faultOf(await call(method, ...args('Takeover1')))).toEqual({ faultCode: 3, faultString: 'Access Denied' });
      expect(managerRequests().filter((r) => r.startsWith('POST'))).toEqual([]);
      expect([stack.sim.databaseManager.masterPassword, stack.sim.databases()]).toEqual(['admin', ['gw', 'gw2']]);
    });

    it.each(withMaster)('refuses a bad master password on %s (protected manager)', async (method, args) => {
      await protect('S3cret');
      expect(faultOf(await call(method, ...args('wrong')))).toEqual({ faultCode: 3, faultString: 'Access Denied' });
      expect([stack.sim.databaseManager.masterPassword, stack.sim.databases()]).toEqual(['S3cret', ['gw', 'gw2']]);
    });

    it('reads an unprotected manager page once for many wrong master passwords, as Odoo checks none of them', async () => {
      // two changes through the gateway: it remembers no page when the test starts
      await protect('S3cret');
      expect(await call('change_admin_password', 'S3cret', 'admin')).toEqual({ result: true });
      stack.sim.clearLog();
      for (let i = 0; i < 5; i++) {
        expect(faultOf(await call('drop', `wrong-${i}`, 'nope_x'))).toMatchObject({ faultCode: 3 });
        expect(faultOf(await call('dump', `wrong-${i}`, 'nope_x', 'zip'))).toMatchObject({ faultCode: 3 });
      }
      expect(managerRequests()).toEqual(['GET /web/database/manager']);
      expect(stack.sim.databaseManager.masterPassword).toBe('admin');
    });

    it('uses at once a master password a /web/database form set through the passthrough', async () => {
      expect(faultOf(await call('drop', 'wrong', 'nope_x'))).toMatchObject({ faultCode: 3 }); // the page is remembered
      const form = await stack.post(
        '/web/database/change_password',
        'master_pwd=admin&master_pwd_new=S3cret',
        'application/x-www-form-urlencoded',
      );
      expect(form.status).toBe(200); // the manager page its redirect leads to
      expect(stack.sim.databaseManager.masterPassword).toBe('S3cret');
      expect(await call('duplicate_database', 'S3cret', 'gw2', 'gw3')).toEqual({ result: true });
    });

    it('answers each dialect as Odoo does', async () => {
      expect(faultOf(await xmlrpcCall(stack, 'xmlrpc1', 'db', 'list_countries', ['wrong']))).toEqual({
        faultCode: 'AccessDenied',
        faultString: 'Access Denied',
      });
      const json = await stack.jsonrpc('db', 'change_admin_password', ['wrong', 'x']);
      expect(errorData(json.error)).toMatchObject({ name: 'odoo.exceptions.AccessDenied', message: 'Access Denied' });
    });

    it('uses a protected master password: forwarded, checked by Odoo', async () => {
      await protect('S3cret');
      expect(await call('duplicate_database', 'S3cret', 'gw2', 'gw3')).toEqual({ result: true });
      expect(await call('change_admin_password', 'S3cret', 'admin')).toEqual({ result: true });
      expect(stack.sim.databaseManager.masterPassword).toBe('admin');
      expect(stack.sim.databases()).toEqual(['gw', 'gw2', 'gw3']);
    });
  });

  describe('the functions', () => {
    it('lists, tells databases apart and names the server version without a password', async () => {
      expect(await call('list')).toEqual({ result: ['gw', 'gw2'] });
      expect(await call('list', true)).toEqual({ result: ['gw', 'gw2'] });
      expect(await call('db_exist', 'gw2')).toEqual({ result: true });
      expect(await call('db_exist', 'nope')).toEqual({ result: false });
      // the upstream's own version (`/web/version`): `saas~19.1`, `20.0` on the later personas
      expect(await call('server_version')).toEqual({ result: personas[series].release.version });
    });

    it.each([
      ['postgres', true],
      ['template1', true],
      ['template0', false],
    ])('answers db_exist(%j) %j for the databases every PostgreSQL cluster has, without asking the upstream', async (name, exists) => {
      stack.sim.clearLog();
      expect(await call('db_exist', name)).toEqual({ result: exists });
      expect(stack.sim.log).toHaveLength(0);
    });

    it.each([' gw2', 'gw2 ', '\tgw2', 'gw2\r\nX-Injected: 1', 'gw2\u0100'])(
      'answers db_exist(%j) False: no header carries that name exactly',
      async (name) => {
        expect(await call('db_exist', name)).toEqual({ result: false });
      },
    );

    it('creates, duplicates and drops databases; a name not listed drops nothing and answers False', async () => {
      expect(await call('create_database', 'admin', 'gw6', false, 'en_US', 'admin', 'admin', 'BE', '')).toEqual({ result: true });
      expect(await call('duplicate_database', 'admin', 'gw6', 'gw7')).toEqual({ result: true });
      expect(await call('db_exist', 'gw7')).toEqual({ result: true });
      expect(await call('drop', 'admin', 'gw6')).toEqual({ result: true });
      stack.sim.clearLog();
      expect(await call('drop', 'admin', 'nope')).toEqual({ result: false });
      // the manager page seen unprotected a moment ago is not asked again
      expect(managerRequests()).toEqual(['POST /web/database/list']);
      expect(await call('list')).toEqual({ result: ['gw', 'gw2', 'gw7'] });
    });

    it('answers the errors the manager page shows with the legacy exception', async () => {
      expect(lastLine(await call('duplicate_database', 'admin', 'gw2', 'gw'))).toBe(
        'psycopg2.errors.DuplicateDatabase: database "gw" already exists',
      );
      expect(faultOf(await xmlrpcCall(stack, 'xmlrpc1', 'db', 'duplicate_database', ['admin', 'nope', 'gw3x']))?.faultCode).toBe(
        'template database "nope" does not exist\n',
      );
      expect(lastLine(await call('create_database', 'admin', 'gw', false, 'en_US'))).toBe(
        "odoo.service.db.DatabaseExists: database 'gw' already exists!",
      );
      expect(lastLine(await call('dump', 'admin', 'nope', 'zip'))).toBe(
        'psycopg2.OperationalError: connection to server failed: FATAL:  database "nope" does not exist',
      );
      // exp_dump's custom format copies pg_dump's empty output for a database that does not exist
      expect(await call('dump', 'admin', 'nope', 'dump')).toEqual({ result: '' });
    });

    it.skipIf(later)('refuses rename with a clear fault on 19.0, and renames where the upstream has /web/database/rename', async () => {
      expect(lastLine(await call('rename', 'admin', 'gw2', 'gw4'))).toBe(
        'legacy_rpc_gateway.NotSupported: db.rename has no replacement on this Odoo: it serves no /web/database/rename (Odoo 19.0 cannot rename a database over HTTP)',
      );
      const renaming = await startStack({ databases: ['gw', 'gw2'], sim: { databaseManager: { renameRoute: true } } });
      try {
        expect(await xmlrpcCall(renaming, 'xmlrpc2', 'db', 'rename', ['admin', 'gw2', 'gw4'])).toEqual({ result: true });
        expect(renaming.sim.databases()).toEqual(['gw', 'gw4']);
      } finally {
        await renaming.close();
      }
    });

    it.runIf(later)("renames through the manager's rename route, its failures worded as 19.0's exp_rename", async () => {
      expect(await call('rename', 'admin', 'gw2', 'gw4')).toEqual({ result: true });
      expect(stack.sim.databases()).toEqual(['gw', 'gw4']);
      expect(lastLine(await call('rename', 'admin', 'gw4', 'gw'))).toBe(
        'Exception: Couldn\'t rename database gw4 to gw: database "gw" already exists',
      );
      expect(lastLine(await call('rename', 'admin', 'nope', 'gw9'))).toBe(
        'Exception: Couldn\'t rename database nope to gw9: database "nope" does not exist',
      );
      expect(faultOf(await call('rename', 'wrong', 'gw4', 'gw9'))).toEqual({ faultCode: 3, faultString: 'Access Denied' });
      expect(stack.sim.databases()).toEqual(['gw', 'gw4']);
    });

    it('answers migrate_databases with a clear fault', async () => {
      expect(lastLine(await call('migrate_databases', 'admin', ['gw']))).toBe(
        'legacy_rpc_gateway.NotSupported: db.migrate_databases has no replacement in Odoo 19+: update the modules on the server (odoo-bin -u) instead',
      );
    });
  });

  describe('dump and restore', () => {
    it('round-trips: dump → restore → list, the data intact', async () => {
      const dump = await call('dump', 'admin', 'gw2', 'zip');
      const zip = 'result' in dump ? (dump.result as string) : '';
      expect(Buffer.from(zip, 'base64').subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
      expect(await call('restore', 'admin', 'gw5', zip, true)).toEqual({ result: true });
      const pgdump = await stack.jsonrpc('db', 'dump', ['admin', 'gw2', 'dump']);
      expect(
        Buffer.from(pgdump.result as string, 'base64')
          .subarray(0, 5)
          .toString('latin1'),
      ).toBe('PGDMP');
      if (!later) expect(await call('restore', 'admin', 'gw6', pgdump.result as string)).toEqual({ result: true });
      expect(await call('list')).toEqual({ result: later ? ['gw', 'gw2', 'gw5'] : ['gw', 'gw2', 'gw5', 'gw6'] });
      expect(await stack.jsonrpc('db', 'db_exist', ['gw5'])).toEqual({ result: true });
    });

    it('refuses list with Access Denied while database listing is disabled', async () => {
      stack.sim.databaseManager.enabled = false;
      expect(faultOf(await call('list'))).toEqual({ faultCode: 3, faultString: 'Access Denied' });
    });

    it.runIf(later)('refuses a pg_dump backup the manager cannot restore before anything is created', async () => {
      const pgdump = await stack.jsonrpc('db', 'dump', ['admin', 'gw2', 'dump']);
      stack.sim.clearLog();
      expect(lastLine(await call('restore', 'admin', 'gw6', pgdump.result as string))).toBe(
        "legacy_rpc_gateway.NotSupported: db.restore of a pg_dump custom-format backup: this Odoo's database manager restores zip backups only (dump the database with format 'zip'); nothing was created",
      );
      expect(lastLine(await call('restore', 'admin', 'gw2', pgdump.result as string))).toBe('Exception: Database already exists');
      expect(managerRequests().filter((r) => r.includes('restore'))).toEqual([]);
      expect(stack.sim.databases()).toEqual(['gw', 'gw2']);
    });

    it.runIf(later)('checks a protected master password with a probe that changes nothing', async () => {
      await protect('S3cret');
      expect(await call('drop', 'S3cret', 'nope')).toEqual({ result: false });
      expect(faultOf(await call('drop', 'wrong', 'nope'))).toEqual({ faultCode: 3, faultString: 'Access Denied' });
      expect(await call('list_countries', 'S3cret')).toMatchObject({ result: expect.any(Array) });
      expect(managerRequests().filter((r) => r.startsWith('POST') && !r.endsWith('/list'))).toEqual([
        'POST /web/database/backup',
        'POST /web/database/backup',
        'POST /web/database/backup',
      ]);
      expect([stack.sim.databaseManager.masterPassword, stack.sim.databases()]).toEqual(['S3cret', ['gw', 'gw2']]);
    });

    it('refuses an invalid restore payload and creates nothing', async () => {
      expect(lastLine(await call('restore', 'admin', 'gw5x', Buffer.from('not a dump').toString('base64')))).toBe(
        "Exception: Couldn't restore database",
      );
      expect(lastLine(await call('restore', 'admin', 'gw2', Buffer.from('not a dump').toString('base64')))).toBe(
        'Exception: Database already exists',
      );
      expect(await call('list')).toEqual({ result: ['gw', 'gw2'] });
      expect(managerRequests().filter((r) => r.includes('restore'))).toEqual([]);
    });

    it('streams a big dump in chunks, whole and framed as Odoo frames one string', async () => {
      stack.sim.databaseManager.backupPadding = 3_000_000;
      const answer = await rawPost(stack.gateway.url, '/xmlrpc/2/db', dumpRequest('gw'));
      expect(answer.headers['transfer-encoding']).toBe('chunked');
      expect(answer.aborted).toBe(false);
      expect(answer.body.startsWith('<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value><string>UEsDB')).toBe(true);
      expect(answer.body.endsWith('</string></value>\n</param>\n</params>\n\n</methodResponse>\n')).toBe(true);
      expect(answer.body.length).toBeGreaterThan(4_000_000);
    });

    it.runIf(later)('answers a fault, never a partial answer, when the dump fails before the manager sends anything', async () => {
      stack.sim.databaseManager.backupPadding = 3_000_000;
      stack.sim.databaseManager.failBackupsAfter = 1_000_000;
      const answer = await rawPost(stack.gateway.url, '/xmlrpc/2/db', dumpRequest('gw'));
      expect(answer.aborted).toBe(false);
      expect(answer.body).toContain('<name>faultCode</name>');
      expect(answer.body).not.toContain('UEsDB');
    });

    it.skipIf(later)('cuts the answer short, never a success, when the upstream fails midway', async () => {
      stack.sim.databaseManager.backupPadding = 3_000_000;
      stack.sim.databaseManager.failBackupsAfter = 1_000_000;
      const answer = await rawPost(stack.gateway.url, '/xmlrpc/2/db', dumpRequest('gw'));
      expect(answer.aborted).toBe(true);
      expect(answer.body.startsWith('<?xml version="1.0"?>\n<methodResponse>\n<params>\n<param>\n<value><string>UEsDB')).toBe(true);
      expect(answer.body).not.toContain('</methodResponse>');
      expect(log.matching('streamed answer cut short').length).toBeGreaterThan(0);
      expect(log.matching('legacy call failed upstream').at(-1)).toMatchObject({ service: 'db', method: 'dump', faultCode: 1 });
    });
  });

  describe('list_lang and list_countries', () => {
    it("read the manager page's options", async () => {
      const langs = await call('list_lang');
      expect('result' in langs && (langs.result as Value[]).slice(0, 2)).toEqual([
        ['sq_AL', 'Albanian / Shqip'],
        ['am_ET', 'Amharic / አምሃርኛ'],
      ]);
      const countries = await call('list_countries', 'admin');
      expect('result' in countries && (countries.result as Value[]).length).toBe(251);
    });

    // the rewritten manager renders its page whatever list_db says
    it.skipIf(later)('fall back to JSON-2 with the service key when the manager is disabled', async () => {
      const fallback = await startStack({
        databases: ['gw'],
        sim: { databaseManager: { enabled: false } },
        flags: (sim) => ['--service-key', sim.keyFor('gw', 'admin'), '--service-db', 'gw'],
      });
      try {
        const langs = await xmlrpcCall(fallback, 'xmlrpc2', 'db', 'list_lang', []);
        const names = 'result' in langs ? (langs.result as [string, string][]).map(([, name]) => name) : [];
        expect(names.length).toBe(92);
        expect([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(names);
        const countries = await xmlrpcCall(fallback, 'xmlrpc2', 'db', 'list_countries', ['admin']);
        expect('result' in countries && (countries.result as Value[]).slice(0, 2)).toEqual([
          ['af', 'Afghanistan'],
          ['al', 'Albania'],
        ]);
        expect(faultOf(await xmlrpcCall(fallback, 'xmlrpc2', 'db', 'list_countries', ['wrong']))?.faultCode).toBe(3);
      } finally {
        await fallback.close();
      }
    });

    it.skipIf(later)('say what is missing when the manager is disabled and no service key is set', async () => {
      const bare = await startStack({ databases: ['gw'], sim: { databaseManager: { enabled: false } } });
      try {
        expect(lastLine(await xmlrpcCall(bare, 'xmlrpc2', 'db', 'list_lang', []))).toBe(
          "legacy_rpc_gateway.NotSupported: the upstream's database manager page is disabled and no --service-key / --service-db is set to read res.lang instead",
        );
      } finally {
        await bare.close();
      }
    });
  });
});

function dumpRequest(db: string): string {
  const param = (v: string) => `<param>\n<value><string>${v}</string></value>\n</param>\n`;
  return `<?xml version='1.0'?>\n<methodCall>\n<methodName>dump</methodName>\n<params>\n${param('admin')}${param(db)}${param('zip')}</params>\n</methodCall>\n`;
}

/** A raw POST that keeps what arrived when the connection is cut. */
function rawPost(
  base: string,
  path: string,
  body: string,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: string; aborted: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method: 'POST', headers: { 'content-type': 'text/xml' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let aborted = false;
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('aborted', () => {
        aborted = true;
      });
      res.on('error', () => {
        aborted = true;
      });
      res.on('close', () =>
        resolve({ headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), aborted: aborted || !res.complete }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}
