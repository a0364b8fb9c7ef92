/**
 * Python's xmlrpc.client (v2 and v1) runs the core session (core-session.ts) through the gateway in
 * front of the simulator, with the admin's password (minted) and API key; then a raw /jsonrpc client
 * a short session. Every value and fault is asserted exactly; expected records come from the seed
 * data (fixtures/odoo-data), not from the gateway.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reprValue } from '../../src/python/py-repr.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { expectCoreSession, expectFaults, type RecordedFault, runClientScript } from './core-session.ts';

let stack: Stack;
let out: Record<string, Record<string, unknown>>;

interface Partner {
  id: number;
  name: string;
  is_company: boolean;
  active: boolean;
}
const partners = (
  JSON.parse(readFileSync(new URL('../../fixtures/odoo-data/res.partner.json', import.meta.url), 'utf8')) as { records: Partner[] }
).records;
const companies = partners.filter((p) => p.is_company && p.active).sort((a, b) => a.id - b.id);

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  const admin = stack.sim.users('demo').find((u) => u.login === 'admin');
  const script = new URL('./python_session.py', import.meta.url).pathname;
  out = await runClientScript('python3', [
    script,
    stack.gateway.url,
    'demo',
    'admin',
    admin?.password ?? '',
    stack.sim.keyFor('demo', 'admin'),
  ]);
}, 90_000);
afterAll(() => stack.close());

describe.each(['v2', 'v1'] as const)('Python xmlrpc.client on %s', (tag) => {
  it('runs the core session with the values Odoo answers, floats as float', () => {
    expectCoreSession(out[tag] as Record<string, unknown>, tag, { floatType: 'float' });
  });

  it("raises xmlrpc.client.Fault with the dialect's faultCode for codes 1 to 4", () => {
    const faults = out[tag]?.faults as Record<string, RecordedFault>;
    expectFaults(faults, tag, 'Fault');
    // str(Fault): "<Fault %s: %r>" % (faultCode, faultString)
    for (const f of Object.values(faults)) expect(f.message).toBe(`<Fault ${String(f.faultCode)}: ${reprValue(f.faultString as string)}>`);
  });
});

describe('raw /jsonrpc client', () => {
  const j = () =>
    out.jsonrpc as Record<string, { id: number; result?: unknown; error?: { code: number; data: { name: string; message: string } } }>;

  it('runs search_read, create, write, read, unlink', () => {
    expect(j().search_read?.result).toEqual(companies.slice(0, 2).map((p) => ({ id: p.id, name: p.name })));
    expect(j().create?.result).toBeTypeOf('number');
    expect(j().write?.result).toBe(true);
    expect(j().read?.result).toEqual([{ id: j().create?.result, name: 'E2E json 2' }]);
    expect(j().unlink?.result).toBe(true);
    expect(j().unlink?.id).toBe(42);
  });

  it('answers errors in the envelope Odoo 19 uses (code 0)', () => {
    expect(j().fault_unknown_model?.error).toMatchObject({
      code: 0,
      message: 'Odoo Server Error',
      data: { name: 'odoo.exceptions.UserError' },
    });
    expect(j().fault_bad_key?.error?.data).toMatchObject({ name: 'odoo.exceptions.AccessDenied', message: 'Access Denied' });
    expect(j().fault_typeerror?.error?.data.name).toBe('builtins.TypeError');
  });
});
