/**
 * The migration report page as a person sees it: rendered by Debian's headless Chromium (driven by
 * playwright-core) from the admin port, after real legacy calls. Skipped only where Chromium is not
 * installed; under CI (`CI` set, where `.ci/run` installs it) a missing Chromium fails instead.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p !== undefined && existsSync(p));
if (executablePath === undefined && process.env.CI) throw new Error('Chromium is missing: .ci/run installs Debian\'s chromium package before the tests');
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
    expect(await python.locator('h2').innerText()).toBe('Python-xmlrpc/3.11 from 127.0.0.1');
    expect(await python.locator('.calls').innerText()).toBe('3');
    expect(await python.locator('.faults').innerText()).toBe('0');
    const rows = await python.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 6).map((td) => td.textContent)));
    expect(rows).toEqual([
      ['object', 'execute_kw', 'res.partner', 'search_read', '2', '0'],
      ['common', 'authenticate', '–', '–', '1', '0'],
    ]);
    await context.close();
  });

  it('shows a hostile User-Agent as text and runs nothing from it', async () => {
    const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    const page = await context.newPage();
    await page.goto(`${stack.gateway.adminUrl}/gateway/report`);
    const hostile = page.locator('section.client').filter({ hasText: 'window.injected' });
    expect(await hostile.locator('h2 code').first().innerText()).toBe(hostileAgent);
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
