/**
 * odoo-await (npm, /xmlrpc/2 only) runs the core session (core-session.ts) through its connect() and
 * execute_kw(), then its CRUD helpers, through the gateway in front of the simulator, in a child
 * process with TZ=America/New_York. Expected values come from the seed data.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { expectCoreSession, expectFaults, localWallClock, nodeClientEnv, runClientScript, type RecordedFault } from './core-session.ts';

let stack: Stack;
let out: Record<string, Record<string, unknown>>;

interface Partner {
  id: number;
  name: string;
  complete_name: string;
  is_company: boolean;
  active: boolean;
}
const partnerData = JSON.parse(readFileSync(new URL('../../fixtures/odoo-data/res.partner.json', import.meta.url), 'utf8')) as {
  fields: Record<string, { type: string }>;
  records: Partner[];
};
const companies = partnerData.records.filter((p) => p.is_company && p.active);

beforeAll(async () => {
  stack = await startStack({ databases: ['demo'] });
  const admin = stack.sim.users('demo').find((u) => u.login === 'admin');
  const script = new URL('./odoo_await_session.mjs', import.meta.url).pathname;
  out = await runClientScript(
    process.execPath,
    [script, stack.gateway.url, 'demo', 'admin', admin?.password ?? '', stack.sim.keyFor('demo', 'admin')],
    nodeClientEnv,
  );
}, 90_000);
afterAll(() => stack.close());

describe('odoo-await on v2', () => {
  const r = () => out.v2 as Record<string, unknown>;

  it('runs the core session; connect() rejects a wrong password with its own string', () => {
    expect(out.tz).toEqual({ zone: 'America/New_York', offset: 240 });
    expectCoreSession(r(), 'v2', {
      floatType: 'number',
      noVersion: true,
      datetimeRead: localWallClock('America/New_York'),
      authWrong: { rejected: 'string', message: 'Error connecting to database. This is probably due to invalid credentials.' },
    });
  });

  it('rejects with the raw node-xmlrpc Error for codes 1 to 4', () => {
    const faults = r().faults as Record<string, RecordedFault>;
    expectFaults(faults, 'v2', 'Error');
    for (const f of Object.values(faults)) expect(f.message).toBe(`XML-RPC fault: ${String(f.faultString)}`);
  });

  it('creates, updates, reads and deletes with its helpers', () => {
    const h = r().helpers as Record<string, unknown>;
    expect(h.create).toBeTypeOf('number');
    expect(h.update).toBe(true);
    expect(h.read).toEqual([{ id: h.create, name: 'odoo-await & <helpers> v2' }]);
    expect(h.delete).toBe(true);
    expect(h.read_gone).toEqual([]);
  });

  it('searches with its helpers: limit 0 and order "" mean none, the default order is complete_name, id desc', () => {
    const h = r().helpers as Record<string, unknown>;
    // res.partner's _order, `complete_name ASC, id DESC`, in code-point order (what the seed's names need)
    const byDefaultOrder = (a: Partner, b: Partner) =>
      a.complete_name === b.complete_name ? b.id - a.id : a.complete_name < b.complete_name ? -1 : 1;
    const sorted = [...companies].sort(byDefaultOrder);
    expect(h.searchRead).toEqual(
      [...companies]
        .sort((a, b) => a.id - b.id)
        .slice(0, 3)
        .map((p) => ({ id: p.id, name: p.name })),
    );
    expect(h.search).toEqual(sorted.map((p) => p.id));
    expect(h.getFields).toEqual(Object.fromEntries(Object.entries(partnerData.fields).map(([name, f]) => [name, { type: f.type }])));
  });
});
