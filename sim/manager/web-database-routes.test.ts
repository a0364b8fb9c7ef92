/**
 * The database manager (Odoo: `addons/web/controllers/database.py`, fixtures/conformance/INDEX.md findings §10): the manager page, the
 * JSON-RPC list, create/duplicate/drop/backup/restore/change_password with Odoo's redirects and error pages, the takeover of an unprotected
 * manager, and the rename route of later versions behind its switch.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseManagerPage } from '../../src/upstream/manager-page.ts';
import { dumpTextOf } from './database-backup.ts';
import { type Simulator, startSimulator } from '../index.ts';
import { readZip } from './zip.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ databases: ['gw', 'gw2'] });
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

async function post(route: string, fields: Record<string, string>) {
  const res = await fetch(`${sim.url}/web/database/${route}`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  const text = body.toString('utf8');
  return {
    status: res.status,
    location: res.headers.get('location'),
    contentType: res.headers.get('content-type'),
    body,
    text,
    error: /<div class="alert alert-danger">([\s\S]*?)<\/div>/.exec(text)?.[1],
  };
}

async function restore(fields: Record<string, string>, file: Buffer) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('backup_file', new Blob([file]), 'backup.zip');
  const res = await fetch(`${sim.url}/web/database/restore`, { method: 'POST', body: form, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, error: /<div class="alert alert-danger">([\s\S]*?)<\/div>/.exec(text)?.[1] };
}

describe('/web/database/manager and /list', () => {
  it('renders the manager page with the databases and the unprotected warning', async () => {
    const res = await fetch(`${sim.url}/web/database/manager`);
    const page = parseManagerPage(await res.text());
    expect([res.status, page.insecure, page.langs?.length, page.countries?.length]).toEqual([200, true, 92, 251]);
  });

  it('lists the databases over JSON-RPC', async () => {
    const res = await fetch(`${sim.url}/web/database/list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc": "2.0", "method": "call", "params": {}, "id": 1}',
    });
    expect(await res.text()).toBe('{"jsonrpc": "2.0", "id": 1, "result": ["gw", "gw2"]}');
  });

  it('serves neither page nor list, and refuses every operation, when disabled', async () => {
    sim.databaseManager.enabled = false;
    expect((await fetch(`${sim.url}/web/database/manager`)).status).toBe(404);
    const list = await fetch(`${sim.url}/web/database/list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"params": {}}',
    });
    expect(await list.text()).toContain('"name": "odoo.exceptions.AccessDenied"');
    expect((await post('drop', { master_pwd: 'admin', name: 'gw2' })).error).toBe('Database deletion error: Access Denied');
    expect(sim.databases()).toEqual(['gw', 'gw2']);
  });
});

describe('form posts', () => {
  it('duplicates, drops (a missing name too) and changes the master password with 303 redirects', async () => {
    expect(await post('duplicate', { master_pwd: 'admin', name: 'gw2', new_name: 'gw3' })).toMatchObject({
      status: 303,
      location: '/web/database/manager',
    });
    expect(sim.databases()).toEqual(['gw', 'gw2', 'gw3']);
    expect(await post('drop', { master_pwd: 'admin', name: 'gw3' })).toMatchObject({ status: 303, location: '/web/database/manager' });
    expect(await post('drop', { master_pwd: 'admin', name: 'nope' })).toMatchObject({ status: 303, location: '/web/database/manager' });
    expect(await post('change_password', { master_pwd: 'admin', master_pwd_new: 'Secret123' })).toMatchObject({ status: 303 });
    expect(sim.databaseManager.masterPassword).toBe('Secret123');
    expect(sim.databases()).toEqual(['gw', 'gw2']);
  });

  it("gives a duplicate its source's API keys, a key made in the source after the copy staying the source's", async () => {
    const before = sim.keys.add({ uid: 2, name: 'made in gw2', db: 'gw2' });
    expect((await post('duplicate', { master_pwd: 'admin', name: 'gw2', new_name: 'gw3' })).status).toBe(303);
    const after = sim.keys.add({ uid: 2, name: 'made in gw2 later', db: 'gw2' });
    expect([before, after].map((k) => ['gw', 'gw2', 'gw3'].map((db) => sim.keys.check(k.key, 'rpc', db)))).toEqual([
      [undefined, 2, 2],
      [undefined, 2, undefined],
    ]);
  });

  it('drops the keys made in a dropped database: one created again under its name holds none of them', async () => {
    expect((await post('duplicate', { master_pwd: 'admin', name: 'gw2', new_name: 'gw4' })).status).toBe(303);
    const made = sim.keys.add({ uid: 2, name: 'made in gw4', db: 'gw4' });
    expect(sim.keys.check(made.key, 'rpc', 'gw4')).toBe(2);
    expect((await post('drop', { master_pwd: 'admin', name: 'gw4' })).status).toBe(303);
    expect(sim.keys.find(made.key)).toBeUndefined();
    expect((await post('duplicate', { master_pwd: 'admin', name: 'gw2', new_name: 'gw4' })).status).toBe(303);
    expect(sim.keys.check(made.key, 'rpc', 'gw4')).toBeUndefined();
    expect((await post('drop', { master_pwd: 'admin', name: 'gw4' })).status).toBe(303);
  });

  it('creates a database whose admin logs in with the form login and password, and redirects to /odoo', async () => {
    const res = await post('create', { master_pwd: 'admin', name: 'gw6', lang: 'en_US', password: 'pw6', login: 'boss', phone: '' });
    expect([res.status, res.location]).toEqual([303, '/odoo']);
    const auth = await fetch(`${sim.url}/web/session/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params: { db: 'gw6', login: 'boss', password: 'pw6' } }),
    });
    expect(await auth.text()).toContain('"uid": 2');
  });

  // 'wrong' against a protected manager (master 'admin2'), so the takeover does not apply
  it.each([
    [
      'create',
      { master_pwd: 'wrong', name: 'gw11', lang: 'en_US', password: 'admin', login: 'admin', phone: '' },
      'Database creation error: Access Denied',
    ],
    [
      'create',
      { master_pwd: 'admin', name: 'gw', lang: 'en_US', password: 'admin', login: 'admin', phone: '' },
      'Database creation error: database &#39;gw&#39; already exists!',
    ],
    ['duplicate', { master_pwd: 'wrong', name: 'gw2', new_name: 'gw11' }, 'Database duplication error: Access Denied'],
    [
      'duplicate',
      { master_pwd: 'admin', name: 'gw2', new_name: 'gw' },
      'Database duplication error: database &#34;gw&#34; already exists\n',
    ],
    [
      'duplicate',
      { master_pwd: 'admin', name: 'nope', new_name: 'gw3x' },
      'Database duplication error: template database &#34;nope&#34; does not exist\n',
    ],
    [
      'duplicate',
      { master_pwd: 'admin', name: 'gw2', new_name: 'bad name!' },
      'Database duplication error: &#39;NoneType&#39; object has no attribute &#39;uid&#39;',
    ],
    ['backup', { master_pwd: 'admin', name: 'nope' }, 'Database backup error: Database &#39;nope&#39; is not known'],
    ['change_password', { master_pwd: 'wrong', master_pwd_new: 'x' }, 'Master password update error: Access Denied'],
  ])('%s %j shows %j on the manager page (HTTP 200)', async (route, fields, error) => {
    sim.databaseManager.masterPassword = fields.master_pwd === 'wrong' ? 'admin2' : 'admin';
    const res = await post(route, fields);
    expect([res.status, res.contentType, res.error]).toEqual([200, 'text/html; charset=utf-8', error]);
  });

  it('answers a missing form field with a 500 page', async () => {
    expect((await post('drop', { master_pwd: 'admin' })).status).toBe(500);
  });

  it('lets an unprotected manager adopt any submitted master password first (the takeover)', async () => {
    expect(await post('drop', { master_pwd: 'Takeover1', name: 'gw2' })).toMatchObject({ status: 303 });
    expect(sim.databaseManager.masterPassword).toBe('Takeover1');
    expect(sim.databases()).toEqual(['gw']);
    expect((await post('drop', { master_pwd: 'admin', name: 'gw' })).error).toBe('Database deletion error: Access Denied');
  });

  it('does not adopt a password on change_password', async () => {
    expect((await post('change_password', { master_pwd: 'Takeover1', master_pwd_new: 'x' })).error).toBe(
      'Master password update error: Access Denied',
    );
    expect(sim.databaseManager.masterPassword).toBe('admin');
  });
});

describe('backup and restore', () => {
  it.each([
    ['zip', 'PK\u0003\u0004'],
    ['dump', 'PGDMP'],
  ])('streams a %s backup that restores to the same data', async (format, signature) => {
    await fetch(`${sim.url}/json/2/res.partner/write`, {
      method: 'POST',
      headers: { authorization: `bearer ${sim.keyFor('gw2', 'admin')}`, 'content-type': 'application/json', 'x-odoo-database': 'gw2' },
      body: JSON.stringify({ ids: [9], vals: { name: 'Renamed before the backup' } }),
    });
    const backup = await post('backup', { master_pwd: 'admin', name: 'gw2', backup_format: format });
    expect([backup.status, backup.contentType, backup.body.subarray(0, signature.length).toString('latin1')]).toEqual([
      200,
      'application/octet-stream; charset=binary',
      signature,
    ]);
    if (format === 'zip') expect([...(readZip(backup.body)?.keys() ?? [])]).toEqual(['dump.sql', 'manifest.json']);
    expect(dumpTextOf(backup.body)).toContain('Renamed before the backup');
    expect(await restore({ master_pwd: 'admin', name: 'gw9', copy: 'true' }, backup.body)).toEqual({ status: 303, error: undefined });
    const read = await fetch(`${sim.url}/json/2/res.partner/read`, {
      method: 'POST',
      headers: { authorization: `bearer ${sim.keyFor('gw', 'admin')}`, 'content-type': 'application/json', 'x-odoo-database': 'gw9' },
      body: JSON.stringify({ ids: [9], fields: ['name'] }),
    });
    expect(await read.text()).toBe('[{"id": 9, "name": "Renamed before the backup"}]');
  });

  it('adds the generated filestore bytes to every backup', async () => {
    sim.databaseManager.backupPadding = 300_000;
    const zip = (await post('backup', { master_pwd: 'admin', name: 'gw', backup_format: 'zip' })).body;
    expect(readZip(zip)?.get('filestore/ab/generated-padding')?.length).toBe(300_000);
  });

  it('cuts a backup without its end when told to fail', async () => {
    sim.databaseManager.failBackupsAfter = 1_000;
    const res = await fetch(`${sim.url}/web/database/backup`, {
      method: 'POST',
      body: new URLSearchParams({ master_pwd: 'admin', name: 'gw' }),
    });
    await expect(res.arrayBuffer()).rejects.toThrow();
  });

  it.each([
    ['an existing name', 'gw2', 'Database restore error: Database already exists', ['gw', 'gw2']],
    ['a new name', 'gw5x', 'Database restore error: Couldn&#39;t restore database', ['gw', 'gw2', 'gw5x']],
  ])('refuses a file that is no backup onto %s (and leaves an empty database, as Odoo)', async (_what, name, error, databases) => {
    expect(await restore({ master_pwd: 'admin', name, copy: 'true' }, Buffer.from('not a dump'))).toEqual({ status: 200, error });
    expect(sim.databases()).toEqual(databases);
  });
});

describe('/web/database/rename', () => {
  it('is absent from 19.0 (404) and served by later versions (405 to a GET)', async () => {
    expect((await fetch(`${sim.url}/web/database/rename`)).status).toBe(404);
    sim.databaseManager.renameRoute = true;
    expect((await fetch(`${sim.url}/web/database/rename`)).status).toBe(405);
    expect(await post('rename', { master_pwd: 'admin', name: 'gw2', new_name: 'gw4' })).toMatchObject({ status: 303 });
    expect(sim.databases()).toEqual(['gw', 'gw4']);
    expect((await post('rename', { master_pwd: 'admin', name: 'gw3', new_name: 'gw4b' })).error).toBe(
      'Database rename error: Couldn&#39;t rename database gw3 to gw4b: database &#34;gw3&#34; does not exist\n',
    );
  });
});
