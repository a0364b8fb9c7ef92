/**
 * The one error that crosses layers. It describes an Odoo-side exception (or a gateway failure
 * dressed as one) independently of any wire format; each dialect maps it to its own fault shape
 * (wire/xmlrpc/fault-v1.ts, fault-v2.ts, wire/jsonrpc/fault.ts).
 */
import type { Value } from './value.ts';

/** The closed set of error kinds. The wire tables switch on these; there are no ad-hoc kinds. */
export const legacyErrorKinds = [
  /** odoo.exceptions.AccessDenied: bad password, key or master password (v2 fault 3). */
  'access_denied',
  /** odoo.exceptions.AccessError: ACL, record rule, private method (v2 fault 4). */
  'access_error',
  /** odoo.exceptions.UserError, including "Object x doesn't exist" (v2 fault 2). */
  'user_error',
  /** odoo.exceptions.ValidationError, a UserError (v2 fault 2, v1 labelled UserError). */
  'validation_error',
  /** odoo.exceptions.MissingError, a UserError (v2 fault 2, v1 `warning -- MissingError`). */
  'missing_error',
  /** odoo.exceptions.LockError, a UserError (v2 fault 2). */
  'lock_error',
  /** odoo.exceptions.RedirectWarning (v2 fault 2, v1 `warning -- Warning`). */
  'redirect_warning',
  /** Any other Python exception (TypeError, ValueError, KeyError, ExpatError, psycopg2...): fault 1. */
  'internal',
  /** The upstream did not answer within the configured time (fault 1, UpstreamError). */
  'upstream_timeout',
  /** The upstream refused or reset the connection (fault 1, UpstreamError). */
  'upstream_unavailable',
  /** The upstream answered something that is not an Odoo answer (a proxy page, truncated JSON). */
  'upstream_invalid',
] as const;

export type LegacyErrorKind = (typeof legacyErrorKinds)[number];

/** The dotted Python name the gateway uses for its own upstream failures. */
export const upstreamErrorName = 'legacy_rpc_gateway.UpstreamError';

export interface LegacyErrorInit {
  /** Dotted exception name, e.g. `builtins.TypeError`, `odoo.exceptions.AccessDenied`. */
  name: string;
  /** `exception_to_unicode(e)`: what JSON-RPC puts in `data.message` and v2 faults 2-4 carry. */
  message: string;
  /** `e.args` as JSON-RPC's `data.arguments` shows them. Defaults to `[message]`. */
  arguments?: Value[];
  /** The traceback text (v2 fault 1 faultString, JSON-RPC `data.debug`). Built when absent. */
  debug?: string;
  /** `str(e)` when it differs from `message` (KeyError('foo') prints `'foo'`). */
  str?: string;
  /** The exception's `context` attribute (an AccessError's `suggested_company`), JSON-RPC's `data.context`. */
  context?: Value;
  /**
   * The upstream answered werkzeug's bare 500 page: its answer failed after the method ran, while
   * Odoo encoded it (bytes that are no UTF-8), as the same call's legacy JSON-RPC answer would fail.
   */
  failedEncoding?: true;
  cause?: unknown;
}

/** An Odoo exception as a legacy client must see it. Never carries secrets or call arguments. */
export class LegacyError extends Error {
  readonly kind: LegacyErrorKind;
  /** Dotted Python exception name. */
  override readonly name: string;
  readonly arguments: Value[];
  readonly debug: string;
  /** `str(e)`, as the traceback's last line prints it. */
  readonly str: string;
  /** `getattr(e, 'context', {})`: what JSON-RPC's `data.context` shows. */
  readonly context: Value;
  readonly failedEncoding: boolean;

  constructor(kind: LegacyErrorKind, init: LegacyErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = kind;
    this.name = init.name;
    this.arguments = init.arguments ?? [init.message];
    this.str = init.str ?? init.message;
    this.context = init.context ?? new Map();
    this.failedEncoding = init.failedEncoding === true;
    // AccessDenied drops its own traceback (`suppress_traceback()`): Odoo prints its last line alone
    this.debug = init.debug ?? (kind === 'access_denied' ? `${this.lastLine}\n` : syntheticTraceback(init.name, this.str));
  }

  /** The last traceback line: `TypeError: msg`, `odoo.exceptions.UserError: msg`. */
  get lastLine(): string {
    return `${tracebackName(this.name)}: ${this.str}`;
  }

  /** Turns anything caught into a LegacyError; an unknown throw becomes `internal`, kept as cause. */
  static from(reason: unknown): LegacyError {
    if (reason instanceof LegacyError) return reason;
    return new LegacyError('internal', {
      name: upstreamErrorName,
      message: 'internal gateway error',
      cause: reason,
    });
  }
}

/** Python prints builtins without their module: `builtins.TypeError` → `TypeError`. */
export function tracebackName(name: string): string {
  return name.startsWith('builtins.') ? name.slice('builtins.'.length) : name;
}

/**
 * A traceback for errors the gateway raises itself. Clients only read its last line
 * (`<Exception>: <message>`), which matches what Odoo prints; the frame names the gateway.
 */
export function syntheticTraceback(name: string, text: string): string {
  return (
    'Traceback (most recent call last):\n' + '  File "legacy-rpc-gateway", line 1, in dispatch\n' + `${tracebackName(name)}: ${text}\n`
  );
}

// Constructors for the Odoo exceptions the gateway raises itself, with Odoo's default texts.

export function accessDenied(message = 'Access Denied'): LegacyError {
  return new LegacyError('access_denied', { name: 'odoo.exceptions.AccessDenied', message });
}

export function userError(message: string): LegacyError {
  return new LegacyError('user_error', { name: 'odoo.exceptions.UserError', message });
}

export function missingError(message: string): LegacyError {
  return new LegacyError('missing_error', { name: 'odoo.exceptions.MissingError', message });
}

export function accessError(message: string): LegacyError {
  return new LegacyError('access_error', { name: 'odoo.exceptions.AccessError', message });
}

/** A plain Python exception (`TypeError`, `ValueError`, ...) raised inside the dispatch. */
export function pythonError(pyName: string, message: string, str?: string): LegacyError {
  const name = pyName.includes('.') ? pyName : `builtins.${pyName}`;
  return new LegacyError('internal', str === undefined ? { name, message } : { name, message, str });
}

/** What cut a call short after its request was sent upstream: its `--call-timeout`, or the shutdown grace period ending. */
export type CutCause = 'call_timeout' | 'shutdown';

const cutAfterSending = new WeakMap<LegacyError, CutCause>();

/**
 * A copy of `err` (so a reason shared by every aborted call is not marked for all) that says the
 * request had been sent upstream when `cause` cut it: Odoo may have run, even committed, it.
 */
export function sentThenCut(err: LegacyError, cause: CutCause): LegacyError {
  const copy = new LegacyError(err.kind, { name: err.name, message: err.message, cause: err });
  cutAfterSending.set(copy, cause);
  return copy;
}

/** Why the request behind `err` was cut after it was sent, if it was. */
export function cutAfterSendingOf(err: unknown): CutCause | undefined {
  return err instanceof LegacyError ? cutAfterSending.get(err) : undefined;
}

const unknownOutcomes = new WeakMap<LegacyError, CutCause>();

/** Marks the fault of a call that may have changed data and whose outcome is unknown (counted in the metrics). */
export function markUnknownOutcome(err: LegacyError, cause: CutCause): LegacyError {
  unknownOutcomes.set(err, cause);
  return err;
}

/** For a fault answering a write cut after it was sent: what cut it. */
export function unknownOutcomeOf(err: LegacyError | undefined): CutCause | undefined {
  return err === undefined ? undefined : unknownOutcomes.get(err);
}
