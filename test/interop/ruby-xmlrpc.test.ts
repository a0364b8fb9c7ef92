/**
 * Ruby's XMLRPC::Client (Debian ruby-xmlrpc) runs the core session (core-session.ts) on v2 and v1
 * through the gateway in front of the simulator, nil parsing off (its default). Its parser accepts
 * only int faultCodes: v1's string faultCodes — Odoo's own — raise RuntimeError "wrong
 * fault-structure", on Odoo as through the gateway. Expected values come from the seed data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { expectCoreSession, expectedFaults, expectFaults, type RecordedFault, runClientScript } from './core-session.ts';

let stack: Stack;
let out: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  const admin = stack.sim.users('demo').find((u) => u.login === 'admin');
  const script = new URL('./ruby_session.rb', import.meta.url).pathname;
  out = await runClientScript('ruby', [
    script,
    stack.gateway.url,
    'demo',
    'admin',
    admin?.password ?? '',
    stack.sim.keyFor('demo', 'admin'),
  ]);
}, 90_000);
afterAll(() => stack.close());

/** Ruby's String#inspect for the ASCII texts of these faults: JSON's quoting and escapes. */
const inspect = (s: string) => JSON.stringify(s);

describe.each(['v2', 'v1'] as const)('Ruby XMLRPC::Client on %s', (tag) => {
  const r = () => out[tag] as Record<string, unknown>;

  it('runs the core session with nil parsing off, doubles as Float', () => {
    expect(r().nil_parser).toBe(false);
    expectCoreSession(r(), tag, { floatType: 'Float' });
  });
});

describe('Ruby XMLRPC::Client faults', () => {
  it('raises XMLRPC::FaultException with faultCode and faultString for codes 1 to 4 on v2', () => {
    const faults = out.v2?.faults as Record<string, RecordedFault>;
    expectFaults(faults, 'v2', 'XMLRPC::FaultException');
    for (const f of Object.values(faults)) expect(f.message).toBe(f.faultString);
  });

  it('raises RuntimeError "wrong fault-structure" for the string faultCodes of v1, as it does on Odoo', () => {
    const faults = out.v1?.faults as Record<string, RecordedFault>;
    expect(Object.keys(faults).sort()).toEqual(['1', '2', '3', '4']);
    for (const [code, want] of Object.entries(expectedFaults.v1)) {
      const f = faults[code] as RecordedFault;
      expect(f.class).toBe('RuntimeError');
      const head = `wrong fault-structure: {"faultCode"=>${inspect(want.faultCode)}, "faultString"=>`;
      if ('lastLine' in want) {
        expect(f.message).toMatch(
          new RegExp(`^${escape(head)}"Traceback \\(most recent call last\\):\\\\n.*\\\\n${escape(want.lastLine)}\\\\n"}$`),
        );
      } else {
        expect(f.message).toBe(`${head}${inspect(want.faultString)}}`);
      }
    }
  });
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
