/**
 * The database manager of the saas-19.1 persona (`addons/web/controllers/database.py` over
 * `odoo/modules/db.py` of saas-19.1+): "Could not <verb> database." pages at 403/422, the new
 * refusal texts, drop without an existence guard, backups sent whole (`application/zip` for zip),
 * zip-only restore that leaves an empty database behind, rename, and the legacy `db` service gone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorTextOf } from '../../src/upstream/errors/index.ts';
import { type Simulator, startSimulator } from '../index.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ databases: ['gw', 'gw2'], series: 'saas-19.1', legacyEndpoints: true });
});
beforeEach(() => {
  sim.reset();
  sim.databaseManager.masterPassword = 'S3cret';
});
afterAll(() => sim.close());

async function post(route: string, fields: Record<string, string>) {
  const res = await fetch(`${sim.url}/web/database/${route}`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  const text = body.toString('utf8');
  return {
    status: res.status,
    location: res.headers.get('location'),
    contentType: res.headers.get('content-type'),
    length: res.headers.get('content-length'),
    body,
    error: /alert-danger/.test(text) ? errorTextOf(text) : undefined,
    raw: text,
  };
}

async function restore(name: string, file: Buffer) {
  const form = new FormData();
  form.append('master_pwd', 'S3cret');
  form.append('name', name);
  form.append('backup_file', new Blob([file]), 'backup');
  const res = await fetch(`${sim.url}/web/database/restore`, { method: 'POST', body: form, redirect: 'manual' });
  const text = await res.text();
  return {
    status: res.status,
    error: /alert-danger/.test(text) ? /<div class="alert alert-danger">([\s\S]*?)<\/div>/.exec(text)?.[1] : undefined,
  };
}

describe('the saas-19.1 database manager', () => {
  it('refuses a bad master password with 403 and the new text, the verb as the path names it', async () => {
    const drop = await post('drop', { master_pwd: 'wrong', name: 'gw2' });
    expect([drop.status, drop.raw]).toEqual([
      403,
      expect.stringContaining('Could not drop database. Database management function blocked, bad admin password.'),
    ]);
    const change = await post('change_password', { master_pwd: 'wrong', master_pwd_new: 'x' });
    expect([change.status, change.raw]).toEqual([
      403,
      expect.stringContaining('Could not change_password database. Database management function blocked, bad admin password.'),
    ]);
    expect([sim.databases(), sim.databaseManager.masterPassword]).toEqual([['gw', 'gw2'], 'S3cret']);
  });

  it('refuses every form but change_password while database listing is disabled', async () => {
    sim.databaseManager.enabled = false;
    const drop = await post('drop', { master_pwd: 'S3cret', name: 'gw2' });
    expect([drop.status, drop.error]).toEqual([403, 'Database management functions blocked, admin disabled database listing.']);
    expect(await post('change_password', { master_pwd: 'S3cret', master_pwd_new: 'N3w' })).toMatchObject({ status: 303 });
  });

  it('drops without an existence guard: a name that does not exist fails in PostgreSQL', async () => {
    expect(await post('drop', { master_pwd: 'S3cret', name: 'nope' })).toMatchObject({
      status: 422,
      error: 'database "nope" does not exist\n',
    });
    expect(await post('drop', { master_pwd: 'S3cret', name: 'gw2' })).toMatchObject({ status: 303, location: '/web/database/manager' });
    expect(sim.databases()).toEqual(['gw']);
  });

  it('sends a whole backup with its length: application/zip for zip, octet-stream for dump', async () => {
    const zip = await post('backup', { master_pwd: 'S3cret', name: 'gw' });
    expect([zip.status, zip.contentType, zip.length, zip.body.subarray(0, 2).toString('latin1')]).toEqual([
      200,
      'application/zip',
      String(zip.body.length),
      'PK',
    ]);
    const dump = await post('backup', { master_pwd: 'S3cret', name: 'gw', backup_format: 'dump' });
    expect([dump.contentType, dump.body.subarray(0, 5).toString('latin1')]).toEqual(['application/octet-stream', 'PGDMP']);
    expect(await post('backup', { master_pwd: 'S3cret', name: 'nope' })).toMatchObject({
      status: 422,
      error: "Database 'nope' doesn't exist",
    });
  });

  it('restores a zip; a custom-format dump fails after an EMPTY database was created', async () => {
    const zip = (await post('backup', { master_pwd: 'S3cret', name: 'gw2' })).body;
    const dump = (await post('backup', { master_pwd: 'S3cret', name: 'gw2', backup_format: 'dump' })).body;
    expect(await restore('gw5', zip)).toEqual({ status: 303, error: undefined });
    expect(await restore('gw6', dump)).toEqual({ status: 422, error: 'Could not restore database. File is not a zip file' });
    expect(sim.databases()).toEqual(['gw', 'gw2', 'gw5', 'gw6']);
    expect(await restore('gw6', zip)).toEqual({ status: 422, error: 'Could not restore database. Database &#39;gw6&#39; already exists' });
  });

  it('creates (capital-D "already exists!"), duplicates (target checked by modules.db) and renames', async () => {
    expect(await post('create', { master_pwd: 'S3cret', name: 'gw', lang: 'en_US', password: 'a', login: 'a', phone: '' })).toMatchObject({
      status: 422,
      error: "Database 'gw' already exists!",
    });
    expect(await post('duplicate', { master_pwd: 'S3cret', name: 'gw2', new_name: 'a b' })).toMatchObject({
      status: 422,
      error: "Invalid db_name='a b'",
    });
    const naming = await post('duplicate', { master_pwd: 'S3cret', name: 'a b', new_name: 'gw3' });
    expect([naming.status, naming.error]).toEqual([422, expect.stringMatching(/^Houston, we have a database naming issue!/)]);
    expect(await post('rename', { master_pwd: 'S3cret', name: 'gw2', new_name: 'gw4' })).toMatchObject({ status: 303 });
    expect(sim.databases()).toEqual(['gw', 'gw4']);
    expect((await fetch(`${sim.url}/web/database/rename`)).status).toBe(405);
  });

  it('serves no legacy db service: dispatch_rpc raises ValueError', async () => {
    const res = await fetch(`${sim.url}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc": "2.0", "method": "call", "id": 1, "params": {"service": "db", "method": "list", "args": []}}',
    });
    const body = (await res.json()) as { error: { data: { name: string; message: string } } };
    expect(body.error.data).toMatchObject({ name: 'builtins.ValueError', message: 'Invalid service name: db' });
    const xml = await fetch(`${sim.url}/xmlrpc/2/db`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: "<?xml version='1.0'?>\n<methodCall>\n<methodName>list</methodName>\n<params>\n</params>\n</methodCall>\n",
    });
    expect(await xml.text()).toContain('ValueError: Invalid service name: db');
  });
});
