/**
 * Reads a JSON-2 (or JSON-RPC `data`) error object `{name, message, arguments, context, debug}`
 * defensively and turns it into a LegacyError (Odoo: `odoo/http.py` `Json2Dispatcher.handle_error`, fixtures/conformance/INDEX.md findings
 * §4).
 */
import { LegacyError, type LegacyErrorKind } from '../../errors.ts';
import { isStruct, type Value } from '../../value.ts';

/** Odoo exception name → kind. Anything not listed is `internal` (legacy fault 1). */
export function kindFromName(name: string): LegacyErrorKind {
  switch (name) {
    case 'odoo.exceptions.AccessDenied': // bad credentials (fault 3)
      return 'access_denied';
    case 'odoo.exceptions.AccessError': // ACL / record rule / private method (fault 4)
      return 'access_error';
    case 'odoo.exceptions.UserError': // fault 2
      return 'user_error';
    case 'odoo.exceptions.ValidationError': // a UserError (fault 2)
      return 'validation_error';
    case 'odoo.exceptions.MissingError': // a UserError (fault 2)
      return 'missing_error';
    case 'odoo.exceptions.LockError': // a UserError (fault 2)
      return 'lock_error';
    case 'odoo.exceptions.RedirectWarning': // 500 on JSON-2, fault 2 on legacy
      return 'redirect_warning';
    default: // builtins.*, psycopg2.*, werkzeug.* ...: fault 1
      return 'internal';
  }
}

/**
 * Builds the LegacyError an Odoo error body describes, or returns `fallback` when the body is not
 * such an object (a proxy page, truncated JSON parsed to something else).
 */
export function errorFromJson2(body: Value, fallback: LegacyError): LegacyError {
  if (!isStruct(body)) return fallback;
  const name = body.get('name');
  const message = body.get('message');
  if (typeof name !== 'string' || typeof message !== 'string') return fallback;
  const args = body.get('arguments');
  const debug = body.get('debug');
  const context = body.get('context');
  return new LegacyError(kindFromName(name), {
    name,
    message,
    arguments: Array.isArray(args) ? args : [message],
    ...(typeof debug === 'string' && debug.length > 0 ? { debug } : {}),
    // serialize_exception's `getattr(e, 'context', {})`: the same exception raised by legacy dispatch shows it too
    ...(context !== undefined && isStruct(context) ? { context } : {}),
  });
}
