/**
 * Perl's RPC::XML::Client (Debian librpc-xml-perl) runs the core session (core-session.ts) on v2 and
 * v1 through the gateway in front of the simulator. It declares encoding="us-ascii" and sends UTF-8
 * bytes: Odoo's expat refuses the first non-ASCII byte, and so does the gateway; with
 * `$RPC::XML::ENCODING = 'UTF-8'` the same name goes through. Expected values come from the seed data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { expectCoreSession, expectFaults, expectTraceback, runClientScript, unicodeName, type RecordedFault } from './core-session.ts';

let stack: Stack;
let out: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  const admin = stack.sim.users('demo').find((u) => u.login === 'admin');
  const script = new URL('./perl_session.pl', import.meta.url).pathname;
  out = await runClientScript('perl', [
    script,
    stack.gateway.url,
    'demo',
    'admin',
    admin?.password ?? '',
    stack.sim.keyFor('demo', 'admin'),
  ]);
}, 90_000);
afterAll(() => stack.close());

describe.each(['v2', 'v1'] as const)('Perl RPC::XML::Client on %s', (tag) => {
  const r = () => out[tag] as Record<string, unknown>;

  it('runs the core session, doubles as RPC::XML::double', () => {
    expectCoreSession(r(), tag, { floatType: 'RPC::XML::double' });
  });

  it('sends markup characters under its us-ascii declaration', () => {
    expect(r().ascii_markup).toEqual([[r().create, `${unicodeName(tag)} v2`]]);
  });

  it('faults on non-ASCII bytes under encoding="us-ascii" with expat\'s message and column, as Odoo does', () => {
    const column = r().non_ascii_column as number;
    const message = `not well-formed (invalid token): line 1, column ${column}`;
    const f = r().non_ascii_fault as RecordedFault;
    expect(f).toMatchObject({ class: 'RPC::XML::fault', faultCode: tag === 'v2' ? 1 : message });
    expectTraceback(f.faultString, `xml.parsers.expat.ExpatError: ${message}`);
  });

  it('returns RPC::XML::fault objects for codes 1 to 4', () => {
    expectFaults(r().faults, tag, 'RPC::XML::fault');
  });
});
