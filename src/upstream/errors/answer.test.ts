import { describe, expect, it } from 'vitest';
import { LegacyError } from '../../errors.ts';
import { parseJson } from '../../json/index.ts';
import type { Value } from '../../value.ts';
import { errorFromAnswer, errorFromJsonRpc, errorFromTransport, kindFromName, unknownDatabase, type UpstreamAnswer } from './index.ts';

const res = (status: number, contentType: string, text: string): UpstreamAnswer => ({ status, contentType, text, elapsedMs: 12.4 });

describe('kindFromName()', () => {
  it.each([
    ['odoo.exceptions.AccessDenied', 'access_denied'],
    ['odoo.exceptions.AccessError', 'access_error'],
    ['odoo.exceptions.UserError', 'user_error'],
    ['odoo.exceptions.ValidationError', 'validation_error'],
    ['odoo.exceptions.MissingError', 'missing_error'],
    ['odoo.exceptions.LockError', 'lock_error'],
    ['odoo.exceptions.RedirectWarning', 'redirect_warning'],
    ['builtins.ValueError', 'internal'],
    ['psycopg2.errors.UniqueViolation', 'internal'],
  ])('%s → %s', (name, kind) => {
    expect(kindFromName(name)).toBe(kind);
  });
});

describe('errorFromAnswer()', () => {
  it('maps an Odoo error body by name, keeping message, arguments and debug', () => {
    const body =
      '{"name": "odoo.exceptions.MissingError", "message": "gone", "arguments": ["gone", 1], "context": {}, "debug": "Traceback...\\nodoo.exceptions.MissingError: gone\\n"}';
    const err = errorFromAnswer(res(404, 'application/json; charset=utf-8', body), 'http://o', 'gw', 64);
    expect(err).toMatchObject({ kind: 'missing_error', name: 'odoo.exceptions.MissingError', message: 'gone', arguments: ['gone', 1] });
    expect(err.debug).toContain('MissingError: gone');
  });

  it("recognises Odoo's no-database page as the legacy unknown-database fault", () => {
    const page =
      '<!doctype html><title>404 Not Found</title><p>No database is selected and the requested URL was not found in the server-wide controllers.</p>';
    const err = errorFromAnswer(res(404, 'text/html; charset=utf-8', page), 'http://o', 'nope', 64);
    expect(err.name).toBe('psycopg2.OperationalError');
    expect(err.lastLine).toBe('psycopg2.OperationalError: connection to server failed: FATAL:  database "nope" does not exist\n');
  });

  it("refuses a proxy's page as a non-Odoo answer, naming status and upstream", () => {
    const err = errorFromAnswer(res(502, 'text/html', '<h1>Bad Gateway</h1>'), 'http://odoo:8069', 'gw', 64);
    expect(err).toMatchObject({ kind: 'upstream_invalid', name: 'legacy_rpc_gateway.UpstreamError' });
    expect(err.message).toBe('upstream answered HTTP 502 text/html (http://odoo:8069, 12 ms)');
  });

  it('refuses malformed JSON error bodies the same way', () => {
    expect(errorFromAnswer(res(500, 'application/json', '{"name": '), 'http://o', 'gw', 64).kind).toBe('upstream_invalid');
  });

  it('builds the unknown-database fault for any name', () => {
    expect(unknownDatabase('')).toBeInstanceOf(LegacyError);
  });
});

describe('errorFromJsonRpc()', () => {
  const fallback = new LegacyError('upstream_invalid', { name: 'legacy_rpc_gateway.UpstreamError', message: 'no data' });
  const envelopeError = (text: string) => (parseJson(text, { maxDepth: 64 }) as Map<string, Value>).get('error');

  it("reads Odoo's error object from the error's data", () => {
    const error = envelopeError(
      '{"error": {"code": 200, "message": "Odoo Server Error", "data": {"name": "odoo.exceptions.AccessDenied", "message": "Access Denied", "arguments": ["Access Denied"], "context": {}, "debug": ""}}}',
    );
    expect(errorFromJsonRpc(error, fallback)).toMatchObject({
      kind: 'access_denied',
      name: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
    });
  });

  it('reads code 100 as an expired session, whatever its data says', () => {
    const error = envelopeError(
      '{"error": {"code": 100, "message": "Odoo Session Expired", "data": {"name": "builtins.Exception", "message": "x"}}}',
    );
    expect(errorFromJsonRpc(error, fallback)).toMatchObject({
      kind: 'internal',
      name: 'odoo.http.SessionExpiredException',
      message: 'Session expired',
    });
  });

  it('falls back when there is no error, or no readable data', () => {
    expect(errorFromJsonRpc(undefined, fallback)).toBe(fallback);
    expect(errorFromJsonRpc(envelopeError('{"error": "busy"}'), fallback)).toBe(fallback);
    expect(errorFromJsonRpc(envelopeError('{"error": {"code": 200, "message": "Odoo Server Error"}}'), fallback)).toBe(fallback);
  });
});

describe('errorFromTransport()', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, false, 'upstream_unavailable', 'upstream refused the connection'],
    [{ code: 'UND_ERR_SOCKET' }, false, 'upstream_unavailable', 'upstream closed the connection'],
    [{ code: 'UND_ERR_HEADERS_TIMEOUT' }, false, 'upstream_timeout', 'upstream did not answer in time'],
    [{ code: 'UND_ERR_CONNECT_TIMEOUT' }, false, 'upstream_timeout', 'upstream did not answer in time'],
    [new Error('aborted'), true, 'upstream_timeout', 'upstream did not answer in time'],
  ])('classifies %o by code', (err, timedOut, kind, what) => {
    const e = errorFromTransport(err, 'http://odoo:8069', 3001, timedOut);
    expect(e.kind).toBe(kind);
    expect(e.lastLine).toBe(`legacy_rpc_gateway.UpstreamError: ${what} (http://odoo:8069, 3001 ms)`);
  });
});
