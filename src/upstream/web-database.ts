/**
 * The `/web/database/*` controllers (Odoo: `addons/web/controllers/database.py`) the legacy `db` service runs on: the JSON-RPC
 * list, the manager page, the form posts (create, duplicate, drop, change_password, rename), the
 * streamed backup and the multipart restore. Every request runs under the db timeout and carries no
 * database header (the routes are server-wide); answers are classified by `database-answer.ts` and
 * their error texts turned into LegacyErrors by `database-error.ts`.
 */
import type { CallOrigin } from '../call.ts';
import type { Config } from '../config.ts';
import { accessDenied, type LegacyError } from '../errors.ts';
import { isStruct } from '../value.ts';
import {
  classifyDatabaseAnswer,
  type DatabaseOperation,
  errorFromAnswer,
  errorFromDatabaseText,
  errorFromJsonRpc,
  jsonFromAnswer,
  upstreamError,
} from './errors/index.ts';
import { multipartForm, urlencodedForm, type FormFields, type FormFile } from './form-post.ts';
import { forwardedHeaders } from './forwarded-headers.ts';
import { parseManagerPage, type ManagerPage } from './manager-page.ts';
import { openStream, type UpstreamHttp, type UpstreamRequest } from './pool.ts';

export type { FormFields, FormFile } from './form-post.ts';
export type { ManagerPage } from './manager-page.ts';

/** The form routes under `/web/database/`. */
export type DatabaseRoute = 'create' | 'duplicate' | 'drop' | 'change_password' | 'rename';

/** What the legacy `db` service may ask of the database manager. */
export interface WebDatabaseClient {
  /** `POST /web/database/list`: the database names (Odoo applies its dbfilter there). */
  list(origin: CallOrigin): Promise<string[]>;
  /**
   * `GET /web/database/manager`, parsed; undefined when the upstream does not serve the page. A page
   * that says the manager is not protected is remembered for {@link insecureManagerMemoryMs}, or
   * until the gateway forwards a change of the master password; any other answer is asked anew.
   */
  manager(origin: CallOrigin): Promise<ManagerPage | undefined>;
  /**
   * Forgets the remembered manager page: a `/web/database/*` form passed through may have set a
   * master password (on an unprotected manager every form adopts the one it is sent).
   */
  forgetManager(): void;
  /**
   * Posts a form; resolves on the controller's redirect, rejects with the LegacyError its error
   * page describes. `targetDatabase` names the database the form is about (Host templates, error
   * texts): a `db` service call's argument, as the service serves no database of its own.
   */
  submit(route: DatabaseRoute, fields: FormFields, targetDatabase: string | undefined, origin: CallOrigin): Promise<void>;
  /** `POST /web/database/backup` of `targetDatabase`: the backup's bytes as they arrive, or the page's LegacyError. */
  backup(fields: FormFields, targetDatabase: string, origin: CallOrigin): Promise<AsyncIterable<Uint8Array>>;
  /** `POST /web/database/restore` into `targetDatabase`, with the backup as the `backup_file` part. */
  restore(fields: FormFields, file: FormFile, targetDatabase: string, origin: CallOrigin): Promise<void>;
  /**
   * Which database manager the upstream runs, told by what it serves: `modules-db` (saas-19.1 and
   * later: `/web/database/rename`, zip-only restore) where a GET of `/web/database/rename` answers
   * 405 (the POST-only route exists), `service-db` (19.0) where it answers 404. Asked once, then
   * remembered.
   */
  managerKind(origin: CallOrigin): Promise<ManagerKind>;
}

/** The two database managers (`docs/odoo-versions.md`). */
export type ManagerKind = 'service-db' | 'modules-db';

/** A form field's value, for error texts that name it. */
function fieldValue(fields: FormFields, name: string): string | undefined {
  return fields.find(([n]) => n === name)?.[1];
}

const managerPath = '/web/database/manager';

/**
 * How long a manager page that says "not protected" is remembered. Odoo opens every database to
 * render it (seconds), and each db call with a master password needs it, so a wrong password cost
 * Odoo more through the gateway than natively. Only this verdict is remembered: it makes the
 * gateway refuse every password but `admin` locally, which never sends one that an unprotected
 * manager would adopt (master-password.ts); a correct password set around the gateway is refused
 * for at most this long (docs/db-service.md, "Master password").
 */
export const insecureManagerMemoryMs = 30_000;
/** Hosts whose manager page is remembered at once (the Host may be the client's: bounded). */
const rememberedHosts = 64;
/** How many times a manager page that failed to render (HTTP 5xx) is asked again. */
const managerRetries = 2;

/** Creates the client on top of the upstream pool; `now` is the clock of the remembered manager page. */
export function createWebDatabaseClient(http: UpstreamHttp, config: Config, now: () => number = Date.now): WebDatabaseClient {
  let kind: ManagerKind | undefined;
  // unprotected manager pages by the Host they were asked with; `changes` counts the master
  // password changes forwarded, so a page asked before one ends is not remembered
  const unprotected = new Map<string, { page: ManagerPage; until: number }>();
  let changes = 0;
  const forget = () => {
    changes++;
    unprotected.clear();
  };

  const request = (
    method: 'GET' | 'POST',
    path: string,
    db: string | undefined,
    origin: CallOrigin,
    body?: UpstreamRequest['body'],
  ): UpstreamRequest => {
    const headers = forwardedHeaders(config, origin, db);
    if (typeof body === 'string')
      headers['content-type'] = path === '/web/database/list' ? 'application/json' : 'application/x-www-form-urlencoded';
    return { method, path, headers, ...(body === undefined ? {} : { body }), timeoutMs: config.dbTimeoutMs };
  };

  /** Resolves on a redirect; otherwise rejects with what the answer means. */
  async function expectRedirect(path: string, req: UpstreamRequest, op: DatabaseOperation, origin: CallOrigin): Promise<void> {
    const res = await http.send(req, origin);
    const location = res.headers.location;
    const answer = classifyDatabaseAnswer(res.status, res.contentType, Array.isArray(location) ? location[0] : location, res.text);
    if (answer.kind === 'done') return;
    throw failure(answer.kind === 'error' ? answer.text : undefined, res.status, path, op, res.elapsedMs);
  }

  function failure(text: string | undefined, status: number, path: string, op: DatabaseOperation, elapsedMs: number): LegacyError {
    if (text !== undefined) return errorFromDatabaseText(text, op);
    return upstreamError(
      'upstream_invalid',
      `upstream ${path} answered HTTP ${status}, neither a redirect nor an error page`,
      http.url,
      elapsedMs,
    );
  }

  return {
    async list(origin) {
      const body = '{"jsonrpc":"2.0","method":"call","params":{},"id":null}';
      const res = await http.send(request('POST', '/web/database/list', undefined, origin, body), origin);
      if (res.status !== 200 || !res.contentType.startsWith('application/json')) throw errorFromAnswer(res, http.url, '', config.maxDepth);
      const envelope = jsonFromAnswer(res, http.url, config.maxDepth);
      const result = isStruct(envelope) ? envelope.get('result') : undefined;
      if (Array.isArray(result) && result.every((n): n is string => typeof n === 'string')) return result;
      const error = isStruct(envelope) ? envelope.get('error') : undefined;
      const fallback = upstreamError('upstream_invalid', 'upstream /web/database/list answered no list', http.url, res.elapsedMs);
      const failure = errorFromJsonRpc(error, fallback);
      // the rewritten manager's AccessDenied names why ("… admin disabled database listing."); 19.0's exp_list says "Access Denied"
      throw failure.kind === 'access_denied' ? accessDenied() : failure;
    },

    async manager(origin) {
      const get = request('GET', managerPath, undefined, origin);
      const host = get.headers.host ?? '';
      const seen = unprotected.get(host);
      if (seen !== undefined && now() < seen.until) return seen.page;
      unprotected.delete(host);
      const before = changes;
      // The page opens every database to check its version (`list_db_incompatible`): one dropped
      // between the list and the check fails the render with HTTP 500 (OperationalError `database
      // "x" does not exist`), which says nothing of the manager itself, so the page is asked again.
      let res = await http.send(get, origin);
      for (let again = 0; res.status >= 500 && again < managerRetries; again++)
        res = await http.send(request('GET', managerPath, undefined, origin), origin);
      if (res.status !== 200 || !res.contentType.startsWith('text/html')) return undefined;
      const page = parseManagerPage(res.text);
      if (page.insecure && before === changes) {
        if (unprotected.size >= rememberedHosts) unprotected.delete(unprotected.keys().next().value as string);
        unprotected.set(host, { page, until: now() + insecureManagerMemoryMs });
      }
      return page;
    },

    async submit(route, fields, db, origin) {
      const path = `/web/database/${route}`;
      try {
        await expectRedirect(
          path,
          request('POST', path, db, origin, urlencodedForm(fields)),
          { route, db, newName: fieldValue(fields, 'new_name') },
          origin,
        );
      } finally {
        // whatever the answer, the manager may be protected now
        if (route === 'change_password') forget();
      }
    },

    forgetManager: forget,

    async backup(fields, db, origin) {
      const path = '/web/database/backup';
      const res = await openStream(http, request('POST', path, db, origin, urlencodedForm(fields)), origin);
      // 19.0 streams every format as octet-stream; the rewrite sends a zip as application/zip
      if (res.status === 200 && (res.contentType.startsWith('application/octet-stream') || res.contentType.startsWith('application/zip')))
        return res.body;
      const text = await res.text();
      const answer = classifyDatabaseAnswer(res.status, res.contentType, undefined, text);
      throw failure(answer.kind === 'error' ? answer.text : undefined, res.status, path, { route: 'backup', db }, res.elapsedMs);
    },

    async restore(fields, file, db, origin) {
      const path = '/web/database/restore';
      await expectRedirect(path, request('POST', path, db, origin, multipartForm(fields, file)), { route: 'restore', db }, origin);
    },

    async managerKind(origin) {
      if (kind !== undefined) return kind;
      // A GET is side-effect free: the POST-only route answers 405 where it exists, 404 where not.
      const res = await http.send(request('GET', '/web/database/rename', undefined, origin), origin);
      if (res.status !== 404 && res.status !== 405) {
        throw upstreamError(
          'upstream_invalid',
          `upstream /web/database/rename answered HTTP ${res.status} to a GET`,
          http.url,
          res.elapsedMs,
        );
      }
      kind = res.status === 405 ? 'modules-db' : 'service-db';
      return kind;
    },
  };
}
