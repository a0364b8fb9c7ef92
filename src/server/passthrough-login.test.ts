import { describe, expect, it } from 'vitest';
import { createCallValues, type CallOrigin } from '../call.ts';
import { loginAtBaseUrl, loginDatabase } from './passthrough-login.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const authenticate = (params: unknown) => bytes(JSON.stringify({ jsonrpc: '2.0', method: 'call', id: 1, params }));
const origin: CallOrigin = {
  host: 'gw:8070',
  ip: '10.0.0.9',
  proto: 'http',
  userAgent: '',
  requestId: '',
  values: createCallValues(),
  signal: new AbortController().signal,
};

describe('loginDatabase()', () => {
  it('reads params.db of an authenticate body', () => {
    expect(loginDatabase(authenticate({ db: 'erp', login: 'admin', password: 'x' }))).toBe('erp');
  });
  it.each([
    ['no db', authenticate({ login: 'admin' })],
    ['an empty db', authenticate({ db: '' })],
    ['a db that is no string', authenticate({ db: 1 })],
    ['no JSON', bytes('db=erp')],
    ['a body past 64 KiB', authenticate({ db: 'erp', pad: 'x'.repeat(70_000) })],
  ])('finds none in %s', (_what, body) => {
    expect(loginDatabase(body)).toBeUndefined();
  });
});

describe('loginAtBaseUrl()', () => {
  const asked: string[] = [];
  const known = async (db: string) => (
    asked.push(db),
    db === 'erp' ? 'https://erp.example.com' : db === 'pathy' ? 'https://x.example.com/odoo' : undefined
  );
  const body = (db: string) => authenticate({ db, login: 'admin', password: 'x' });

  it('sends Host and X-Forwarded-Host/-Proto of the base URL Odoo has', async () => {
    expect(await loginAtBaseUrl({ method: 'POST', path: '/web/session/authenticate', body: body('erp') }, origin, known)).toEqual({
      host: 'erp.example.com',
      'x-forwarded-host': 'erp.example.com',
      'x-forwarded-proto': 'https',
    });
  });

  it('changes nothing while the base URL is unknown, or one no login can be made at (a path)', async () => {
    for (const db of ['other', 'pathy'])
      expect(await loginAtBaseUrl({ method: 'POST', path: '/web/session/authenticate', body: body(db) }, origin, known)).toBeUndefined();
  });

  it('leaves every other request alone without asking', async () => {
    asked.length = 0;
    for (const request of [
      { method: 'POST', path: '/web/login', body: body('erp') },
      { method: 'GET', path: '/web/session/authenticate', body: undefined },
      { method: 'POST', path: '/web/session/authenticate', body: undefined },
    ])
      expect(await loginAtBaseUrl(request, origin, known)).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
