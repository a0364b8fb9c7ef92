/**
 * LegacyError → `/xmlrpc` (v1) fault with a *string* faultCode, as `xmlrpc_handle_exception_string`
 * in Odoo 19's `addons/rpc/controllers/xmlrpc.py` (Odoo: `addons/rpc/controllers/xmlrpc.py`, fixtures/conformance/INDEX.md findings §4).
 */
import type { LegacyError } from '../../errors.ts';

/** An XML-RPC fault whose faultCode is a string ("historical and non-compliant"). */
export interface StringFault {
  faultCode: string;
  faultString: string;
}

/**
 * The `/xmlrpc` fault for an error: Odoo warnings as `warning -- <Kind>\n\n<str(e)>` with an empty
 * faultString, `AccessDenied` with `str(e)`, anything else the exception text and the traceback.
 */
export function stringFaultFromError(err: LegacyError): StringFault {
  switch (err.kind) {
    // odoo.exceptions.RedirectWarning
    case 'redirect_warning':
      return { faultCode: `warning -- Warning\n\n${err.str}`, faultString: '' };
    // odoo.exceptions.MissingError
    case 'missing_error':
      return { faultCode: `warning -- MissingError\n\n${err.str}`, faultString: '' };
    // odoo.exceptions.AccessError
    case 'access_error':
      return { faultCode: `warning -- AccessError\n\n${err.str}`, faultString: '' };
    // odoo.exceptions.AccessDenied
    case 'access_denied':
      return { faultCode: 'AccessDenied', faultString: err.str };
    // odoo.exceptions.UserError, and its subclasses ValidationError and LockError
    case 'user_error':
    case 'validation_error':
    case 'lock_error':
      return { faultCode: `warning -- UserError\n\n${err.str}`, faultString: '' };
    // Any other exception: exception_to_unicode(e) and the traceback
    case 'internal':
    case 'upstream_timeout':
    case 'upstream_unavailable':
    case 'upstream_invalid':
      return { faultCode: err.message, faultString: err.debug };
  }
}
