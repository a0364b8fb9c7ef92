import { describe, expect, it } from 'vitest';
import { readXmlRpcExchanges } from '../../../test/fixtures-xml/corpus.ts';
import { LegacyError, legacyErrorKinds, type LegacyErrorKind } from '../../errors.ts';
import { encodeFault } from './encode.ts';
import { stringFaultFromError } from './fault-v1.ts';

const debug = 'Traceback (most recent call last):\nx.Y: the message\n';

describe('stringFaultFromError()', () => {
  const expected: Record<LegacyErrorKind, [string, string]> = {
    access_denied: ['AccessDenied', 'the message'],
    access_error: ['warning -- AccessError\n\nthe message', ''],
    user_error: ['warning -- UserError\n\nthe message', ''],
    validation_error: ['warning -- UserError\n\nthe message', ''],
    missing_error: ['warning -- MissingError\n\nthe message', ''],
    lock_error: ['warning -- UserError\n\nthe message', ''],
    redirect_warning: ['warning -- Warning\n\nthe message', ''],
    internal: ['the message', debug],
    upstream_timeout: ['the message', debug],
    upstream_unavailable: ['the message', debug],
    upstream_invalid: ['the message', debug],
  };

  it.each(legacyErrorKinds.map((k) => [k, ...expected[k]] as const))('maps %s to faultCode %j', (kind, faultCode, faultString) => {
    const err = new LegacyError(kind, { name: 'x.Y', message: 'the message', debug });
    expect(stringFaultFromError(err)).toEqual({ faultCode, faultString });
  });

  it("uses exception_to_unicode for other exceptions (a KeyError's bare key)", () => {
    const err = new LegacyError('internal', { name: 'builtins.KeyError', message: 'foo', str: "'foo'" });
    expect(stringFaultFromError(err).faultCode).toBe('foo');
  });
});

/** The LegacyError behind a v1 corpus fault, read back from its faultCode. */
function errorFromStringFault(faultCode: string, faultString: string): LegacyError {
  const warnings: [string, LegacyErrorKind][] = [
    ['warning -- UserError\n\n', 'user_error'],
    ['warning -- MissingError\n\n', 'missing_error'],
    ['warning -- AccessError\n\n', 'access_error'],
    ['warning -- Warning\n\n', 'redirect_warning'],
  ];
  for (const [prefix, kind] of warnings) {
    if (faultCode.startsWith(prefix)) return new LegacyError(kind, { name: 'x.Y', message: faultCode.slice(prefix.length) });
  }
  if (faultCode === 'AccessDenied') return new LegacyError('access_denied', { name: 'odoo.exceptions.AccessDenied', message: faultString });
  return new LegacyError('internal', { name: 'x.Y', message: faultCode, debug: faultString });
}

describe('encodeFault(…, xmlrpc1) reproduces every /xmlrpc corpus fault byte for byte', () => {
  const faults = readXmlRpcExchanges().filter((c) => c.decoded?.kind === 'fault' && !c.path.startsWith('/xmlrpc/2/'));
  it('covers the corpus v1 faults', () => {
    expect(faults.length).toBeGreaterThanOrEqual(14);
  });
  it.each(faults.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const { faultCode, faultString } = c.decoded.value as { faultCode: string; faultString: string };
    expect(encodeFault(errorFromStringFault(faultCode, faultString), 'xmlrpc1').toString('utf8')).toBe(c.responseBody);
  });
});
