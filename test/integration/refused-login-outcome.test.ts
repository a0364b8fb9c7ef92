/**
 * One outcome per event: a wrong password is refused with False by
 * `common.login` and `common.authenticate` (Odoo catches its AccessDenied) and with fault 3 by an
 * `object` call. Metrics, the access log and the migration report count all three as `access_denied`;
 * the answers themselves stay Odoo's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { struct } from '../../src/value.ts';
import type { ReportSnapshot } from '../../src/report/migration-report.ts';
import { captureLog, type CapturedLog } from '../support/captured-log.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { xmlrpcCall } from '../support/xmlrpc-call.ts';

let stack: Stack;
let capture: CapturedLog;
let password: string;
const ua = (name: string) => ({ 'user-agent': name });

beforeAll(async () => {
  capture = captureLog();
  // no throttling in the way: every attempt reaches the credential check
  stack = await startStack({ log: capture.log, flags: ['--throttle-failures', '1000', '--negative-cache-ttl', '0'] });
  password = stack.sim.users('demo').find((u) => u.login === 'admin')?.password as string;
});
afterAll(() => stack?.close());

async function metricLines(): Promise<string[]> {
  const text = await (await fetch(`${stack.gateway.adminUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('legacy_rpc_gateway_calls_total{'))
    .sort();
}

describe('a refused login', () => {
  it('answers as Odoo does: False from common.login and common.authenticate, fault 3 from object', async () => {
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'common', 'login', ['demo', 'admin', 'wrong-1'])).toEqual({ result: false });
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'common', 'authenticate', ['demo', 'admin', 'wrong-2', struct({})])).toEqual({
      result: false,
    });
    expect(await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', ['demo', 2, 'wrong-3', 'res.partner', 'search', [[]]])).toMatchObject(
      { fault: { faultCode: 3 } },
    );
    expect((await stack.jsonrpc('common', 'login', ['demo', 'admin', 'wrong-4'])).result).toBe(false);
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', 'wrong-5', {}])).result).toBe(false);
  });

  it('is access_denied in the metrics whichever method and dialect carried it', async () => {
    expect((await metricLines()).filter((l) => !l.includes('"ok"'))).toEqual([
      'legacy_rpc_gateway_calls_total{dialect="jsonrpc",service="common",method="authenticate",outcome="access_denied"} 1',
      'legacy_rpc_gateway_calls_total{dialect="jsonrpc",service="common",method="login",outcome="access_denied"} 1',
      'legacy_rpc_gateway_calls_total{dialect="xmlrpc2",service="common",method="authenticate",outcome="access_denied"} 1',
      'legacy_rpc_gateway_calls_total{dialect="xmlrpc2",service="common",method="login",outcome="access_denied"} 1',
      'legacy_rpc_gateway_calls_total{dialect="xmlrpc2",service="object",method="search",outcome="access_denied"} 1',
    ]);
  });

  it('is access_denied in the access log, with a faultCode only where a fault was sent', () => {
    const calls = capture.matching('legacy call').map((l) => [l.dialect, l.service, l.method, l.outcome, l.faultCode, l.error]);
    expect(calls).toEqual([
      ['xmlrpc2', 'common', 'login', 'access_denied', undefined, 'odoo.exceptions.AccessDenied'],
      ['xmlrpc2', 'common', 'authenticate', 'access_denied', undefined, 'odoo.exceptions.AccessDenied'],
      ['xmlrpc2', 'object', 'execute_kw', 'access_denied', 3, 'odoo.exceptions.AccessDenied'],
      ['jsonrpc', 'common', 'login', 'access_denied', undefined, 'odoo.exceptions.AccessDenied'],
      ['jsonrpc', 'common', 'authenticate', 'access_denied', undefined, 'odoo.exceptions.AccessDenied'],
    ]);
  });

  it('counts as a fault in the migration report whichever method carried it', async () => {
    await xmlrpcCall(stack, 'xmlrpc2', 'common', 'login', ['demo', 'admin', 'wrong-6']);
    await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', 'wrong-7', {}], ua('refused/1'));
    await stack.jsonrpc('object', 'execute_kw', ['demo', 2, 'wrong-8', 'res.partner', 'search', [[]]], ua('refused/1'));
    await stack.jsonrpc('common', 'login', ['demo', 'admin', 'wrong-9'], ua('refused/1'));
    const report = JSON.parse(await (await fetch(`${stack.gateway.adminUrl}/gateway/report.json`)).text()) as ReportSnapshot;
    // the logins name the login, the object call its uid: two entries of the same client
    const entries = report.clients.filter((c) => c.userAgent === 'refused/1');
    expect([entries.reduce((n, c) => n + c.calls, 0), entries.reduce((n, c) => n + c.faults, 0)]).toEqual([3, 3]);
    expect(entries.every((c) => c.database === 'demo' && c.authenticated !== true)).toBe(true);
    expect(
      entries
        .flatMap((c) => c.methods)
        .map((m) => [m.service, m.method, m.calls, m.faults])
        .sort(),
    ).toEqual([
      ['common', 'authenticate', 1, 1],
      ['common', 'login', 1, 1],
      ['object', 'execute_kw', 1, 1],
    ]);
  });

  it('leaves a successful login ok everywhere', async () => {
    expect((await stack.jsonrpc('common', 'login', ['demo', 'admin', password], ua('good/1'))).result).toBe(2);
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', password, {}], ua('good/1'))).result).toBe(2);
    expect(await metricLines()).toEqual(
      expect.arrayContaining([
        'legacy_rpc_gateway_calls_total{dialect="jsonrpc",service="common",method="login",outcome="ok"} 1',
        'legacy_rpc_gateway_calls_total{dialect="jsonrpc",service="common",method="authenticate",outcome="ok"} 1',
      ]),
    );
    expect(
      capture
        .matching('legacy call')
        .slice(-2)
        .map((l) => [l.method, l.outcome, l.error]),
    ).toEqual([
      ['login', 'ok', undefined],
      ['authenticate', 'ok', undefined],
    ]);
  });
});
