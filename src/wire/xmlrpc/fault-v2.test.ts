import { describe, expect, it } from 'vitest';
import { readXmlRpcExchanges } from '../../../test/fixtures-xml/corpus.ts';
import { LegacyError, legacyErrorKinds, type LegacyErrorKind } from '../../errors.ts';
import { encodeFault } from './encode.ts';
import { faultFromError } from './fault-v2.ts';

function error(kind: LegacyErrorKind, message: string, debug?: string): LegacyError {
  return new LegacyError(kind, { name: 'x.Y', message, ...(debug === undefined ? {} : { debug }) });
}

describe('faultFromError()', () => {
  const expected: Record<LegacyErrorKind, number> = {
    access_denied: 3,
    access_error: 4,
    user_error: 2,
    validation_error: 2,
    missing_error: 2,
    lock_error: 2,
    redirect_warning: 2,
    internal: 1,
    upstream_timeout: 1,
    upstream_unavailable: 1,
    upstream_invalid: 1,
  };

  it.each(legacyErrorKinds.map((k) => [k, expected[k]] as const))('maps %s to faultCode %i', (kind, code) => {
    const fault = faultFromError(error(kind, 'the message', 'Traceback…\nx.Y: the message\n'));
    expect(fault).toEqual({ faultCode: code, faultString: code === 1 ? 'Traceback…\nx.Y: the message\n' : 'the message' });
  });

  it("carries str(e) for faults 2–4 (a RedirectWarning's args tuple)", () => {
    const err = new LegacyError('redirect_warning', {
      name: 'odoo.exceptions.RedirectWarning',
      message: 'Go',
      str: "('Go', 12, 'Open', None)",
    });
    expect(faultFromError(err)).toEqual({ faultCode: 2, faultString: "('Go', 12, 'Open', None)" });
  });
});

describe('encodeFault(…, xmlrpc2) reproduces every /xmlrpc/2 corpus fault byte for byte', () => {
  const faults = readXmlRpcExchanges().filter((c) => c.decoded?.kind === 'fault' && c.path.startsWith('/xmlrpc/2/'));
  const kindOf: Record<number, LegacyErrorKind> = { 1: 'internal', 2: 'user_error', 3: 'access_denied', 4: 'access_error' };
  it.each(faults.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const { faultCode, faultString } = c.decoded.value as { faultCode: number; faultString: string };
    const err = faultCode === 1 ? error('internal', 'unused', faultString) : error(kindOf[faultCode]!, faultString);
    expect(encodeFault(err, 'xmlrpc2').toString('utf8')).toBe(c.responseBody);
  });
});
