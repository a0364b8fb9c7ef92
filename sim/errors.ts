/**
 * The exceptions the simulator raises, and their JSON-2 error body (Odoo: `odoo/http.py` `Json2Dispatcher.handle_error`): `{name, message,
 * arguments, context, debug}` with Odoo's statuses. Werkzeug HTTP exceptions carry `[description,
 * code]` as arguments; Odoo exceptions carry `[message]`.
 */
import type { Value } from '../src/value.ts';

/** A Python exception as JSON-2 serialises it. */
export class OdooError extends Error {
  constructor(
    /** Dotted class name: `odoo.exceptions.AccessError`, `builtins.ValueError`, `werkzeug.exceptions.NotFound`. */
    readonly odooName: string,
    message: string,
    /** HTTP status of the JSON-2 answer. */
    readonly status: number,
    /** `exc.args` as serialised. */
    readonly args: Value[] = [message],
    /** Extra response headers (`WWW-Authenticate`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'OdooError';
  }
}

const werkzeugReasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
};

function werkzeug(cls: string, code: number, description: string, headers: Record<string, string> = {}): OdooError {
  return new OdooError(`werkzeug.exceptions.${cls}`, description, code, [description, code], headers);
}

/** werkzeug NotFound (404): unknown model, unknown method, wrong verb on `/json/2`. */
export const notFound = (description: string): OdooError => werkzeug('NotFound', 404, description);
/** werkzeug BadRequest (400): a body that is not JSON. */
export const badRequest = (description: string): OdooError => werkzeug('BadRequest', 400, description);
/** werkzeug UnprocessableEntity (422): binding errors, ids on a model-level method. */
export const unprocessable = (description: string): OdooError => werkzeug('UnprocessableEntity', 422, description);
/** werkzeug Unauthorized (401) with `WWW-Authenticate: Bearer ` as werkzeug 2.2.2 renders it. */
export const unauthorized = (description: string): OdooError =>
  werkzeug('Unauthorized', 401, description, { 'WWW-Authenticate': 'Bearer ' });

const odoo = (cls: string, status: number) => (message: string) => new OdooError(`odoo.exceptions.${cls}`, message, status);

/** odoo.exceptions.AccessError (403): ACL, record rule, private method. */
export const accessError = odoo('AccessError', 403);
/** odoo.exceptions.AccessDenied raised inside a method (403 on JSON-2: `generate`/`revoke` key checks). */
export const accessDenied = odoo('AccessDenied', 403);
/** odoo.exceptions.MissingError (404): write/unlink on ids that do not exist. */
export const missingError = odoo('MissingError', 404);
/** odoo.exceptions.UserError (422). */
export const userError = odoo('UserError', 422);
/** odoo.exceptions.ValidationError (422), also what IntegrityErrors become. */
export const validationError = odoo('ValidationError', 422);

const builtin = (cls: string) => (message: string) => new OdooError(`builtins.${cls}`, message, 500);

/** builtins.ValueError (500): bad domain, bad selection value, bad date. */
export const valueError = builtin('ValueError');
/** builtins.TypeError (500): wrong types reaching the ORM. */
export const typeError = builtin('TypeError');
/** builtins.AssertionError (500). */
export const assertionError = builtin('AssertionError');
/** builtins.NotImplementedError (500): something Odoo does that the simulator does not model. */
export const notImplemented = builtin('NotImplementedError');

/** Turns any throw into an OdooError; a JS bug becomes a 500 naming the simulator. */
export function errorFrom(err: unknown): OdooError {
  if (err instanceof OdooError) return err;
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new OdooError('builtins.RuntimeError', `odoo simulator internal error: ${text}`, 500);
}

/** The last traceback line, as Python prints it (`ValueError: …`, `werkzeug.exceptions.NotFound: 404 Not Found: …`). */
function lastLine(err: OdooError): string {
  if (err.odooName.startsWith('builtins.')) return `${err.odooName.slice('builtins.'.length)}: ${err.message}`;
  if (err.odooName.startsWith('werkzeug.exceptions.')) {
    return `${err.odooName}: ${err.status} ${werkzeugReasons[err.status] ?? ''}: ${err.message}`;
  }
  return `${err.odooName}: ${err.message}`;
}

/** The `debug` member: a short traceback whose last line has Odoo's form. AccessDenied has none. */
export function debugText(err: OdooError, where: string): string {
  if (err.odooName === 'odoo.exceptions.AccessDenied') return `${lastLine(err)}\n`;
  return `Traceback (most recent call last):\n  File "odoo-simulator", line 1, in ${where}\n${lastLine(err)}\n`;
}

/** The JSON-2 error body, member order as Odoo's `serialize_exception`. */
export function errorToBody(err: OdooError, where: string): Value {
  return new Map<string, Value>([
    ['name', err.odooName],
    ['message', err.message],
    ['arguments', err.args],
    ['context', new Map()],
    ['debug', debugText(err, where)],
  ]);
}
