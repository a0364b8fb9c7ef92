/**
 * The migration report tells a client's faults apart: those Odoo's own legacy endpoint would have
 * answered too (the script's own) and the gateway's (here an upstream answer over --max-answer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CutoverSnapshot } from '../../src/cutover/cutover-report.ts';
import { startStack, type Stack } from '../support/stack.ts';

describe('the report says whose each fault is', () => {
  let stack: Stack;
  let password: string;
  const ua = { 'user-agent': 'fault-origin-script' };
  const call = (method: string, args: unknown[], kwargs: Record<string, unknown> = {}) =>
    stack.jsonrpc('object', 'execute_kw', ['demo', 2, password, 'res.partner', method, args, kwargs], ua);

  beforeAll(async () => {
    stack = await startStack({ flags: ['--max-answer', '1024'] });
    password = stack.sim.users('demo').find((u) => u.login === 'admin')?.password as string;
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', password, {}], ua)).result).toBe(2);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("counts a fault Odoo gives as Odoo's, and one the gateway gives (an answer over --max-answer) as the gateway's", async () => {
    expect((await call('search_read', [[]], { fields: ['name'], limit: 1 })).error).toBeUndefined();
    // Odoo refuses it: a field that does not exist
    expect((await call('search_read', [[['no_such_field', '=', 1]]], { fields: ['name'], limit: 1 })).error).toBeDefined();
    // the gateway refuses it: the answer is larger than --max-answer
    const big = await call('search_read', [[]], {});
    expect(String(big.error?.get('data') instanceof Map ? (big.error.get('data') as Map<string, unknown>).get('message') : '')).toContain(
      '--max-answer',
    );
    const report = (await (await fetch(`${stack.gateway.adminUrl}/gateway/report.json`)).json()) as CutoverSnapshot;
    const method = report.clients.find((c) => c.userAgent === 'fault-origin-script')?.methods.find((m) => m.modelMethod === 'search_read');
    expect(method).toMatchObject({ calls: 3, faults: 2, gatewayFaults: 1 });
  });
});
