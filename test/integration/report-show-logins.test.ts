/**
 * `--report-show-logins`: the report on the admin port names each client's login in clear beside its
 * pseudonym; by default, and in the report file, only the pseudonym.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CutoverSnapshot } from '../../src/cutover/cutover-report.ts';
import { keyedLoginId, pseudonymKey } from '../../src/report/call-identity.ts';
import { startStack, type Stack } from '../support/stack.ts';

describe('--report-show-logins', () => {
  let stack: Stack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  // a state secret makes the pseudonyms known to the test (without one they are the process's own)
  const secret = 'show-logins-state-secret-0123456789';
  const loginId = (login: string) => keyedLoginId(login, pseudonymKey(secret));

  async function reportAfterALogin(flags: string[]) {
    stack = await startStack({ flags: [...flags, '--state-secret', secret] });
    const password = stack.sim.users('demo').find((u) => u.login === 'admin')?.password as string;
    const ua = { 'user-agent': 'show-logins-script' };
    expect((await stack.jsonrpc('common', 'authenticate', ['demo', 'admin', password, {}], ua)).result).toBe(2);
    await stack.jsonrpc('object', 'execute_kw', ['demo', 2, password, 'res.partner', 'search_read', [[]], { limit: 1 }], ua);
    const json = (await (await fetch(`${stack.gateway.adminUrl}/gateway/report.json`)).json()) as CutoverSnapshot;
    const html = await (await fetch(`${stack.gateway.adminUrl}/gateway/report`)).text();
    return { client: json.clients.find((c) => c.userAgent === 'show-logins-script'), html };
  }

  it('shows the login in clear beside its pseudonym on the admin port, and never writes it to the report file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gateway-show-logins-')), 'report.json');
    const { client, html } = await reportAfterALogin(['--report-show-logins', '--report-file', file]);
    expect(client).toMatchObject({ user: loginId('admin'), login: 'admin' });
    expect(html).toContain(`<code class="user">${loginId('admin')}</code> (<span class="login">admin</span>)`);
    await stack?.close();
    stack = undefined;
    const saved = readFileSync(file, 'utf8');
    expect(saved).toContain(loginId('admin'));
    expect(saved).not.toMatch(/"login"/);
  });

  it('shows only the pseudonym by default', async () => {
    const { client, html } = await reportAfterALogin([]);
    expect(client?.user).toBe(loginId('admin'));
    expect(client).not.toHaveProperty('login');
    expect(html).not.toContain('class="login"');
  });
});
