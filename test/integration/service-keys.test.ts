/**
 * Service keys per database (`--service-key db=key,…`): a uid-only `execute_kw` with a
 * password works in every database that has a key, as in Odoo, without a prior login; where the
 * gateway has no way to learn the login the fault says exactly what to configure. Discovery and the
 * start-up check use each database's own key; the single-key form keeps working.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { captureLog } from '../support/captured-log.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';
import { xmlrpcCall } from '../support/xmlrpc-call.ts';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const password = (s: Stack, db: string, login: string) => s.sim.users(db).find((u) => u.login === login)?.password as string;
const countPartners = (s: Stack, db: string, uid: number, login: string) =>
  s.jsonrpc('object', 'execute_kw', [db, uid, password(s, db, login), 'res.partner', 'search_count', [[]]]);
const unknownLogin = (db: string) =>
  'legacy-rpc-gateway does not know the login of uid 2, which it needs to trade the password for an API key: ' +
  `it has not seen this uid log in, and --service-key has no key for database "${db}". ` +
  `Call common.login or common.authenticate with this password first, or add ${db}=<API key> to --service-key so the gateway can look the login up.`;

describe('--service-key db=key entries', () => {
  it('answers a uid-only execute_kw with a password in each database that has a key, without a login first', async () => {
    stack = await startStack({
      databases: ['gw', 'gw2', 'gw3'],
      flags: (sim) => ['--service-key', `gw=${sim.keyFor('gw', 'admin')},gw2=${sim.keyFor('gw2', 'admin')}`],
    });
    const s = stack;
    for (const db of ['gw2', 'gw']) {
      expect((await countPartners(s, db, 2, 'admin')).result).toBeTypeOf('number');
      expect((await countPartners(s, db, 5, 'demo')).result).toBeTypeOf('number');
    }
    const lookups = s.sim.log.filter((r) => r.path === '/json/2/res.users/search_read');
    expect(lookups.map((r) => [r.headers['x-odoo-database'], r.headers.authorization])).toEqual([
      ['gw2', `bearer ${s.sim.keyFor('gw2', 'admin')}`],
      ['gw2', `bearer ${s.sim.keyFor('gw2', 'admin')}`],
      ['gw', `bearer ${s.sim.keyFor('gw', 'admin')}`],
      ['gw', `bearer ${s.sim.keyFor('gw', 'admin')}`],
    ]);
    // XML-RPC too, as a client hard-coding uid 2 would
    expect(
      await xmlrpcCall(s, 'xmlrpc2', 'object', 'execute_kw', [
        'gw2',
        2,
        password(s, 'gw2', 'admin'),
        'res.users',
        'read',
        [[2], ['login']],
      ]),
    ).toEqual({
      result: [
        new Map<string, unknown>([
          ['id', 2],
          ['login', 'admin'],
        ]),
      ],
    });
  });

  it('says exactly what to configure for a database without a key, and works once the uid has logged in', async () => {
    stack = await startStack({ databases: ['gw', 'gw3'], flags: (sim) => ['--service-key', `gw=${sim.keyFor('gw', 'admin')}`] });
    expect(errorData((await countPartners(stack, 'gw3', 2, 'admin')).error)).toMatchObject({
      name: 'odoo.exceptions.AccessDenied',
      message: unknownLogin('gw3'),
    });
    const fault = await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', [
      'gw3',
      2,
      password(stack, 'gw3', 'admin'),
      'res.partner',
      'search_count',
      [[]],
    ]);
    expect(fault).toMatchObject({ fault: { faultCode: 3, faultString: unknownLogin('gw3') } });
    expect((await stack.jsonrpc('common', 'login', ['gw3', 'admin', password(stack, 'gw3', 'admin')])).result).toBe(2);
    expect((await countPartners(stack, 'gw3', 2, 'admin')).result).toBeTypeOf('number');
  });

  it('keeps the single-key form: one key for every database', async () => {
    stack = await startStack({
      databases: ['gw', 'gw2'],
      flags: (sim) => ['--service-key', sim.keyFor('gw', 'admin'), '--service-db', 'gw'],
    });
    for (const db of ['gw', 'gw2']) expect((await countPartners(stack, db, 2, 'admin')).result).toBeTypeOf('number');
  });

  it('says what to do where the key is not valid', async () => {
    stack = await startStack({ databases: ['gw'], flags: ['--service-key', 'f'.repeat(40)] });
    expect(errorData((await countPartners(stack, 'gw', 2, 'admin')).error).message).toBe(
      'legacy-rpc-gateway does not know the login of uid 2, which it needs to trade the password for an API key: the service key is not valid in database "gw". ' +
        'Call common.login or common.authenticate with this password first, or give that database its own key (gw=<API key> in --service-key) so the gateway can look the login up.',
    );
  });

  it("discovers signatures with each database's own key, for callers outside the Technical Documentation group", async () => {
    stack = await startStack({
      databases: ['gw', 'gw2'],
      flags: (sim) => ['--service-key', `gw=${sim.keyFor('gw', 'admin')},gw2=${sim.keyFor('gw2', 'admin')}`],
    });
    const s = stack;
    for (const db of ['gw', 'gw2']) {
      const { result } = await s.jsonrpc('object', 'execute_kw', [
        db,
        5,
        s.sim.keyFor(db, 'demo'),
        'res.partner',
        'action_gateway_demo',
        [[3], `in ${db}`],
      ]);
      expect(result).toEqual(
        new Map<string, unknown>([
          ['ids', [3]],
          ['note', `in ${db}`],
          ['flag', false],
        ]),
      );
    }
    const docs = s.sim.log.filter((r) => r.path === '/doc-bearer/res.partner.json');
    expect(docs.map((r) => [r.headers['x-odoo-database'], r.headers.authorization])).toEqual([
      ['gw', `bearer ${s.sim.keyFor('gw', 'admin')}`],
      ['gw2', `bearer ${s.sim.keyFor('gw2', 'admin')}`],
    ]);
  });

  it('reads web.base.url at start in every database that has a key', async () => {
    const capture = captureLog('info');
    stack = await startStack({
      databases: ['gw', 'gw2'],
      log: capture.log,
      flags: (sim) => {
        // set before the gateway starts: its checks run at start
        sim.control.setConfigParameter('gw2', 'web.base.url', 'http://localhost:8069/odoo');
        return ['--service-key', `gw=${sim.keyFor('gw', 'admin')},gw2=${sim.keyFor('gw2', 'admin')}`];
      },
    });
    await stack.gateway.startupCheck.start();
    // one finding per database (the start-up block, which names no single database, is not one)
    const findings = capture.lines.filter((l) => typeof l.msg === 'string' && l.msg.includes('web.base.url') && l.db !== undefined);
    expect(findings.map((l) => [l.db, l.level]).sort()).toEqual([
      ['gw', 30],
      ['gw2', 40],
    ]);
  });
});
