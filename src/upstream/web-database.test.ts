import { describe, expect, it, vi } from 'vitest';
import { renderManagerPage } from '../../sim/manager/database-manager-page.ts';
import { loadConfig } from '../config.ts';
import { LegacyError } from '../errors.ts';
import type { UpstreamHttp, UpstreamRequest, UpstreamResponse } from './pool.ts';
import { createWebDatabaseClient, insecureManagerMemoryMs } from './web-database.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const origin = testCallOrigin({ host: 'gateway:8070', ip: '10.0.0.7', userAgent: 'py', requestId: 'r' });
const config = loadConfig(['--upstream', 'http://odoo:8069', '--db-timeout', '900000'], {});
const answer = (status: number, contentType: string, text: string, headers: Record<string, string> = {}): UpstreamResponse => ({
  status,
  contentType,
  text,
  headers,
  elapsedMs: 3,
});

function clientAnswering(...answers: UpstreamResponse[]) {
  return clientOn(config, () => Date.now(), ...answers);
}

/** The client on `settings` with the clock `now`; `answers` are served in order. */
function clientOn(settings: typeof config, now: () => number, ...answers: UpstreamResponse[]) {
  const sent: UpstreamRequest[] = [];
  const http: UpstreamHttp = {
    url: 'http://odoo:8069',
    send: vi.fn(async (req: UpstreamRequest) => {
      sent.push(req);
      const next = answers.shift();
      if (next === undefined) throw new Error('no more answers');
      return next;
    }),
    close: async () => {},
  };
  return { client: createWebDatabaseClient(http, settings, now), sent };
}

describe('createWebDatabaseClient()', () => {
  it('posts forms urlencoded, under the db timeout, with no database header', async () => {
    const { client, sent } = clientAnswering(answer(303, 'text/html', '', { location: '/web/database/manager' }));
    await client.submit(
      'duplicate',
      [
        ['master_pwd', 'admin'],
        ['name', 'gw'],
        ['new_name', 'gw 3'],
      ],
      'gw',
      origin,
    );
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: '/web/database/duplicate',
      body: 'master_pwd=admin&name=gw&new_name=gw+3',
      timeoutMs: 900_000,
    });
    expect(sent[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.keys(sent[0]?.headers ?? {}).filter((h) => /database/i.test(h))).toEqual([]);
  });

  it('rejects with the error the manager page shows', async () => {
    const page = renderManagerPage({
      databases: ['gw'],
      insecure: true,
      error: 'Database duplication error: database "gw3" already exists\n',
    });
    const { client } = clientAnswering(answer(200, 'text/html; charset=utf-8', page));
    await expect(client.submit('duplicate', [], 'gw', origin)).rejects.toMatchObject({
      name: 'psycopg2.errors.DuplicateDatabase',
      message: 'database "gw3" already exists\n',
    });
  });

  it('names the status of an answer that is neither a redirect nor an error page', async () => {
    const { client } = clientAnswering(answer(502, 'text/html', '<h1>Bad Gateway</h1>'));
    const err = await client.submit('drop', [], 'gw', origin).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LegacyError);
    expect((err as LegacyError).lastLine).toMatch(
      /^legacy_rpc_gateway\.UpstreamError: upstream \/web\/database\/drop answered HTTP 502, neither a redirect nor an error page \(http:\/\/odoo:8069, \d+ ms\)$/,
    );
  });

  it('reads the list, and its AccessDenied under --no-database-list', async () => {
    const denied =
      '{"jsonrpc": "2.0", "id": null, "error": {"code": 0, "message": "Odoo Server Error", "data": {"name": "odoo.exceptions.AccessDenied", "message": "Access Denied", "arguments": [], "context": {}, "debug": ""}}}';
    const { client, sent } = clientAnswering(
      answer(200, 'application/json', '{"jsonrpc": "2.0", "id": null, "result": ["gw", "gw2"]}'),
      answer(200, 'application/json', denied),
    );
    expect(await client.list(origin)).toEqual(['gw', 'gw2']);
    expect(sent[0]).toMatchObject({ path: '/web/database/list', body: '{"jsonrpc":"2.0","method":"call","params":{},"id":null}' });
    await expect(client.list(origin)).rejects.toMatchObject({ kind: 'access_denied' });
  });

  it('asks the manager page again when its render failed on a database dropped meanwhile (HTTP 500)', async () => {
    // Odoo's page opens every listed database (list_db_incompatible): one dropped in between is an OperationalError, a 500
    const failed = answer(500, 'text/html; charset=utf-8', '<h1>Internal Server Error</h1>');
    const page = renderManagerPage({ databases: ['gw'], insecure: false });
    const { client, sent } = clientAnswering(failed, answer(200, 'text/html; charset=utf-8', page));
    const seen = await client.manager(origin);
    expect(seen?.insecure).toBe(false);
    expect(seen?.langs?.length).toBeGreaterThan(0);
    expect(sent).toHaveLength(2);
  });

  it('gives up on a manager page that keeps failing to render', async () => {
    const failed = answer(500, 'text/html; charset=utf-8', '<h1>Internal Server Error</h1>');
    const { client, sent } = clientAnswering(failed, failed, failed);
    expect(await client.manager(origin)).toBeUndefined();
    expect(sent).toHaveLength(3);
  });

  describe('remembering the manager page', () => {
    const html = (insecure: boolean) => answer(200, 'text/html; charset=utf-8', renderManagerPage({ databases: ['gw'], insecure }));
    const redirect = answer(303, 'text/html', '', { location: '/web/database/manager' });
    const gets = (sent: UpstreamRequest[]) => sent.filter((r) => r.method === 'GET').length;

    it('asks an unprotected page once for 30 s, then again', async () => {
      const clock = { now: 1_000_000 };
      const { client, sent } = clientOn(config, () => clock.now, html(true), html(true));
      for (let i = 0; i < 5; i++) expect((await client.manager(origin))?.insecure).toBe(true);
      clock.now += insecureManagerMemoryMs - 1;
      expect((await client.manager(origin))?.insecure).toBe(true);
      expect(gets(sent)).toBe(1);
      clock.now += 1;
      expect((await client.manager(origin))?.insecure).toBe(true);
      expect(gets(sent)).toBe(2);
    });

    it('never remembers a protected page, nor a missing one', async () => {
      const { client, sent } = clientAnswering(html(false), html(false), answer(404, 'text/html', ''), answer(404, 'text/html', ''));
      for (let i = 0; i < 4; i++) await client.manager(origin);
      expect(gets(sent)).toBe(4);
    });

    it('forgets the page when it forwards a change of the master password, even a refused one', async () => {
      const refused = answer(
        200,
        'text/html; charset=utf-8',
        renderManagerPage({ databases: ['gw'], insecure: true, error: 'Access Denied' }),
      );
      const { client, sent } = clientAnswering(html(true), redirect, html(false), html(true), refused, html(true));
      expect((await client.manager(origin))?.insecure).toBe(true);
      await client.submit('change_password', [], undefined, origin);
      expect((await client.manager(origin))?.insecure).toBe(false);
      expect((await client.manager(origin))?.insecure).toBe(true);
      await expect(client.submit('change_password', [], undefined, origin)).rejects.toBeInstanceOf(LegacyError);
      await client.manager(origin);
      expect(gets(sent)).toBe(4);
    });

    it('does not remember a page asked while a change of the master password was on its way', async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const sent: UpstreamRequest[] = [];
      const http: UpstreamHttp = {
        url: 'http://odoo:8069',
        send: vi.fn(async (req: UpstreamRequest) => {
          sent.push(req);
          if (req.method === 'POST') return redirect;
          if (sent.length === 1) await held; // the first page answers after the change
          return html(true);
        }),
        close: async () => {},
      };
      const client = createWebDatabaseClient(http, config, () => 0);
      const page = client.manager(origin);
      await client.submit('change_password', [], undefined, origin);
      release();
      expect((await page)?.insecure).toBe(true);
      await client.manager(origin);
      expect(gets(sent)).toBe(2);
    });

    it("remembers a page per Host when the Host is the client's", async () => {
      const byClient = loadConfig(['--upstream', 'http://odoo:8069', '--upstream-host', 'client'], {});
      const { client, sent } = clientOn(byClient, () => 0, html(true), html(true));
      await client.manager(origin);
      await client.manager({ ...origin, host: 'other:8070' });
      await client.manager(origin);
      expect(sent.map((r) => r.headers.host)).toEqual(['gateway:8070', 'other:8070']);
    });
  });

  it('has no manager page when the upstream does not serve one', async () => {
    const { client } = clientAnswering(answer(404, 'text/html', 'Not Found'));
    expect(await client.manager(origin)).toBeUndefined();
  });

  it.each([
    [405, 'modules-db'],
    [404, 'service-db'],
  ])('tells the database manager apart once, by /web/database/rename (GET answered %i → %s)', async (status, kind) => {
    const { client, sent } = clientAnswering(answer(status, 'text/html', ''));
    expect(await client.managerKind(origin)).toBe(kind);
    expect(await client.managerKind(origin)).toBe(kind);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'GET', path: '/web/database/rename' });
  });

  it('returns the backup body of a 200 octet-stream, and the error of an error page', async () => {
    const page = renderManagerPage({ databases: ['gw'], insecure: true, error: "Database backup error: Database 'nope' is not known" });
    const { client } = clientAnswering(
      answer(200, 'application/octet-stream; charset=binary', 'PK\u0003\u0004'),
      answer(200, 'text/html', page),
    );
    const chunks: Uint8Array[] = [];
    for await (const chunk of await client.backup([['name', 'gw']], 'gw', origin)) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString('latin1')).toBe('PK\u0003\u0004');
    await expect(client.backup([['name', 'nope']], 'nope', origin)).rejects.toMatchObject({ name: 'psycopg2.OperationalError' });
  });

  it("accepts the rewritten manager's application/zip backup, asked under the db timeout (which bounds the wait for its first byte), and its error pages", async () => {
    const page = renderManagerPage({
      databases: ['gw'],
      insecure: false,
      error: "Could not backup database. Database 'nope' doesn't exist",
    });
    const refused = renderManagerPage({
      databases: ['gw'],
      insecure: false,
      error: 'Could not backup database. Database management function blocked, bad admin password.',
    });
    const { client, sent } = clientAnswering(
      answer(200, 'application/zip', 'PK\u0003\u0004'),
      answer(422, 'text/html; charset=utf-8', page),
      answer(403, 'text/html; charset=utf-8', refused),
    );
    const chunks: Uint8Array[] = [];
    for await (const chunk of await client.backup(
      [
        ['name', 'gw'],
        ['backup_format', 'zip'],
      ],
      'gw',
      origin,
    ))
      chunks.push(chunk);
    expect(Buffer.concat(chunks).toString('latin1')).toBe('PK\u0003\u0004');
    expect(sent[0]).toMatchObject({ path: '/web/database/backup', timeoutMs: 900_000 });
    await expect(client.backup([['name', 'nope']], 'nope', origin)).rejects.toMatchObject({ name: 'psycopg2.OperationalError' });
    await expect(client.backup([['name', 'gw']], 'gw', origin)).rejects.toMatchObject({ kind: 'access_denied', message: 'Access Denied' });
  });

  it('reads the change_password error page, whose verb keeps its underscore', async () => {
    const refused = renderManagerPage({
      databases: ['gw'],
      insecure: false,
      error: 'Could not change_password database. Database management function blocked, bad admin password.',
    });
    const { client } = clientAnswering(answer(403, 'text/html; charset=utf-8', refused));
    await expect(
      client.submit(
        'change_password',
        [
          ['master_pwd', 'wrong'],
          ['master_pwd_new', 'x'],
        ],
        undefined,
        origin,
      ),
    ).rejects.toMatchObject({ kind: 'access_denied' });
  });

  it('uploads a restore as multipart with the backup file built from its chunks', async () => {
    const { client, sent } = clientAnswering(answer(303, 'text/html', '', { location: '/web/database/manager' }));
    const file = {
      field: 'backup_file',
      filename: 'gw5.zip',
      type: 'application/zip',
      chunks: [Buffer.from('PK\u0003\u0004'), Buffer.from('rest')],
    };
    await client.restore(
      [
        ['master_pwd', 'admin'],
        ['name', 'gw5'],
        ['copy', 'true'],
      ],
      file,
      'gw5',
      origin,
    );
    const form = sent[0]?.body as unknown as { get(name: string): unknown };
    expect(form.get('name')).toBe('gw5');
    const blob = form.get('backup_file') as Blob & { name: string };
    expect([blob.name, blob.type, Buffer.from(await blob.arrayBuffer()).toString('latin1')]).toEqual([
      'gw5.zip',
      'application/zip',
      'PK\u0003\u0004rest',
    ]);
  });
});

describe('createWebDatabaseClient() with a {db} Host template', () => {
  it("sends the database's host where a call names one, and the client's where it names none", async () => {
    const templated = loadConfig(['--upstream', 'http://odoo:8069', '--upstream-host', '{db}.erp.example.com'], {});
    const sent: UpstreamRequest[] = [];
    const http: UpstreamHttp = {
      url: 'http://odoo:8069',
      send: async (req) => {
        sent.push(req);
        return answer(303, 'text/html', '', { location: '/web/database/manager' });
      },
      close: async () => {},
    };
    const client = createWebDatabaseClient(http, templated);
    await client.submit('drop', [['name', 'gw2']], 'gw2', origin);
    await client.submit('change_password', [], undefined, origin);
    expect(sent.map((r) => r.headers.host)).toEqual(['gw2.erp.example.com', 'gateway:8070']);
  });
});
