/**
 * Signature discovery end to end (docs/architecture.md §4): the gateway reads `/doc-bearer/<model>.json` with the
 * service key, else with the caller's own key, revalidates it after the TTL, and binds positional
 * arguments of a method the built-in table does not know. Requests are counted at the simulator's
 * HTTP layer; the TTL runs on a faked Date (no real waiting).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { parseJson } from '../../src/json/index.ts';
import { startGateway } from '../../src/server/gateway.ts';
import type { Value } from '../../src/value.ts';
import { captureLog, type CapturedLog } from '../support/captured-log.ts';
import { errorData, jsonrpcAt, startStack, type Stack } from '../support/stack.ts';
import { xmlrpcCall } from '../support/xmlrpc-call.ts';

const ttlMs = 300_000;
const docRequests = (stack: Stack) => stack.sim.log.filter((r) => r.path.startsWith('/doc-bearer/'));
const lastJson2Body = (stack: Stack, method: string) =>
  parseJson(stack.sim.log.filter((r) => r.path === `/json/2/res.partner/${method}`).at(-1)?.body ?? 'null');
const passTtl = () => vi.setSystemTime(Date.now() + ttlMs);
const demoResult = (ids: number[], note: Value, flag: Value) =>
  new Map<string, Value>([
    ['ids', ids],
    ['note', note],
    ['flag', flag],
  ]);

let stack: Stack;
let serviceKey: string;
let clientKey: string;
const execute_kw = (model: string, method: string, args: unknown[], kw: Record<string, unknown> = {}) =>
  stack.jsonrpc('object', 'execute_kw', ['demo', 5, clientKey, model, method, args, kw]);

beforeAll(async () => {
  // Date only: sockets and timeouts keep real timers; the discovery TTL reads Date.now().
  vi.useFakeTimers({ toFake: ['Date'] });
  stack = await startStack({ flags: (sim) => ['--service-key', sim.keyFor('demo', 'admin')] });
  serviceKey = stack.sim.keyFor('demo', 'admin');
  clientKey = stack.sim.keyFor('demo', 'demo');
});
afterAll(async () => {
  vi.useRealTimers();
  await stack.close();
});
beforeEach(() => stack.sim.clearLog());

describe('revalidation, counted at the simulator', () => {
  // In order: each test starts where the previous one left the cache.
  it('makes 1 request on first use, with the service key and the database headers', async () => {
    const { result } = await execute_kw('res.partner', 'action_gateway_demo', [[3], 'hello', true]);
    expect(result).toEqual(demoResult([3], 'hello', true));
    const requests = docRequests(stack);
    expect(requests.map((r) => [r.method, r.path])).toEqual([['GET', '/doc-bearer/res.partner.json']]);
    expect(requests[0]!.headers).toMatchObject({
      authorization: `bearer ${serviceKey}`,
      'x-odoo-database': 'demo',
      'x-service-database': 'demo',
    });
    expect(requests[0]!.headers).not.toHaveProperty('if-none-match');
    expect(lastJson2Body(stack, 'action_gateway_demo')).toEqual(
      new Map<string, Value>([
        ['ids', [3]],
        ['note', 'hello'],
        ['flag', true],
      ]),
    );
  });

  it('makes 0 requests within the TTL, whatever the method of the model', async () => {
    vi.setSystemTime(Date.now() + ttlMs - 1);
    await execute_kw('res.partner', 'action_gateway_demo', [[3], 'again']);
    await execute_kw('res.partner', 'search_count', [[]]);
    expect(docRequests(stack)).toHaveLength(0);
  });

  it('makes 1 conditional request after the TTL; the 304 keeps the signature', async () => {
    passTtl();
    const { result } = await execute_kw('res.partner', 'action_gateway_demo', [[3], 'after 304']);
    expect(result).toEqual(demoResult([3], 'after 304', false));
    const requests = docRequests(stack);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers['if-none-match']).toMatch(/^[0-9a-f]{64}$/); // the ETag as the simulator sent it (unquoted, as Odoo)
    await execute_kw('res.partner', 'action_gateway_demo', [[3], 'fresh again']);
    expect(docRequests(stack)).toHaveLength(1);
  });

  it('binds by the new signature once a 200 replaces it after the TTL, not before', async () => {
    stack.sim.docBearer.setMethod('demo', 'res.partner', 'action_gateway_demo', {
      parameters: { flag: { default: false }, note: { default: '' } },
      model: 'res.partner',
      module: 'gateway_demo',
    });
    await execute_kw('res.partner', 'action_gateway_demo', [[3], 'a', 'b']);
    expect(lastJson2Body(stack, 'action_gateway_demo')).toEqual(
      new Map<string, Value>([
        ['ids', [3]],
        ['note', 'a'],
        ['flag', 'b'],
      ]),
    );
    expect(docRequests(stack)).toHaveLength(0);

    passTtl();
    const { result } = await execute_kw('res.partner', 'action_gateway_demo', [[3], 'a', 'b']);
    expect(docRequests(stack)).toHaveLength(1);
    expect(lastJson2Body(stack, 'action_gateway_demo')).toEqual(
      new Map<string, Value>([
        ['ids', [3]],
        ['flag', 'a'],
        ['note', 'b'],
      ]),
    );
    expect(result).toEqual(demoResult([3], 'b', 'a'));
    stack.sim.reset();
    passTtl();
  });

  it('shares one request between concurrent calls of an expired model', async () => {
    passTtl();
    const results = await Promise.all([1, 2, 3, 4].map((n) => execute_kw('res.partner', 'action_gateway_demo', [[3], `n${n}`])));
    expect(results.map((r) => (r.result as Map<string, Value>).get('note'))).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(docRequests(stack)).toHaveLength(1);
  });
});

describe('the custom method called positionally', () => {
  const args = ['demo', 5, '', 'res.partner', 'action_gateway_demo', [[3, 10], 'from a legacy client', true]];
  const withKey = () => args.map((a) => (a === '' ? clientKey : a)) as Value[];

  it.each(['xmlrpc1', 'xmlrpc2'] as const)('works through %s execute_kw and execute', async (dialect) => {
    expect(await xmlrpcCall(stack, dialect, 'object', 'execute_kw', withKey())).toEqual({
      result: demoResult([3, 10], 'from a legacy client', true),
    });
    const [db, uid, key, model, method] = withKey();
    expect(await xmlrpcCall(stack, dialect, 'object', 'execute', [db!, uid!, key!, model!, method!, 3, 'via execute'])).toEqual({
      result: demoResult([3], 'via execute', false),
    });
  });

  it('works through JSON-RPC, and the partner keeps the note', async () => {
    expect((await stack.jsonrpc('object', 'execute_kw', withKey())).result).toEqual(demoResult([3, 10], 'from a legacy client', true));
    const { result } = await execute_kw('res.partner', 'read', [[10], ['comment']]);
    expect(result).toEqual([
      new Map<string, Value>([
        ['id', 10],
        ['comment', 'from a legacy client'],
      ]),
    ]);
  });

  it('calls a discovered model-level method without ids', async () => {
    expect((await execute_kw('res.partner', 'gateway_demo_echo', ['ab', 3])).result).toBe('ababab');
    expect(lastJson2Body(stack, 'gateway_demo_echo')).toEqual(
      new Map<string, Value>([
        ['text', 'ab'],
        ['times', 3],
      ]),
    );
  });
});

describe("binding errors with Python's text, from the discovered signature", () => {
  it.each([
    ['nothing after the ids', [[3]], {}, "ResPartner.action_gateway_demo() missing 1 required positional argument: 'note'"],
    [
      'one argument too many',
      [[3], 'a', true, 'x'],
      {},
      'ResPartner.action_gateway_demo() takes from 2 to 3 positional arguments but 4 were given',
    ],
    ['an unknown keyword', [[3], 'a'], { bogus: 1 }, "ResPartner.action_gateway_demo() got an unexpected keyword argument 'bogus'"],
    [
      'a positional also given by keyword',
      [[3], 'a'],
      { note: 'b' },
      "ResPartner.action_gateway_demo() got multiple values for argument 'note'",
    ],
    [
      'a model-level method given too much',
      ['ab', 2, 3],
      {},
      'ResPartner.gateway_demo_echo() takes from 2 to 3 positional arguments but 4 were given',
    ],
  ])('answers %s', async (_what, args, kw, message) => {
    const method = message.includes('echo') ? 'gateway_demo_echo' : 'action_gateway_demo';
    stack.sim.clearLog();
    const { error } = await execute_kw('res.partner', method, args, kw);
    expect(errorData(error)).toMatchObject({ name: 'builtins.TypeError', message });
    expect(stack.sim.log.some((r) => r.path === `/json/2/res.partner/${method}`)).toBe(false);
    const fault = await xmlrpcCall(stack, 'xmlrpc2', 'object', 'execute_kw', [
      'demo',
      5,
      clientKey,
      'res.partner',
      method,
      args,
      new Map(Object.entries(kw)) as Value,
    ]);
    expect(fault).toMatchObject({ fault: { faultCode: 1 } });
    expect('fault' in fault && fault.fault.faultString.endsWith(`TypeError: ${message}\n`)).toBe(true);
  });

  it('answers IndexError for a record-level method called without ids', async () => {
    expect(errorData((await execute_kw('res.partner', 'action_gateway_demo', [])).error).message).toBe('list index out of range');
  });

  it("names the table's qualname for a method the table knows (discovery describes the base definition)", async () => {
    expect(errorData((await execute_kw('res.partner', 'name_create', [])).error).message).toBe(
      "ResPartner.name_create() missing 1 required positional argument: 'name'",
    );
  });

  it('serves deprecated methods /doc leaves out from the built-in table', async () => {
    const { result } = await execute_kw('res.partner', 'read_group', [[['is_company', '=', true]], ['country_id'], ['country_id']]);
    expect(Array.isArray(result)).toBe(true);
  });
});

describe("discovery with the caller's own key (no service key for the database)", () => {
  let captured: CapturedLog;
  let own: Stack;
  afterEach(() => own.close());

  const customCall = (s: Stack, uid: number, key: string, note = 'hello') =>
    s.jsonrpc('object', 'execute_kw', ['demo', uid, key, 'res.partner', 'action_gateway_demo', [[3], note]]);
  const fallbackFault =
    'legacy-rpc-gateway cannot map the positional arguments of res.partner.action_gateway_demo() to JSON-2 parameter names: ' +
    'its signature is unknown. Pass them as keyword arguments (execute_kw kwargs) or declare the signature in the signatures file (--signatures-file).';
  const bearerOf = (r: { headers: Record<string, unknown> }) => String(r.headers.authorization).replace(/^bearer /, '');

  it('asks with the key of a caller in the Technical Documentation group, and what it learned serves every user of the database', async () => {
    captured = captureLog();
    own = await startStack({ log: captured.log });
    const admin = own.sim.keyFor('demo', 'admin');
    const demo = own.sim.keyFor('demo', 'demo');
    expect((await customCall(own, 2, admin)).result).toEqual(demoResult([3], 'hello', false));
    expect(docRequests(own).map((r) => [r.path, bearerOf(r), r.headers['x-odoo-database']])).toEqual([
      ['/doc-bearer/res.partner.json', admin, 'demo'],
    ]);
    // demo is outside the group, but the document is the database's: no request, the call maps
    expect((await customCall(own, 5, demo, 'from demo')).result).toEqual(demoResult([3], 'from demo', false));
    expect(docRequests(own)).toHaveLength(1);
    expect(captured.matching('signature discovery through /doc-bearer is on')).toEqual([
      expect.objectContaining({ msg: "signature discovery through /doc-bearer is on with each caller's own key (no --service-key)" }),
    ]);
  });

  it('makes one request for concurrent first calls of several users, not one per caller', async () => {
    own = await startStack();
    const users: [number, string][] = [
      [2, own.sim.keyFor('demo', 'admin')],
      [5, own.sim.keyFor('demo', 'demo')],
      [2, own.sim.keyFor('demo', 'admin')],
    ];
    const results = await Promise.all(users.map(([uid, key], n) => customCall(own, uid, key, `n${n}`)));
    expect(docRequests(own)).toHaveLength(1);
    // whoever asked, the one answer served all three calls (demo's key alone would have been refused)
    expect(results.map((r) => (r.result as Map<string, Value>).get('note'))).toEqual(['n0', 'n1', 'n2']);
  });

  it("falls back on a 403 (a user outside the group): the table maps what it knows, the key is not asked with again for the TTL, another user's key is", async () => {
    captured = captureLog('debug');
    own = await startStack({ log: captured.log });
    const admin = own.sim.keyFor('demo', 'admin');
    const demo = own.sim.keyFor('demo', 'demo');
    for (let i = 0; i < 3; i++) expect(errorData((await customCall(own, 5, demo)).error).message).toBe(fallbackFault);
    // a discovery failure never fails a call the built-in table maps
    const created = await own.jsonrpc('object', 'execute_kw', ['demo', 5, demo, 'res.partner', 'name_create', ['From the table']]);
    expect(created.result).toEqual([expect.any(Number), 'From the table']);
    expect(parseJson(own.sim.log.filter((r) => r.path === '/json/2/res.partner/name_create').at(-1)!.body)).toEqual(
      new Map([['name', 'From the table']]),
    );
    expect(docRequests(own).map((r) => bearerOf(r))).toEqual([demo]);
    expect(captured.matching('signature discovery: /doc-bearer refused the caller')).toEqual([
      expect.objectContaining({ level: 20, db: 'demo', status: 403 }),
    ]);

    passTtl();
    expect(errorData((await customCall(own, 5, demo)).error).message).toBe(fallbackFault);
    expect(docRequests(own).map((r) => bearerOf(r))).toEqual([demo, demo]); // asked again once the TTL is over

    expect((await customCall(own, 2, admin)).result).toEqual(demoResult([3], 'hello', false));
    expect((await customCall(own, 5, demo, 'now known')).result).toEqual(demoResult([3], 'now known', false));
    expect(docRequests(own).map((r) => bearerOf(r))).toEqual([demo, demo, admin]);
    expect(JSON.stringify(captured.lines)).not.toContain(demo);
    expect(JSON.stringify(captured.lines)).not.toContain(admin);
  });

  it("tries the caller's key when the service key is outside the group: one 403 for the service key, logged once", async () => {
    captured = captureLog();
    own = await startStack({ log: captured.log, flags: (sim) => ['--service-key', sim.keyFor('demo', 'demo')] });
    const admin = own.sim.keyFor('demo', 'admin');
    for (let i = 0; i < 3; i++) expect((await customCall(own, 2, admin, `call ${i}`)).result).toEqual(demoResult([3], `call ${i}`, false));
    expect(docRequests(own).map((r) => bearerOf(r))).toEqual([own.sim.keyFor('demo', 'demo'), admin]);
    expect(captured.matching('signature discovery with the service key is off for this database')).toEqual([
      expect.objectContaining({
        level: 40,
        db: 'demo',
        msg: "signature discovery with the service key is off for this database: the key's user is not in the Technical Documentation group (/doc-bearer answered 403); each caller's own key is tried, then the built-in signature table serves",
      }),
    ]);
    expect(JSON.stringify(captured.lines)).not.toContain(own.sim.keyFor('demo', 'demo'));
  });

  it('never fails a call the built-in table maps when /doc-bearer itself fails', async () => {
    captured = captureLog();
    own = await startStack({ log: captured.log });
    const admin = own.sim.keyFor('demo', 'admin');
    const failing = await failingDocBearer(own.sim.url);
    try {
      const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', failing.url], {});
      const gateway = await startGateway(config, captured.log);
      try {
        const answer = await jsonrpcAt(gateway.url, 'object', 'execute_kw', [
          'demo',
          2,
          admin,
          'res.partner',
          'name_search',
          ['Ready Mat', [], 'ilike', 1],
        ]);
        expect(answer.result).toEqual([[expect.any(Number), 'Ready Mat']]);
        const sent = parseJson(own.sim.log.filter((r) => r.path === '/json/2/res.partner/name_search').at(-1)!.body);
        expect(sent).toEqual(
          new Map<string, Value>([
            ['name', 'Ready Mat'],
            ['domain', []],
            ['operator', 'ilike'],
            ['limit', 1],
          ]),
        );
        expect(failing.docRequests).toBe(1);
        expect(captured.matching('signature discovery failed')).toEqual([
          expect.objectContaining({ level: 40, db: 'demo', model: 'res.partner' }),
        ]);
      } finally {
        await gateway.close();
      }
    } finally {
      await failing.close();
    }
  });
});

/** A proxy in front of the simulator whose /doc-bearer answers 500 (Odoo failing); the rest passes. */
async function failingDocBearer(target: string): Promise<{ url: string; docRequests: number; close(): Promise<void> }> {
  const state = { docRequests: 0 };
  const server = createServer((req, res) => {
    if ((req.url ?? '').startsWith('/doc-bearer/')) {
      state.docRequests++;
      res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
      return;
    }
    const upstream = request(target + (req.url ?? '/'), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get docRequests() {
      return state.docRequests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
