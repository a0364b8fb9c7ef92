/**
 * Reads an upstream answer into a value or a LegacyError: JSON bodies parsed losslessly, Odoo error
 * objects mapped by name, HTML pages recognised (unknown database) or refused as non-Odoo answers.
 */
import { LegacyError } from '../../errors.ts';
import { parseJson } from '../../json/index.ts';
import { isStruct, JsonText, type Value } from '../../value.ts';
import { errorFromJson2 } from './error-json.ts';
import { upstreamError } from './transport-error.ts';

/**
 * What these readers use of an upstream answer (`UpstreamResponse` of `pool.ts` is one): declared
 * here so that the error readers import nothing of the HTTP client that uses them.
 */
export interface UpstreamAnswer {
  status: number;
  contentType: string;
  text: string;
  elapsedMs: number;
}

/** The name JSON-2 gives a bearer refusal; the credentials layer evicts and re-checks on it. */
export const unauthorizedName = 'werkzeug.exceptions.Unauthorized';

/** Odoo's NOT_FOUND_NODB page: no database selected, or the named one does not exist. */
const noDatabaseMarker = 'No database is selected';

/**
 * Werkzeug's InternalServerError page: what Odoo answers when an exception escapes its request
 * handling (JSON-2 turns every exception of the method into a JSON body; encoding the result is later).
 */
const serverErrorMarker = '<p>The server encountered an internal error and was unable to complete your request.';

/** Parses a JSON answer; a body that is not JSON is an invalid upstream answer. */
export function jsonFromAnswer(res: UpstreamAnswer, url: string, maxDepth: number): Value {
  try {
    return parseJson(res.text, { maxDepth });
  } catch (cause) {
    throw upstreamError('upstream_invalid', `upstream answered HTTP ${res.status} with malformed JSON`, url, res.elapsedMs, cause);
  }
}

/** A JSON answer kept as text: parsed (or refused as malformed, as above) only if asked to. */
export function jsonTextFromAnswer(res: UpstreamAnswer, url: string, maxDepth: number): JsonText {
  return new JsonText(res.text, maxDepth, () => jsonFromAnswer(res, url, maxDepth));
}

/**
 * The error an answer of status >= 400 (or a non-JSON 200) stands for. `db` names the database the
 * call asked for, so an Odoo "no database" page becomes the fault legacy RPC gives for it.
 */
export function errorFromAnswer(res: UpstreamAnswer, url: string, db: string, maxDepth: number): LegacyError {
  const fallback = upstreamError(
    'upstream_invalid',
    `upstream answered HTTP ${res.status} ${res.contentType || 'without a content type'}`,
    url,
    res.elapsedMs,
  );
  if (res.contentType.startsWith('application/json')) {
    let body: Value;
    try {
      body = parseJson(res.text, { maxDepth });
    } catch {
      return fallback;
    }
    return errorFromJson2(body, fallback);
  }
  if (res.status === 404 && res.contentType.startsWith('text/html') && res.text.includes(noDatabaseMarker)) {
    return unknownDatabase(db);
  }
  if (res.status === 500 && res.contentType.startsWith('text/html') && res.text.includes(serverErrorMarker)) {
    return new LegacyError(fallback.kind, { name: fallback.name, message: fallback.message, failedEncoding: true });
  }
  return fallback;
}

/** The JSON-RPC code Odoo gives an `auth='user'` route without a logged-in session. */
const sessionExpiredCode = 100;

/**
 * The error a JSON-RPC envelope's `error` member (`{code, message, data}`, Odoo: `odoo/http.py`
 * `JsonRPCDispatcher.handle_error`) stands for: an expired session by its code, otherwise Odoo's
 * error object in `data`; `fallback` when there is none (no error member, or no readable `data`).
 */
export function errorFromJsonRpc(error: Value | undefined, fallback: LegacyError): LegacyError {
  if (error === undefined || !isStruct(error)) return fallback;
  if (error.get('code') === sessionExpiredCode) {
    return new LegacyError('internal', { name: 'odoo.http.SessionExpiredException', message: 'Session expired' });
  }
  return errorFromJson2(error.get('data') ?? null, fallback);
}

/**
 * What legacy RPC answers for a database that does not exist: fault 1 with a psycopg2
 * OperationalError. Odoo's text also names the PostgreSQL host and port; the gateway cannot know
 * them and leaves them out (intended deviation, COMPATIBILITY.md).
 */
export function unknownDatabase(db: string): LegacyError {
  const message = `connection to server failed: FATAL:  database "${db}" does not exist\n`;
  return new LegacyError('internal', { name: 'psycopg2.OperationalError', message });
}

/**
 * Whether `err` is Odoo's own answer for a database it does not have: PostgreSQL's `database "x"
 * does not exist` at connect (a psycopg2 OperationalError), or the AccessError "Database not found."
 * of a database the dbfilter hides. Any other psycopg2 error (a connection terminated while a
 * database is duplicated, PostgreSQL restarting) says nothing about the database's existence.
 */
export function isUnknownDatabaseAnswer(err: unknown): boolean {
  if (!(err instanceof LegacyError)) return false;
  if (err.kind === 'access_error' && err.message === 'Database not found.') return true;
  return (
    (err.name === 'psycopg2.OperationalError' || err.name === 'psycopg2.errors.InvalidCatalogName') &&
    /(?:^|FATAL:\s+)database "[^"\n]*" does not exist\n?$/.test(err.message)
  );
}
