import { describe, expect, it } from 'vitest';
import { sessionInfoOf, tapSessionLogin } from './session-login-tap.ts';

const answer = (result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, result });

describe('sessionInfoOf()', () => {
  it('reads db, uid, username and the web.base.url it states from a successful login', () => {
    const info = { uid: 2, username: 'admin', db: 'demo', is_admin: true, 'web.base.url': 'http://odoo.internal:8069' };
    expect(sessionInfoOf(answer(info))).toStrictEqual({ db: 'demo', uid: 2, login: 'admin', baseUrl: 'http://odoo.internal:8069' });
    expect(sessionInfoOf(answer({ ...info, 'web.base.url': '' }))?.baseUrl).toBeUndefined();
  });

  it.each([
    ['a 2FA login (uid null)', answer({ uid: null })],
    ['an error envelope', JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 0 } })],
    ['a non-JSON body', '<html>'],
    ['a missing username', answer({ uid: 2, db: 'demo' })],
  ])('ignores %s', (_what, text) => {
    expect(sessionInfoOf(text)).toBeUndefined();
  });
});

describe('tapSessionLogin()', () => {
  it('passes the body through unchanged and reports the login once it has ended', async () => {
    const text = answer({ uid: 5, username: 'demo', db: 'gw', 'web.base.url': 'https://erp.example.com' });
    const seen: unknown[] = [];
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        const bytes = new TextEncoder().encode(text);
        c.enqueue(bytes.slice(0, 10));
        c.enqueue(bytes.slice(10));
        c.close();
      },
    });
    const out = await new Response(tapSessionLogin(source, (...args) => seen.push(args))).text();
    expect(out).toBe(text);
    expect(seen).toEqual([['gw', 5, 'demo', 'https://erp.example.com']]);
  });
});
