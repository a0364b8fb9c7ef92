/**
 * The master password of a legacy `db` call (`check_super`, Odoo: `odoo/service/db.py`) and its safety rule
 * (docs/architecture.md §3 db): while the upstream's database manager is unprotected, every `/web/database/*`
 * form adopts the master password it is sent (corpus `webdb-insecure-default-master-takeover`). So
 * while it is — or while the gateway cannot tell — only `admin` passes, checked here as legacy
 * `check_super` would, and no other password ever leaves the gateway. The page is remembered only
 * while it says unprotected (`web-database.ts`): then a wrong password costs Odoo nothing.
 *
 * On a protected manager the password is checked by asking for the backup of a random name no
 * database has: both managers check the password first, then refuse the name ("Database 'x' is not
 * known" on 19.0, "Database 'x' doesn't exist" on the rewrite), and neither writes anything for it.
 * A drop would not do: the rewritten drop has no existence guard.
 */
import { randomBytes } from 'node:crypto';
import type { CallOrigin } from '../call.ts';
import { accessDenied, LegacyError, pythonError } from '../errors.ts';
import type { ManagerPage, WebDatabaseClient } from '../upstream/index.ts';
import { isTruthy, pyTypeName, type Value } from '../value.ts';

/** Odoo's default master password (`admin_passwd`). */
export const defaultMasterPassword = 'admin';

/** The checks a db call makes on its master password. */
export interface MasterPassword {
  /**
   * The password a controller may receive: rejects at once what `check_super` refuses without
   * looking (empty, not a string) and, on an unprotected manager, anything but `admin`. On a
   * protected manager the controller checks the password itself. `page` saves fetching the manager
   * page again (`null`: fetched, not served).
   */
  forwardable(passwd: Value, origin: CallOrigin, page?: ManagerPage | null): Promise<string>;
  /**
   * A full `check_super` for calls the gateway answers itself: as `forwardable`, and on a protected
   * manager a side-effect-free probe (the backup of a random name that does not exist).
   */
  verify(passwd: Value, origin: CallOrigin, page?: ManagerPage | null): Promise<string>;
}

/** `check_super(passwd)` before any comparison: `passwd and verify_admin_password(passwd)`. */
function shaped(passwd: Value): string {
  if (!isTruthy(passwd)) throw accessDenied();
  // passlib's verify: "secret must be unicode or bytes"
  if (typeof passwd !== 'string') throw pythonError('TypeError', `secret must be unicode or bytes, not ${pyTypeName(passwd)}`);
  return passwd;
}

/** Creates the checks over the upstream's database manager. */
export function createMasterPassword(web: WebDatabaseClient): MasterPassword {
  /** True when the manager is known to be protected; an unreadable page counts as unprotected. */
  async function isProtected(origin: CallOrigin, page: ManagerPage | null | undefined): Promise<boolean> {
    const seen = page === undefined ? await web.manager(origin) : page;
    return seen !== undefined && seen !== null && !seen.insecure;
  }

  return {
    async forwardable(passwd, origin, page) {
      const password = shaped(passwd);
      if (password !== defaultMasterPassword && !(await isProtected(origin, page))) throw accessDenied();
      return password;
    },

    async verify(passwd, origin, page) {
      const password = shaped(passwd);
      const protectedManager = await isProtected(origin, page);
      if (!protectedManager) {
        if (password === defaultMasterPassword) return password;
        throw accessDenied();
      }
      const probe = `legacy-rpc-gateway-probe-${randomBytes(8).toString('hex')}`;
      let backup: AsyncIterable<Uint8Array>;
      try {
        backup = await web.backup(
          [
            ['master_pwd', password],
            ['name', probe],
            ['backup_format', 'dump'],
          ],
          probe,
          origin,
        );
      } catch (err) {
        if (err instanceof LegacyError && err.kind === 'access_denied') throw accessDenied();
        // the password passed; the name was refused
        if (err instanceof LegacyError && err.name === 'psycopg2.OperationalError') return password;
        throw err;
      }
      // a database of that name exists after all: the password passed too; the backup is not read
      await backup[Symbol.asyncIterator]().return?.();
      return password;
    },
  };
}
