/**
 * The migration report page as a person sees it: rendered by Debian's headless Chromium (driven by
 * playwright-core) from the admin port, after real legacy calls. Skipped only where Chromium is not
 * installed; under CI (`CI` set, where `.ci/run` installs it) a missing Chromium fails instead.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => p !== undefined && existsSync(p),
);
if (executablePath === undefined && process.env.CI)
  throw new Error("Chromium is missing: .ci/run installs Debian's chromium package before the tests");
const skipReason = executablePath === undefined ? ' (SKIPPED: no Chromium at /usr/bin/chromium; apt-get install chromium)' : '';

const token = 'report-page-admin-token-0001';
const hostileAgent = '<script>window.injected = 1</script>';

describe.skipIf(executablePath === undefined)(`migration report page in headless Chromium${skipReason}`, () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack({ flags: ['--admin-token', token] });
    const password = stack.sim.users('demo').find((u) => u.login === 'admin')?.password as string;
    const ua = { 'user-agent': 'Python-xmlrpc/3.11' };
    await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', password, {}], ua);
    await stack.jsonrpc('object', 'execute_kw', ['demo', 2, password, 'res.partner', 'search_read', [[]], { limit: 1 }], ua);
    await stack.jsonrpc('object', 'execute_kw', ['demo', 2, password, 'res.partner', 'search_read', [[]], { limit: 1 }], ua);
    await stack.jsonrpc('common', 'version', [], { 'user-agent': hostileAgent });
    browser = await chromium.launch({ executablePath: executablePath as string, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('shows each client with the methods it called', async () => {
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    const page = await context.newPage();
    const res = await page.goto(`${stack.gateway.adminUrl}/gateway/report`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('Legacy RPC migration report');
    expect(await page.locator('#client-count').innerText()).toBe('2');
    expect(await page.locator('#call-count').innerText()).toBe('4');

    const python = page.locator('section.client[data-user-agent="Python-xmlrpc/3.11"]');
    expect(await python.locator('h4').innerText()).toBe('Python-xmlrpc/3.11 from 127.0.0.1');
    expect(await python.locator('.calls').innerText()).toBe('3');
    expect(await python.locator('.faults').innerText()).toBe('0');
    const rows = await python
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 6).map((td) => td.textContent)));
    expect(rows).toEqual([
      ['object', 'execute_kw', 'res.partner', 'search_read', '2', '0'],
      ['common', 'authenticate', '–', '–', '1', '0'],
    ]);
    expect(await python.locator('.verdict').innerText()).toBe(
      'Works natively until Odoo 22.0 / Online saas-21.1; the gateway serves it after.',
    );
    await context.close();
  });

  it('shows a hostile User-Agent as text and runs nothing from it', async () => {
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    const page = await context.newPage();
    await page.goto(`${stack.gateway.adminUrl}/gateway/report`);
    const hostile = page.locator('section.client').filter({ hasText: 'window.injected' });
    expect(await hostile.locator('h4 code').first().innerText()).toBe(hostileAgent);
    expect(await page.evaluate(() => (globalThis as { injected?: number }).injected)).toBeUndefined();
    expect(await page.locator('script').count()).toBe(0);
    await context.close();
  });

  it('is refused without the token', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${stack.gateway.adminUrl}/gateway/report`);
    expect(res?.status()).toBe(401);
    await page.close();
  });
});

describe.skipIf(executablePath === undefined)(`the cutover parts of the report page in headless Chromium${skipReason}`, () => {
  let stack: Stack;
  let browser: Browser;
  const agent = 'Python-xmlrpc/3.11';

  beforeAll(async () => {
    stack = await startStack({ sim: { legacyEndpoints: true }, flags: ['--shadow-sample', '100'] });
    const password = stack.sim.users('demo').find((u) => u.login === 'admin')?.password as string;
    const ua = { 'user-agent': agent };
    const kw = (method: string, args: unknown[], kwargs: Record<string, unknown> = {}) =>
      stack.jsonrpc('object', 'execute_kw', ['demo', 2, password, 'res.partner', method, args, kwargs], ua);
    await stack.jsonrpc('common', 'login', ['demo', 'admin', password], ua);
    await kw('search_read', [[['id', '<', 4]]], { fields: ['name', 'credit_limit'] });
    await kw('read_group', [[], ['credit_limit:sum'], ['is_company']]);
    await kw('check_access_rights', ['read'], { raise_exception: false });
    await kw('write', [[3], { comment: 'x' }]);
    await stack.gateway.shadow?.idle();
    // the legacy endpoint now writes floats as ints: the next read differs, twice
    stack.sim.legacyEndpoints.perturb = 'double-as-int';
    await kw('search_read', [[['id', '<', 4]]], { fields: ['name', 'credit_limit'] });
    await stack.gateway.shadow?.idle();
    stack.sim.legacyEndpoints.perturb = undefined;
    browser = await chromium.launch({ executablePath: executablePath as string, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("shows shadow mode, the client's readiness, its deprecated calls, the differences and the JSON-2 way off legacy", async () => {
    const page = await browser.newPage();
    expect((await page.goto(`${stack.gateway.adminUrl}/gateway/report`))?.status()).toBe(200);
    expect(await page.locator('#shadow-state').innerText()).toMatch(
      /^on: 100 % of the calls to read, search, search_read, .*, at most 4 in flight$/,
    );

    const client = page.locator(`section.client[data-user-agent="${agent}"]`);
    expect(await client.locator('.readiness').innerText()).toBe(
      '75 % of 4 compared calls equal (3 equal, 0 intended deviations, 1 differ). Never sampled: res.partner.write (never shadowed: it can change state); common.login (not on the shadow allowlist (--shadow-methods)).',
    );

    const deprecated = client.locator('ul.deprecated li');
    expect(await deprecated.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-method')).sort())).toEqual([
      'check_access_rights',
      'read_group',
    ]);
    expect(await client.locator('ul.deprecated li[data-method="read_group"]').innerText()).toBe(
      'res.partner.read_group, 1 calls: “Since 19.0, read_group is deprecated. Please use _read_group in the backend code or formatted_read_group for a complete formatted result” (deprecated since 19.0); replace with formatted_read_group',
    );
    expect(await client.locator('ul.deprecated li[data-method="check_access_rights"] .replacement').innerText()).toBe('has_access');

    const difference = client.locator('.difference[data-method="res.partner.search_read"]').first();
    expect(await difference.locator('li').first().innerText()).toBe('envelope.result[0].credit_limit: expected int 0, got float 0.0');
    expect(await difference.locator('.gateway-answer').innerText()).toContain('"credit_limit": 0.0');
    expect(await difference.locator('.legacy-answer').innerText()).toContain('"credit_limit": 0}');

    // the JSON-2 equivalents are in the fleet table, once per method
    const fleet = page.locator('#fleet');
    expect(await client.locator('.json2').count()).toBe(0);
    const searchRead = fleet.locator('.json2[data-method="res.partner.search_read"]');
    expect(await searchRead.locator('.request').innerText()).toBe('POST /json/2/res.partner/search_read');
    expect(await searchRead.locator('.body').textContent()).toBe(
      '{"domain": [["<string>", "<string>", "<int>"]], "fields": ["<string>", "<string>"]}',
    );
    expect(await searchRead.locator('.curl').textContent()).toContain('-H "Authorization: bearer $ODOO_API_KEY"');
    expect(await searchRead.locator('.python').textContent()).toContain('response = requests.post(');
    const readGroup = fleet.locator('.json2[data-method="res.partner.read_group"]');
    expect(await readGroup.locator('.request').innerText()).toBe('POST /json/2/res.partner/formatted_read_group');
    expect(await readGroup.locator('.body').textContent()).toBe('{"domain": [], "groupby": ["<string>"], "aggregates": ["<string>"]}');
    expect(await fleet.locator('.json2[data-method="common.login"] .note').textContent()).toContain('JSON-2 has no login');

    const password = stack.sim.users('demo').find((u) => u.login === 'admin')?.password as string;
    expect(await page.content()).not.toContain(password);
    await page.close();
  });

  it('dates what the client calls: read_group and check_access_rights go in Odoo 20.0, the gateway answers them through their successors', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.gateway.adminUrl}/gateway/report`);
    const client = page.locator(`section.client[data-user-agent="${agent}"]`);
    expect(await client.locator('.verdict').innerText()).toBe(
      'Breaks natively on Odoo 20.0 / Online saas-19.1 (res.partner.check_access_rights, res.partner.read_group); through the gateway: works on Odoo 20.0 / Online saas-19.1 and later (res.partner.check_access_rights through has_access, res.partner.read_group through formatted_read_group).',
    );
    const removedIn = (method: string) => page.locator(`#fleet tr[data-method="${method}"] .removed-in`).innerText();
    expect(await removedIn('res.partner.read_group')).toBe(
      'Odoo 20.0 / Online saas-19.1\nthe gateway serves it there through formatted_read_group',
    );
    expect(await removedIn('common.login')).toBe('Odoo 22.0 / Online saas-21.1\nthe gateway serves it there');
    expect(await page.locator('#breaks li[data-series="20.0"]').innerText()).toContain(
      'Breaks on Odoo 20.0 / Online saas-19.1: 1 client whose calls first break natively there; none even through the gateway',
    );

    const json = (await (await fetch(`${stack.gateway.adminUrl}/gateway/report.json`)).json()) as {
      clients: { userAgent: string; verdict: { native?: { onPremise: string; methods: string[] }; gateway?: unknown } }[];
      fleet: { name: string; verdict?: { removals: { what: string; name: string; gatewayServes: boolean; through?: string }[] } }[];
    };
    const verdict = json.clients.find((c) => c.userAgent === agent)?.verdict;
    expect(verdict?.native?.onPremise).toBe('20.0');
    expect(verdict?.gateway).toBeUndefined();
    expect(json.fleet.find((m) => m.name === 'res.partner.read_group')?.verdict?.removals[0]).toMatchObject({
      what: 'method',
      name: 'read_group',
      gatewayServes: true,
      through: 'formatted_read_group',
    });
    await page.close();
  });
});

describe.skipIf(executablePath === undefined)(`a 1,000-client report page in headless Chromium${skipReason}`, () => {
  let stack: Stack;
  let browser: Browser;
  const methods = 200;

  beforeAll(async () => {
    stack = await startStack();
    const password = stack.sim.users('demo').find((u) => u.login === 'admin')?.password as string;
    // one real logged-in client, then 1,000 generated ones recorded as the client port records them
    await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', password, {}], { 'user-agent': 'Python-xmlrpc/3.11' });
    await stack.jsonrpc('object', 'execute_kw', ['demo', 2, password, 'res.partner', 'search_read', [[]], { limit: 1 }], {
      'user-agent': 'Python-xmlrpc/3.11',
    });
    for (let c = 0; c < 1000; c++) {
      for (let k = 0; k < 20; k++) {
        const m = (c * 7 + k * 10) % methods;
        stack.gateway.report.record({
          dialect: 'xmlrpc2',
          userAgent: `generated-client-${c}/1.0`,
          ip: `10.1.${c >> 8}.${c & 255}`,
          service: 'object',
          method: 'execute_kw',
          model: `x_model_${m % 20}`,
          modelMethod: `x_method_${m}`,
          failed: c % 10 === 0,
          database: c % 3 === 0 ? 'demo' : 'sales',
          user: `login:${(c % 40).toString(16).padStart(12, '0')}`,
        });
      }
    }
    browser = await chromium.launch({ executablePath: executablePath as string, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('shows the switch verdicts first, then the fleet table, one row per method, and stays under 4 MB', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const res = await page.goto(`${stack.gateway.adminUrl}/gateway/report`, { timeout: 120_000 });
    expect(res?.status()).toBe(200);
    const bytes = (await res?.body())?.byteLength ?? Infinity;
    expect(bytes).toBeLessThan(4 * 1024 * 1024);
    // 1,001 clients for 1,000 places: one whose credentials were refused left, the real one stays
    expect(await page.locator('#client-count').innerText()).toBe('1000');
    expect(await page.locator('#dropped').innerText()).toContain('1 anonymous clients left to make room');
    expect(await page.locator('section.client[data-user-agent="Python-xmlrpc/3.11"]').count()).toBe(1);
    // issue #39: the switch verdicts (one row per client, with its route) come before what to migrate
    expect(await page.locator('h2').first().innerText()).toBe('Switch verdicts');
    expect(await page.locator('#switch tbody tr').count()).toBe(1000);
    expect(await page.locator('h2').nth(1).innerText()).toBe(`What to migrate: ${methods + 2} methods`);
    const fleetTop = (await page.locator('#fleet').boundingBox())?.y ?? Infinity;
    const firstClientTop = (await page.locator('section.client').first().boundingBox())?.y ?? -Infinity;
    expect(fleetTop).toBeLessThan(firstClientTop);
    expect(await page.locator('#fleet tbody tr').count()).toBe(methods + 2);
    // each method names its top callers and counts the rest
    const row = page.locator('#fleet tbody tr').first();
    expect(await row.locator('ul.who li').last().innerText()).toMatch(/^and \d+ more$/);
    // the clients come grouped by database and login
    expect(await page.locator('div.group[data-database="demo"]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(tmpdir(), 'report-page-1000-clients.png') });
    await page.close();
  }, 120_000);
});
