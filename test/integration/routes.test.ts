/**
 * Route modes end to end against the simulator with its own legacy endpoints (issue #39): `verify`
 * at 100 % answers every client byte for byte as Odoo's own endpoint does and sends each write
 * once; a deliberately broken translation shows as "differs" and its client is not ready; switching
 * a client verify → translate → verify through the admin endpoint takes effect on its next call
 * with concurrent calls all answered; a bad routes file is refused with the old routes kept; `deny`
 * sends nothing to Odoo; `native`/`verify` fall back to translate where Odoo no longer serves a
 * legacy service; a login verify checks in the background, racing another gateway's login of the same
 * system user, refuses neither.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../sim/index.ts';
import type { CutoverSnapshot } from '../../src/cutover/cutover-report.ts';
import { createSignatureResolverFromConfig, type SignatureResolver } from '../../src/signatures/index.ts';
import { stringifyJson } from '../../src/json/index.ts';
import { createLogger } from '../../src/log.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { startGateway, type RunningGateway } from '../../src/server/gateway.ts';
import type { Upstream } from '../../src/upstream/index.ts';
import { captureLog, type CapturedLog } from '../support/captured-log.ts';
import { startStack, toValue, type Stack } from '../support/stack.ts';
import { encodeRequest } from '../fixtures-xml/xmlrpc-request.ts';

const token = 'routes-token-0123456789abcdef';
const legacyPath = (path: string) => path === '/jsonrpc' || path.startsWith('/xmlrpc');
const passwordOf = (sim: Simulator) => sim.users('demo').find((u) => u.login === 'admin')?.password as string;

interface Call {
  dialect: 'xmlrpc2' | 'jsonrpc';
  service: string;
  method: string;
  params: unknown[];
}

function bodyOf(c: Call): { path: string; body: string | Buffer; contentType: string } {
  if (c.dialect === 'jsonrpc') {
    const body = stringifyJson(
      toValue({ jsonrpc: '2.0', method: 'call', id: 3, params: { service: c.service, method: c.method, args: c.params } }),
    );
    return { path: '/jsonrpc', body, contentType: 'application/json' };
  }
  return { path: `/xmlrpc/2/${c.service}`, body: encodeRequest(c.method, c.params.map(toValue)), contentType: 'text/xml' };
}

/** Posts `c` to `base` (the gateway, or the simulator's own legacy endpoint); the raw answer. */
async function send(base: string, c: Call, ua = 'erp-sync/2.1'): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  const { path, body, contentType } = bodyOf(c);
  const res = await fetch(base + path, { method: 'POST', body, headers: { 'content-type': contentType, 'user-agent': ua } });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
}

const kw = (
  password: string,
  method: string,
  args: unknown[],
  kwargs: Record<string, unknown> = {},
  dialect: Call['dialect'] = 'xmlrpc2',
): Call => ({
  dialect,
  service: 'object',
  method: 'execute_kw',
  params: ['demo', 2, password, 'res.partner', method, args, kwargs],
});

async function report(stack: Stack): Promise<CutoverSnapshot> {
  return (await (await fetch(`${stack.gateway.adminUrl}/gateway/report.json`)).json()) as CutoverSnapshot;
}

async function metricLines(stack: Stack, name: string): Promise<string[]> {
  return (await (await fetch(`${stack.gateway.adminUrl}/metrics`)).text()).split('\n').filter((l) => l.startsWith(name));
}

function routesFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'routes-')), 'routes.yaml');
  writeFileSync(file, text);
  return file;
}

async function reload(stack: Stack): Promise<{ status: number; json: { status: string; changes?: string[]; problems?: string[] } }> {
  const res = await fetch(`${stack.gateway.adminUrl}/routes/reload`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, json: (await res.json()) as { status: string; changes?: string[]; problems?: string[] } };
}

const idle = (stack: Stack) => stack.gateway.routes?.verifier.idle();

describe('verify at 100 % against the simulator', () => {
  let stack: Stack;
  let password: string;

  beforeAll(async () => {
    stack = await startStack({ sim: { legacyEndpoints: true }, flags: ['--default-mode', 'verify', '--verify-max-in-flight', '64'] });
    password = passwordOf(stack.sim);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("answers every client byte for byte as Odoo's own legacy endpoint does", async () => {
    const reads: Call[] = [
      { dialect: 'xmlrpc2', service: 'common', method: 'version', params: [] },
      { dialect: 'xmlrpc2', service: 'common', method: 'login', params: ['demo', 'admin', password] },
      { dialect: 'jsonrpc', service: 'db', method: 'list', params: [] },
      kw(password, 'search_read', [[['id', '<', 12]]], { fields: ['name', 'email', 'credit_limit', 'parent_id'] }),
      kw(password, 'read', [[1, 3]], { fields: ['name', 'write_date'] }, 'jsonrpc'),
      kw(password, 'search_count', [[['customer_rank', '>', 0]]]),
      kw(password, 'fields_get', [], { attributes: ['string', 'type'] }),
      kw(password, 'read', [[1]], { fields: ['no_such_field'] }),
    ];
    for (const c of reads) {
      const odoo = await send(stack.sim.url, c);
      const gateway = await send(stack.gateway.url, c);
      expect(gateway.status).toBe(odoo.status);
      expect(gateway.contentType).toBe(odoo.contentType);
      expect(gateway.bytes.equals(odoo.bytes), `${c.service}.${c.method} ${String(c.params[4] ?? '')}`).toBe(true);
      await idle(stack);
    }
    const served = await report(stack);
    const client = served.clients.find((c) => c.userAgent === 'erp-sync/2.1' && c.methods.some((m) => m.modelMethod === 'search_read'));
    expect(client?.switchReadiness).toMatchObject({ verdict: 'ready to switch', differs: 0 });
    expect(client?.switchReadiness.compared).toBeGreaterThanOrEqual(5);
  });

  it('sends each write once, natively, and checks only its binding', async () => {
    stack.sim.clearLog();
    const create = kw(password, 'create', [{ name: 'Verify Once Co' }]);
    const write = kw(password, 'write', [[1], { comment: 'verified once' }], {}, 'jsonrpc');
    expect((await send(stack.gateway.url, create)).status).toBe(200);
    expect((await send(stack.gateway.url, write)).status).toBe(200);
    await idle(stack);
    const writes = stack.sim.log.filter((r) => /Verify Once Co|verified once/.test(r.body));
    expect(writes.map((r) => r.path)).toEqual(['/xmlrpc/2/object', '/jsonrpc']);
    expect(stack.sim.log.filter((r) => r.path.startsWith('/json/2/res.partner/'))).toEqual([]);
    const methods = (await report(stack)).clients.flatMap((c) => c.methods);
    const created = methods.find((m) => m.modelMethod === 'create');
    expect(created?.shadow?.bound).toBe(1);
    expect(created?.json2Body).toContain('"vals_list"');
    expect(created?.json2Body).not.toContain('Verify Once Co');
    expect(await metricLines(stack, 'legacy_rpc_gateway_verify_calls_total')).toContain(
      'legacy_rpc_gateway_verify_calls_total{service="object",method="create",outcome="bound"} 1',
    );
  });
});

/** The built-in table, except that search_read is bound as search: its fields list lands in `offset`. */
function brokenSearchRead(config: Config): SignatureResolver {
  // no --service-key: the resolver never asks the upstream (/doc-bearer discovery is off)
  const real = createSignatureResolverFromConfig(config, {} as Upstream, createLogger('silent'));
  return {
    ...real,
    resolve: (db, model, method, origin, key) => real.resolve(db, model, method === 'search_read' ? 'search' : method, origin, key),
  };
}

describe('a deliberately broken translation under verify', () => {
  let stack: Stack;

  beforeAll(async () => {
    const { loadConfig } = await import('../../src/config.ts');
    stack = await startStack({
      sim: { legacyEndpoints: true },
      flags: ['--default-mode', 'verify'],
      gateway: {
        // search_read bound as search: the fields list lands in `offset`
        signatures: brokenSearchRead(loadConfig([], {})),
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('shows the call as differing, with redacted answers, and its client is not ready', async () => {
    const password = passwordOf(stack.sim);
    await send(
      stack.gateway.url,
      { dialect: 'xmlrpc2', service: 'common', method: 'login', params: ['demo', 'admin', password] },
      'broken/1',
    );
    const read = kw(password, 'search_read', [[['id', '<', 5]], ['name']]);
    const odoo = await send(stack.sim.url, read, 'broken/1');
    const answer = await send(stack.gateway.url, read, 'broken/1');
    // the client still gets Odoo's own answer
    expect(answer.bytes.equals(odoo.bytes)).toBe(true);
    await idle(stack);
    const client = (await report(stack)).clients.find(
      (c) => c.userAgent === 'broken/1' && c.methods.some((m) => m.modelMethod === 'search_read'),
    );
    expect(client?.switchReadiness.verdict).toBe('not ready');
    expect(client?.switchReadiness.differing).toContain('res.partner.search_read');
    const method = client?.methods.find((m) => m.modelMethod === 'search_read');
    expect(method?.shadow?.differs).toBe(1);
    expect(JSON.stringify(method?.differences)).not.toContain(password);
  });
});

describe('switching a client through the admin endpoint', () => {
  let stack: Stack;
  let file: string;
  let captured: CapturedLog;
  const rules = (mode: string) => `routes:\n  - name: erp-sync\n    match:\n      userAgent: '^erp-sync/'\n    mode: ${mode}\n`;

  beforeAll(async () => {
    file = routesFile(rules('verify'));
    captured = captureLog('info');
    stack = await startStack({
      sim: { legacyEndpoints: true },
      flags: ['--routes-file', file, '--routes-token', token],
      log: captured.log,
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const version: Call = { dialect: 'xmlrpc2', service: 'common', method: 'version', params: [] };
  const servedNatively = async () => {
    stack.sim.clearLog();
    expect((await send(stack.gateway.url, version)).status).toBe(200);
    return stack.sim.log.some((r) => r.path === '/xmlrpc/2/common');
  };

  it('takes effect on the next call, verify → translate → verify, with concurrent calls all answered', async () => {
    expect(await servedNatively()).toBe(true);
    const running = Array.from({ length: 30 }, () => send(stack.gateway.url, version));
    writeFileSync(file, rules('translate'));
    const switched = await reload(stack);
    expect(switched).toEqual({ status: 200, json: { status: 'reloaded', changes: ['"erp-sync": verify → translate'] } });
    const answers = await Promise.all(running);
    expect(answers.every((a) => a.status === 200 && a.bytes.toString().includes('server_version'))).toBe(true);
    expect(await servedNatively()).toBe(false);
    writeFileSync(file, rules('verify'));
    expect((await reload(stack)).json.changes).toEqual(['"erp-sync": translate → verify']);
    expect(await servedNatively()).toBe(true);
    expect(captured.matching('routes reloaded')).toHaveLength(2);
    // another client never matched the rule
    stack.sim.clearLog();
    await send(stack.gateway.url, version, 'other/1');
    expect(stack.sim.log.some((r) => legacyPath(r.path))).toBe(false);
  });

  it('refuses a bad routes file, naming the line, and keeps the routes in force', async () => {
    writeFileSync(file, `${rules('verify')}  - name: broken\n    mode: sideways\n`);
    const refused = await reload(stack);
    expect(refused.status).toBe(422);
    expect(refused.json.problems?.[0]).toMatch(/line 7 \(routes\.1\.mode\): one of native, verify, translate, deny/);
    expect(await servedNatively()).toBe(true);
    writeFileSync(file, rules('verify'));
  });

  it('refuses a reload without the token', async () => {
    const res = await fetch(`${stack.gateway.adminUrl}/routes/reload`, { method: 'POST' });
    expect(res.status).toBe(401);
  });
});

describe('deny', () => {
  let stack: Stack;

  beforeAll(async () => {
    const file = routesFile(
      JSON.stringify({
        routes: [
          { name: 'no-unlink', match: { method: 'res.partner.unlink' }, mode: 'deny' },
          { match: {}, mode: 'native' },
        ],
      }),
    );
    stack = await startStack({ sim: { legacyEndpoints: true }, flags: ['--routes-file', file] });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('refuses before any byte reaches Odoo, with a fault naming the rule, in each dialect', async () => {
    const password = passwordOf(stack.sim);
    stack.sim.clearLog();
    const xml = (await send(stack.gateway.url, kw(password, 'unlink', [[7]]))).bytes.toString();
    const json = (await send(stack.gateway.url, kw(password, 'unlink', [[7]], {}, 'jsonrpc'))).bytes.toString();
    expect(stack.sim.log).toEqual([]);
    expect(xml).toContain('<name>faultCode</name>\n<value><int>4</int></value>');
    expect(xml).toContain('the route rule "no-unlink" denies it');
    expect(JSON.parse(json).error.data.name).toBe('legacy_rpc_gateway.RouteDenied');
    expect(JSON.parse(json).error.data.message).toContain('"no-unlink"');
    expect(await metricLines(stack, 'legacy_rpc_gateway_route_calls_total{mode="deny"')).toEqual([
      'legacy_rpc_gateway_route_calls_total{mode="deny",outcome="denied"} 2',
    ]);
  });
});

describe.each(['saas-19.1', '20.0'] as const)('native and verify on %s, which no longer serves the legacy db service', (series) => {
  let stack: Stack;
  let captured: CapturedLog;

  beforeAll(async () => {
    captured = captureLog('info');
    stack = await startStack({ sim: { series, legacyEndpoints: true }, flags: ['--default-mode', 'native'], log: captured.log });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('falls back to translate for db, said once in the log and the report, while common stays native', async () => {
    const list: Call = { dialect: 'xmlrpc2', service: 'db', method: 'list', params: [] };
    for (let i = 0; i < 3; i++) expect((await send(stack.gateway.url, list)).bytes.toString()).toContain('<string>demo</string>');
    expect(stack.sim.log.filter((r) => r.path === '/xmlrpc/2/db')).toHaveLength(1);
    expect(captured.matching('native and verify routes fall back to translate for the legacy db service')).toHaveLength(1);
    stack.sim.clearLog();
    await send(stack.gateway.url, { dialect: 'xmlrpc2', service: 'common', method: 'version', params: [] });
    expect(stack.sim.log.map((r) => r.path)).toEqual(['/xmlrpc/2/common']);
    const served = await report(stack);
    expect(served.routes?.fallbacks).toEqual([
      expect.objectContaining({ service: 'db', reason: expect.stringContaining('ValueError: Invalid service name: db') }),
    ]);
    expect(await metricLines(stack, 'legacy_rpc_gateway_route_calls_total{mode="native",outcome="fallback"}')).toEqual([
      'legacy_rpc_gateway_route_calls_total{mode="native",outcome="fallback"} 3',
    ]);
  });
});

describe('verify against an upstream without legacy endpoints (HTTP 404)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ flags: ['--default-mode', 'verify'] });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('falls back to translate for the service and answers as the gateway does', async () => {
    const password = passwordOf(stack.sim);
    const login: Call = { dialect: 'xmlrpc2', service: 'common', method: 'login', params: ['demo', 'admin', password] };
    expect((await send(stack.gateway.url, login)).bytes.toString()).toContain('<int>2</int>');
    expect((await send(stack.gateway.url, login)).bytes.toString()).toContain('<int>2</int>');
    expect(stack.sim.log.filter((r) => r.path === '/xmlrpc/2/common')).toHaveLength(1);
    expect((await report(stack)).routes?.fallbacks).toEqual([
      expect.objectContaining({ service: 'common', reason: expect.stringContaining('HTTP 404') }),
    ]);
  });
});

describe("a login verify checks, racing another gateway's login of the same system user", () => {
  // The simulator's web logins take 300 ms of password check, their transaction open meanwhile; a
  // system user's web login at a URL root other than web.base.url writes it, and of two such logins at
  // once PostgreSQL refuses the later (sim/auth/login-policy.ts). Native legacy logins write nothing.
  let stack: Stack;
  let other: RunningGateway;
  let password: string;

  beforeAll(async () => {
    stack = await startStack({
      sim: { legacyEndpoints: true, passwordCheckMs: 300 },
      flags: ['--default-mode', 'verify', '--verify-max-in-flight', '64'],
    });
    password = passwordOf(stack.sim);
    // a second gateway (another replica, or one with no routes: translate) in front of the same Odoo
    other = await startGateway(loadConfig(['--port', '0', '--admin-port', '0', '--upstream', stack.sim.url], {}), createLogger('silent'));
    await other.startupCheck.start();
  });
  afterAll(async () => {
    await other?.close();
    await stack?.close();
  });

  it('answers both clients as Odoo would, checks the login equal, and web.base.url is written once', async () => {
    // what a database copy holds (`_default_parameters`): not the URL root the gateways log in at
    stack.sim.control.setConfigParameter('demo', 'web.base.url', 'http://localhost:8069');
    const login: Call = { dialect: 'xmlrpc2', service: 'common', method: 'login', params: ['demo', 'admin', password] };
    stack.sim.clearLog();
    const native = await send(stack.sim.url, login);
    expect(native.bytes.toString()).toContain('<int>2</int>');
    const [verified, translated] = await Promise.all([send(stack.gateway.url, login), send(other.url, login)]);
    await idle(stack);
    expect(verified.bytes.equals(native.bytes)).toBe(true);
    expect(translated.bytes.toString()).toBe(native.bytes.toString());
    // the check needed no second asking: a refused translation would have been re-checked, Odoo asked again
    expect(stack.sim.log.filter((r) => r.path === '/xmlrpc/2/common')).toHaveLength(2);
    const outcomes = (await metricLines(stack, 'legacy_rpc_gateway_verify_calls_total')).map((l) =>
      /outcome="(\w+)"\} (\d+)/.exec(l)?.slice(1),
    );
    expect(outcomes).toEqual([['equal', '1']]);
    expect(stack.sim.control.configParameter('demo', 'web.base.url').value).toBe(`http://${new URL(stack.sim.url).host}`);
  });
});

describe("a translated login right after a login verify checks (bench:verify's order)", () => {
  let stack: Stack;
  let other: RunningGateway;
  beforeAll(async () => {
    stack = await startStack({ sim: { legacyEndpoints: true, passwordCheckMs: 300 }, flags: ['--default-mode', 'verify'] });
    other = await startGateway(loadConfig(['--port', '0', '--admin-port', '0', '--upstream', stack.sim.url], {}), createLogger('silent'));
    await other.startupCheck.start();
  });
  afterAll(async () => {
    await other?.close();
    await stack?.close();
  });

  it("is answered the uid, as Odoo's own endpoint answers it", async () => {
    stack.sim.control.setConfigParameter('demo', 'web.base.url', 'http://localhost:8069');
    const login: Call = { dialect: 'xmlrpc2', service: 'common', method: 'login', params: ['demo', 'admin', passwordOf(stack.sim)] };
    const native = await send(stack.sim.url, login);
    // the verify gateway answers at once, then logs in to Odoo in the background while the next login runs
    expect((await send(stack.gateway.url, login)).bytes.equals(native.bytes)).toBe(true);
    expect((await send(other.url, login)).bytes.toString()).toBe(native.bytes.toString());
    await idle(stack);
  });
});
