import { describe, expect, it } from 'vitest';
import { connectionTokens, requestHeadersToUpstream, responseHeadersToClient } from './proxy-headers.ts';

const forwarded = { address: { ip: '203.0.113.9', proto: 'https' }, clientHost: 'erp.example.com' };

describe('connectionTokens()', () => {
  it('lower-cases valid tokens and drops invalid ones', () => {
    expect([...connectionTokens('Keep-Alive, X-Secret, bad value, ')]).toEqual(['keep-alive', 'x-secret']);
    expect([...connectionTokens(undefined)]).toEqual([]);
  });
});

describe('requestHeadersToUpstream()', () => {
  it('drops hop-by-hop and Connection-named headers and replaces the forwarded ones', () => {
    const out = requestHeadersToUpstream(
      {
        host: 'erp.example.com',
        connection: 'keep-alive, x-internal',
        'keep-alive': 'timeout=5',
        'x-internal': '1',
        te: 'trailers',
        'transfer-encoding': 'chunked',
        'proxy-authorization': 'Basic x',
        upgrade: 'h2c',
        expect: '100-continue',
        'x-forwarded-for': '6.6.6.6',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'http',
        cookie: 'session_id=abc',
        'content-type': 'application/json',
        'content-length': '12',
        'accept-encoding': 'gzip',
      },
      forwarded,
      'client',
    );
    expect(out).toEqual({
      cookie: 'session_id=abc',
      'content-type': 'application/json',
      'content-length': '12',
      'accept-encoding': 'gzip',
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'erp.example.com',
      host: 'erp.example.com',
    });
  });

  it.each([
    ['client', 'erp.example.com'],
    ['{db}.erp.example.com', 'erp.example.com'],
    ['odoo.internal', 'odoo.internal'],
    ['upstream', undefined],
  ])('sends Host for --upstream-host %s', (mode, host) => {
    expect(requestHeadersToUpstream({ host: 'erp.example.com' }, forwarded, mode).host).toBe(host);
  });

  it('keeps the hop-by-hop headers it is told to (websocket upgrades)', () => {
    const out = requestHeadersToUpstream(
      { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'k' },
      forwarded,
      'client',
      new Set(['upgrade']),
    );
    expect(out.upgrade).toBe('websocket');
    expect(out.connection).toBeUndefined();
    expect(out['sec-websocket-key']).toBe('k');
  });

  it('omits X-Forwarded-Host without a client Host', () => {
    const out = requestHeadersToUpstream({}, { ...forwarded, clientHost: '' }, 'client');
    expect(out).toEqual({ 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' });
  });
});

describe('responseHeadersToClient()', () => {
  it('keeps cookies, redirects and encodings, drops hop-by-hop headers', () => {
    const out = responseHeadersToClient({
      connection: 'keep-alive, x-hop',
      'keep-alive': 'timeout=5',
      'x-hop': '1',
      'transfer-encoding': 'chunked',
      'set-cookie': ['session_id=abc; Path=/', 'tz=UTC; Path=/'],
      location: '/web/login',
      'content-encoding': 'gzip',
      'content-length': '42',
    });
    expect([...out.entries()]).toEqual([
      ['content-encoding', 'gzip'],
      ['content-length', '42'],
      ['location', '/web/login'],
      ['set-cookie', 'session_id=abc; Path=/'],
      ['set-cookie', 'tz=UTC; Path=/'],
    ]);
  });
});
