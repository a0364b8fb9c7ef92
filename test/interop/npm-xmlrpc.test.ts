/**
 * The npm `xmlrpc` client (node-xmlrpc) runs the core session (core-session.ts) on v2 and v1 through
 * the gateway in front of the simulator, in a child process with TZ=America/New_York, plus what only
 * it sends: `<int>3000000000`, CDATA strings and `<params/>`. Expected values come from the seed data.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { expectCoreSession, expectFaults, localWallClock, nodeClientEnv, runClientScript, type RecordedFault } from './core-session.ts';

let stack: Stack;
let out: Record<string, Record<string, unknown>>;

const partners = (
  JSON.parse(readFileSync(new URL('../../fixtures/odoo-data/res.partner.json', import.meta.url), 'utf8')) as {
    records: { active: boolean }[];
  }
).records;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  const admin = stack.sim.users('demo').find((u) => u.login === 'admin');
  const script = new URL('./xmlrpc_session.mjs', import.meta.url).pathname;
  out = await runClientScript(
    process.execPath,
    [script, stack.gateway.url, 'demo', 'admin', admin?.password ?? '', stack.sim.keyFor('demo', 'admin')],
    nodeClientEnv,
  );
}, 90_000);
afterAll(() => stack.close());

it('runs in America/New_York, where 2026-10-15 is UTC-4', () => {
  expect(out.tz).toEqual({ zone: 'America/New_York', offset: 240 });
});

describe.each(['v2', 'v1'] as const)('npm xmlrpc on %s', (tag) => {
  it('runs the core session; a Date arrives as New York wall-clock time, as on Odoo', () => {
    expectCoreSession(out[tag] as Record<string, unknown>, tag, { floatType: 'number', datetimeRead: localWallClock('America/New_York') });
    expect(localWallClock('America/New_York')).toBe('2026-10-15 06:30:00');
  });

  it('sends <int> beyond 2^31 and CDATA strings that Odoo accepts', () => {
    expect(out[tag]?.big_int).toBe(partners.filter((p) => p.active).length);
    expect(out[tag]?.cdata_read).toEqual([{ id: expect.any(Number), name: `Node & <CDATA> ${tag}` }]);
    expect(out[tag]?.cdata_unlink).toBe(true);
  });

  it("rejects with node-xmlrpc's Error carrying faultCode and faultString for codes 1 to 4", () => {
    const faults = out[tag]?.faults as Record<string, RecordedFault>;
    expectFaults(faults, tag, 'Error');
    for (const f of Object.values(faults)) expect(f.message).toBe(`XML-RPC fault${f.faultString ? `: ${String(f.faultString)}` : ''}`);
  });
});
