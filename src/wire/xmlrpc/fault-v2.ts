/**
 * LegacyError → `/xmlrpc/2` fault (int faultCode), as `xmlrpc_handle_exception_int` in Odoo 19's
 * `addons/rpc/controllers/xmlrpc.py` (Odoo: `addons/rpc/controllers/xmlrpc.py`, fixtures/conformance/INDEX.md findings §4).
 */
import type { LegacyError } from '../../errors.ts';

/** An XML-RPC fault with Odoo's int codes (1 application error, 2 warning, 3 access denied, 4 access error). */
export interface IntFault {
  faultCode: number;
  faultString: string;
}

/**
 * The `/xmlrpc/2` fault for an error. Faults 2–4 carry `str(e)` (the message; for RedirectWarning,
 * the repr of its args tuple, kept in `err.str`); fault 1 carries the traceback.
 */
export function faultFromError(err: LegacyError): IntFault {
  switch (err.kind) {
    // odoo.exceptions.AccessError (RPC_FAULT_CODE_ACCESS_ERROR)
    case 'access_error':
      return { faultCode: 4, faultString: err.str };
    // odoo.exceptions.AccessDenied (RPC_FAULT_CODE_ACCESS_DENIED)
    case 'access_denied':
      return { faultCode: 3, faultString: err.str };
    // odoo.exceptions.RedirectWarning (RPC_FAULT_CODE_WARNING; Odoo checks it first)
    case 'redirect_warning':
      return { faultCode: 2, faultString: err.str };
    // odoo.exceptions.UserError and its subclasses ValidationError, MissingError, LockError
    case 'user_error':
    case 'validation_error':
    case 'missing_error':
    case 'lock_error':
      return { faultCode: 2, faultString: err.str };
    // Any other exception, and the gateway's own upstream failures (RPC_FAULT_CODE_APPLICATION_ERROR)
    case 'internal':
    case 'upstream_timeout':
    case 'upstream_unavailable':
    case 'upstream_invalid':
      return { faultCode: 1, faultString: err.debug };
  }
}
