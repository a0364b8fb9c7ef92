/**
 * PHP's xmlrpc_encode_request / xmlrpc_decode (Debian php-xmlrpc, the PECL extension) run the core
 * session (core-session.ts) on v2 and v1 through the gateway in front of the simulator, with
 * Ripcord's options (utf-8, markup escaping) and every empty kwargs sent as an empty PHP array
 * (`<array><data/></array>`). With the extension's default iso-8859-1 output, each UTF-8 byte is a
 * character reference of its own: Odoo stores Latin-1 mojibake, and so does the gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { expectCoreSession, expectFaults, runClientScript } from './core-session.ts';

let stack: Stack;
let out: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  const admin = stack.sim.users('demo').find((u) => u.login === 'admin');
  const script = new URL('./php_session.php', import.meta.url).pathname;
  out = await runClientScript('php', [
    script,
    stack.gateway.url,
    'demo',
    'admin',
    admin?.password ?? '',
    stack.sim.keyFor('demo', 'admin'),
  ]);
}, 90_000);
afterAll(() => stack.close());

describe.each(['v2', 'v1'] as const)('PHP xmlrpc (PECL) on %s', (tag) => {
  const r = () => out[tag] as Record<string, unknown>;

  it('runs the core session with empty arrays as kwargs and user_agent_env, doubles as double', () => {
    expectCoreSession(r(), tag, { floatType: 'double' });
  });

  it('stores the UTF-8 bytes of its default iso-8859-1 requests as Latin-1 characters, as Odoo does', () => {
    const sent = `PHP Zoë ${tag}`;
    expect(r().defaults_read).toEqual([{ id: expect.any(Number), name: Buffer.from(sent, 'utf8').toString('latin1') }]);
    expect(r().defaults_read).toEqual([{ id: expect.any(Number), name: `PHP ZoÃ« ${tag}` }]);
    expect(r().defaults_unlink).toBe(true);
  });

  it('returns fault arrays (xmlrpc_is_fault) for codes 1 to 4', () => {
    expectFaults(r().faults, tag, 'array (xmlrpc_is_fault)');
  });
});
