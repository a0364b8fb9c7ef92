import { describe, expect, it } from 'vitest';
import { compileRoutes, type CallFacts } from './match.ts';
import type { RouteRule } from './routes-file.ts';

const rule = (name: string, match: RouteRule['match'], mode: RouteRule['mode']): RouteRule => ({ name, line: 1, match, mode });
const facts = (f: Partial<CallFacts>): CallFacts => ({
  service: 'object',
  method: 'res.partner.read',
  userAgent: 'erp/1',
  ip: '10.1.2.3',
  ...f,
});

describe('compileRoutes', () => {
  const routes = compileRoutes(
    [
      rule('deny-unlink', { method: ['*.unlink'] }, 'deny'),
      rule('sync-login', { login: ['sync@example.com'], database: ['prod*'] }, 'native'),
      rule('lan', { source: ['10.1.0.0/16', '2001:db8::/32'], userAgent: '^erp/' }, 'verify'),
      rule('db', { service: ['db'] }, 'native'),
    ],
    'translate',
  );

  it('takes the first rule whose every selector matches', () => {
    expect(routes.select(facts({ method: 'res.partner.unlink' }))).toEqual({ mode: 'deny', rule: 'deny-unlink' });
    expect(routes.select(facts({ login: 'sync@example.com', database: 'prod-eu' }))).toEqual({ mode: 'native', rule: 'sync-login' });
    expect(routes.select(facts({}))).toEqual({ mode: 'verify', rule: 'lan' });
    expect(routes.select(facts({ ip: '::ffff:10.1.9.9' }))).toEqual({ mode: 'verify', rule: 'lan' });
    expect(routes.select(facts({ ip: '2001:db8::5' }))).toEqual({ mode: 'verify', rule: 'lan' });
    expect(routes.select(facts({ service: 'db', method: 'db.list', ip: '192.0.2.1' }))).toEqual({ mode: 'native', rule: 'db' });
  });

  it('falls to the default mode, and a selector without its fact does not match', () => {
    expect(routes.select(facts({ ip: '10.2.0.1' }))).toEqual({ mode: 'translate', rule: undefined });
    expect(routes.select(facts({ ip: '10.2.0.1', database: 'prod-eu', login: undefined }))).toEqual({ mode: 'translate', rule: undefined });
    expect(routes.select(facts({ userAgent: 'other/erp/2' }))).toEqual({ mode: 'translate', rule: undefined });
  });
});
