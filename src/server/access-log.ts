/**
 * One log line per legacy call: dialect, service, model, method, outcome, fault code, duration,
 * client User-Agent and address, request id, and the database and user it ran as (the user as the
 * migration report names it: `login:` and a hash, or `uid:<n>`). Never arguments, passwords or keys.
 */
import type { CallOrigin, Dialect } from '../call.ts';
import type { Logger } from '../log.ts';
import { outcomeName, type CallOutcome } from '../wire/response.ts';
import { faultFromError } from '../wire/xmlrpc/fault-v2.ts';

/**
 * The logger the access line goes through: `log` without pino's redaction. The line is built below
 * from a fixed set of fields, none named by a redacted path and none an object (the `*.x` paths), so
 * redaction cannot change it; it still cost a censor call per field (the `*.x` paths make pino run
 * one on every value), the largest part of the line's cost (BENCHMARKS.md, issue #41). The warning
 * for a failed call, which carries a cause's text, stays on the redacting logger.
 */
const unredacted = new WeakMap<Logger, Logger>();
function accessLogger(log: Logger): Logger {
  let out = unredacted.get(log);
  if (out === undefined) {
    out = log.child({}, { redact: [] });
    unredacted.set(log, out);
  }
  return out;
}

/** Writes the line for one call that finished at `finishedAt` (`performance.now()`; the line may be written later). */
export function logCall(
  log: Logger,
  dialect: Dialect,
  origin: CallOrigin,
  outcome: CallOutcome,
  startedAt: number,
  finishedAt = performance.now(),
  identity?: { database: string; user: string },
): void {
  const line = {
    requestId: origin.requestId,
    db: identity?.database,
    user: identity?.user,
    dialect,
    service: outcome.service,
    method: outcome.method,
    model: outcome.model,
    modelMethod: outcome.modelMethod,
    // `ok` or the error kind, as the metrics' label; a login refused with False is `access_denied`
    // (without a faultCode: none was sent)
    outcome: outcomeName(outcome),
    faultCode: outcome.error ? faultFromError(outcome.error).faultCode : undefined,
    error: outcome.error?.name ?? (outcome.refusedLogin === true ? 'odoo.exceptions.AccessDenied' : undefined),
    durationMs: Math.round((finishedAt - startedAt) * 1000) / 1000,
    clientIp: origin.ip,
    userAgent: origin.userAgent,
  };
  if (outcome.error && (outcome.error.kind.startsWith('upstream_') || outcome.error.message === 'internal gateway error')) {
    log.warn({ ...line, detail: outcome.error.message, cause: describeCause(outcome.error.cause) }, 'legacy call failed upstream');
  } else {
    accessLogger(log).info(line, 'legacy call');
  }
}

/**
 * A cause's class, code and stack frames, without its message line: a message may quote the data
 * that caused it.
 */
function describeCause(cause: unknown): string | undefined {
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  const frames = (cause.stack ?? '').split('\n').slice(1, 8).join('\n');
  return `${cause.name}${typeof code === 'string' ? ` ${code}` : ''}\n${frames}`;
}
