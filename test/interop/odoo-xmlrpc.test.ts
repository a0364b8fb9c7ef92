/**
 * odoo-xmlrpc (npm, /xmlrpc/2 only) runs the core session (core-session.ts) through its connect()
 * and execute_kw() callbacks, its README's positional style, and render_report (which fails on
 * Odoo 19 too), through the gateway in front of the simulator, in a child process with
 * TZ=America/New_York. Expected values come from the seed data.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import {
  expectCoreSession,
  expectFaults,
  expectTraceback,
  localWallClock,
  nodeClientEnv,
  runClientScript,
  type RecordedFault,
} from './core-session.ts';

let stack: Stack;
let out: Record<string, Record<string, unknown>>;

const partners = (
  JSON.parse(readFileSync(new URL('../../fixtures/odoo-data/res.partner.json', import.meta.url), 'utf8')) as {
    records: { id: number; is_company: boolean; active: boolean }[];
  }
).records;

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  const admin = stack.sim.users('demo').find((u) => u.login === 'admin');
  const script = new URL('./odoo_xmlrpc_session.mjs', import.meta.url).pathname;
  out = await runClientScript(
    process.execPath,
    [script, stack.gateway.url, 'demo', 'admin', admin?.password ?? '', stack.sim.keyFor('demo', 'admin')],
    nodeClientEnv,
  );
}, 90_000);
afterAll(() => stack.close());

describe('odoo-xmlrpc on v2', () => {
  const r = () => out.v2 as Record<string, unknown>;

  it('runs the core session; connect() calls back a wrong password with a plain object', () => {
    expect(out.tz).toEqual({ zone: 'America/New_York', offset: 240 });
    expectCoreSession(r(), 'v2', {
      floatType: 'number',
      noVersion: true,
      datetimeRead: localWallClock('America/New_York'),
      authWrong: { rejected: 'Object', message: 'No UID returned from authentication.' },
    });
  });

  it('calls back with the raw node-xmlrpc Error for codes 1 to 4', () => {
    const faults = r().faults as Record<string, RecordedFault>;
    expectFaults(faults, 'v2', 'Error');
    for (const f of Object.values(faults)) expect(f.message).toBe(`XML-RPC fault: ${String(f.faultString)}`);
  });

  it('passes search arguments by position as its README does', () => {
    expect(r().positional).toEqual(
      partners
        .filter((p) => p.is_company && p.active)
        .map((p) => p.id)
        .sort((a, b) => a - b)
        .slice(0, 3),
    );
  });

  it("gets Odoo's fault for render_report: /xmlrpc/2/report is no service since Odoo 11", () => {
    const f = r().render_report as RecordedFault;
    expect(f).toMatchObject({ class: 'Error', faultCode: 1 });
    expectTraceback(f.faultString, "KeyError: 'report'");
  });
});
