import { describe, expect, it, vi } from 'vitest';
import { accessDenied, LegacyError, pythonError } from '../errors.ts';
import { unknownDatabase } from '../upstream/index.ts';
import type { ManagerPage, WebDatabaseClient } from '../upstream/index.ts';
import type { Value } from '../value.ts';
import { createMasterPassword } from './master-password.ts';
import { testCallOrigin } from '../../test/support/call-origin.ts';

const origin = testCallOrigin({ requestId: 'r' });
const unprotected: ManagerPage = { insecure: true, langs: [], countries: [] };
const protectedPage: ManagerPage = { insecure: false, langs: [], countries: [] };

/**
 * A database manager whose real master password is `secret` (when protected): its backup checks the
 * password, then refuses a name no database has, as both managers do; `existing` names a database.
 */
function web(page: ManagerPage | undefined, existing: string[] = []) {
  return {
    manager: vi.fn(async () => page),
    submit: vi.fn(async () => undefined),
    backup: vi.fn(async (fields: readonly (readonly [string, string])[], db: string) => {
      if (fields.find(([k]) => k === 'master_pwd')?.[1] !== 'secret') throw accessDenied();
      if (!existing.includes(db)) throw unknownDatabase(db);
      return (async function* backup() {
        yield Buffer.from('PGDMP');
      })();
    }),
  } as unknown as WebDatabaseClient & {
    manager: ReturnType<typeof vi.fn>;
    submit: ReturnType<typeof vi.fn>;
    backup: ReturnType<typeof vi.fn>;
  };
}

async function outcome(run: () => Promise<string>): Promise<string> {
  try {
    return `ok ${await run()}`;
  } catch (err) {
    return (err as LegacyError).lastLine;
  }
}

describe('createMasterPassword()', () => {
  it.each<[string, Value, string]>([
    ['an empty password', '', 'odoo.exceptions.AccessDenied: Access Denied'],
    ['False', false, 'odoo.exceptions.AccessDenied: Access Denied'],
    ['None', null, 'odoo.exceptions.AccessDenied: Access Denied'],
    ['an int', 5, 'TypeError: secret must be unicode or bytes, not int'],
    ['a list', ['admin'], 'TypeError: secret must be unicode or bytes, not list'],
  ])('refuses %s without asking the upstream', async (_what, passwd, lastLine) => {
    const w = web(protectedPage);
    const master = createMasterPassword(w);
    expect(await outcome(() => master.verify(passwd, origin))).toBe(lastLine);
    expect(w.manager).not.toHaveBeenCalled();
    expect(w.backup).not.toHaveBeenCalled();
  });

  describe('on an unprotected manager', () => {
    it.each(['forwardable', 'verify'] as const)('%s passes only admin and never sends another password', async (check) => {
      const w = web(unprotected);
      const master = createMasterPassword(w);
      expect(await outcome(() => master[check]('admin', origin))).toBe('ok admin');
      expect(await outcome(() => master[check]('Takeover1', origin))).toBe('odoo.exceptions.AccessDenied: Access Denied');
      expect(w.backup).not.toHaveBeenCalled();
    });

    it('treats a manager page it cannot read as unprotected', async () => {
      const w = web(undefined);
      const master = createMasterPassword(w);
      expect(await outcome(() => master.verify('secret', origin))).toBe('odoo.exceptions.AccessDenied: Access Denied');
      expect(w.backup).not.toHaveBeenCalled();
    });
  });

  describe('on a protected manager', () => {
    it('forwards any password for the controller to check', async () => {
      const w = web(protectedPage);
      const master = createMasterPassword(w);
      expect(await outcome(() => master.forwardable('wrong', origin))).toBe('ok wrong');
      expect(w.backup).not.toHaveBeenCalled();
    });

    it('verifies with the backup of a random name that does not exist, and posts no form', async () => {
      const w = web(protectedPage);
      const master = createMasterPassword(w);
      expect(await outcome(() => master.verify('secret', origin))).toBe('ok secret');
      expect(await outcome(() => master.verify('admin', origin))).toBe('odoo.exceptions.AccessDenied: Access Denied');
      const names = w.backup.mock.calls.map(([fields, db]) => [(fields as [string, string][]).find(([k]) => k === 'name')?.[1], db]);
      expect(names).toEqual([
        [expect.stringMatching(/^legacy-rpc-gateway-probe-[0-9a-f]{16}$/), expect.stringMatching(/^legacy-rpc-gateway-probe-/)],
        [expect.stringMatching(/^legacy-rpc-gateway-probe-[0-9a-f]{16}$/), expect.stringMatching(/^legacy-rpc-gateway-probe-/)],
      ]);
      expect(names[0]?.[0]).not.toBe(names[1]?.[0]);
      expect(w.submit).not.toHaveBeenCalled();
    });

    it('passes a password whose probe name happens to exist, without reading the backup', async () => {
      const w = web(protectedPage, []);
      const backup = async function* backup() {
        yield Buffer.from('PGDMP');
        throw new Error('read past the first chunk');
      };
      w.backup.mockResolvedValueOnce(backup());
      expect(await outcome(() => createMasterPassword(w).verify('secret', origin))).toBe('ok secret');
    });

    it('lets any other failure of the probe through: no verdict is guessed', async () => {
      const w = web(protectedPage);
      w.backup.mockRejectedValueOnce(pythonError('Exception', 'pg_dump failed'));
      expect(await outcome(() => createMasterPassword(w).verify('secret', origin))).toBe('Exception: pg_dump failed');
    });

    it('uses the page it is given instead of fetching it again', async () => {
      const w = web(unprotected);
      const master = createMasterPassword(w);
      expect(await outcome(() => master.verify('secret', origin, protectedPage))).toBe('ok secret');
      expect(w.manager).not.toHaveBeenCalled();
    });
  });
});
