import { describe, expect, it, vi } from 'vitest';
import type { CallOrigin } from '../call.ts';
import { accessDenied, LegacyError } from '../errors.ts';
import type { ManagerPage, WebDatabaseClient } from '../upstream/index.ts';
import type { Value } from '../value.ts';
import { createMasterPassword } from './master-password.ts';

const origin = { requestId: 'r', signal: new AbortController().signal } as CallOrigin;
const unprotected: ManagerPage = { insecure: true, langs: [], countries: [] };
const protectedPage: ManagerPage = { insecure: false, langs: [], countries: [] };

/** A database manager whose real master password is `secret` (when protected). */
function web(page: ManagerPage | undefined) {
  return {
    manager: vi.fn(async () => page),
    submit: vi.fn(async (_route: string, fields: readonly (readonly [string, string])[]) => {
      if (fields.find(([k]) => k === 'master_pwd')?.[1] !== 'secret') throw accessDenied();
    }),
  } as unknown as WebDatabaseClient & { manager: ReturnType<typeof vi.fn>; submit: ReturnType<typeof vi.fn> };
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
    expect(w.submit).not.toHaveBeenCalled();
  });

  describe('on an unprotected manager', () => {
    it.each(['forwardable', 'verify'] as const)('%s passes only admin and never sends another password', async (check) => {
      const w = web(unprotected);
      const master = createMasterPassword(w);
      expect(await outcome(() => master[check]('admin', origin))).toBe('ok admin');
      expect(await outcome(() => master[check]('Takeover1', origin))).toBe('odoo.exceptions.AccessDenied: Access Denied');
      expect(w.submit).not.toHaveBeenCalled();
    });

    it('treats a manager page it cannot read as unprotected', async () => {
      const w = web(undefined);
      const master = createMasterPassword(w);
      expect(await outcome(() => master.verify('secret', origin))).toBe('odoo.exceptions.AccessDenied: Access Denied');
      expect(w.submit).not.toHaveBeenCalled();
    });
  });

  describe('on a protected manager', () => {
    it('forwards any password for the controller to check', async () => {
      const w = web(protectedPage);
      const master = createMasterPassword(w);
      expect(await outcome(() => master.forwardable('wrong', origin))).toBe('ok wrong');
      expect(w.submit).not.toHaveBeenCalled();
    });

    it('verifies with a drop of a random name that does not exist', async () => {
      const w = web(protectedPage);
      const master = createMasterPassword(w);
      expect(await outcome(() => master.verify('secret', origin))).toBe('ok secret');
      expect(await outcome(() => master.verify('admin', origin))).toBe('odoo.exceptions.AccessDenied: Access Denied');
      const names = w.submit.mock.calls.map(([route, fields]) => [route, (fields as [string, string][]).find(([k]) => k === 'name')?.[1]]);
      expect(names).toEqual([
        ['drop', expect.stringMatching(/^legacy-rpc-gateway-probe-[0-9a-f]{16}$/)],
        ['drop', expect.stringMatching(/^legacy-rpc-gateway-probe-[0-9a-f]{16}$/)],
      ]);
      expect(names[0]?.[1]).not.toBe(names[1]?.[1]);
    });

    it('uses the page it is given instead of fetching it again', async () => {
      const w = web(unprotected);
      const master = createMasterPassword(w);
      expect(await outcome(() => master.verify('secret', origin, protectedPage))).toBe('ok secret');
      expect(w.manager).not.toHaveBeenCalled();
    });
  });
});
