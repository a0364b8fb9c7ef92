/**
 * One log line per legacy call, with the fields an operator needs, and never a password, an API
 * key or a call argument.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, redactedPaths } from '../../src/log.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
const lines: Record<string, unknown>[] = [];
const raw: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  stack = await startStack({ databases: ['demo'], log: createLogger('info', sink) });
});
afterAll(() => stack.close());

describe('access log', () => {
  it('writes one line per call with dialect, service, model, method, outcome, fault code, duration, client, request id, database and user', async () => {
    const key = stack.sim.keyFor('demo', 'admin');
    const secretArgument = 'Very Private Customer Name 4711';
    await stack.jsonrpc('object', 'execute_kw', ['demo', 2, key, 'res.partner', 'search_count', [[['name', '=', secretArgument]]]]);
    await stack.jsonrpc('object', 'execute_kw', ['demo', 2, 'wrong-password-0815', 'res.partner', 'search', [[]]]);
    await stack.jsonrpc('common', 'login', ['demo', 'admin', 'plain-secret-password']);
    const calls = lines.filter((l) => l.msg === 'legacy call');
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatchObject({
      dialect: 'jsonrpc',
      service: 'object',
      method: 'execute_kw',
      model: 'res.partner',
      modelMethod: 'search_count',
      outcome: 'ok',
      clientIp: '127.0.0.1',
      name: 'legacy-rpc-gateway',
      // who it ran as, as the migration report names it (never the password)
      db: 'demo',
      user: 'uid:2',
    });
    expect(calls[0]?.durationMs).toBeTypeOf('number');
    expect(calls[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls[1]).toMatchObject({ outcome: 'access_denied', faultCode: 3, error: 'odoo.exceptions.AccessDenied' });
    expect(calls[2]).toMatchObject({ service: 'common', method: 'login', outcome: 'access_denied', error: 'odoo.exceptions.AccessDenied' });
    expect(calls[2]?.db).toBe('demo');
    expect(calls[2]?.user).toMatch(/^login:[0-9a-f]{12}$/);
    const all = raw.join('\n');
    for (const secret of [key, secretArgument, 'wrong-password-0815', 'plain-secret-password']) expect(all).not.toContain(secret);
  });

  // The access line skips pino's redaction (src/server/access-log.ts): safe only while no field of it
  // is named by a redacted path and none is an object a `*.x` path could reach into.
  it('writes lines whose fields no redaction path could touch', async () => {
    const key = stack.sim.keyFor('demo', 'admin');
    await stack.jsonrpc('object', 'execute_kw', ['demo', 2, key, 'res.partner', 'search_count', [[]]]);
    await stack.jsonrpc('object', 'execute_kw', ['demo', 2, 'wrong-password-0815', 'res.partner', 'search', [[]]]);
    const calls = lines.filter((l) => l.msg === 'legacy call');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    const topLevel = new Set(redactedPaths.filter((p) => !p.includes('.') && !p.includes('[')));
    for (const line of calls)
      for (const [name, value] of Object.entries(line)) {
        expect(topLevel.has(name), name).toBe(false);
        expect(typeof value === 'object' && value !== null, name).toBe(false);
      }
  });
});
