/**
 * The start-up check's finding on `web.base.url` (docs/first-run.md step 1.4): with
 * a service key the gateway reads the parameter and its freeze in each database it has a key for,
 * and says whether its password logins leave the parameter as it is, warning where they cannot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { captureLog } from '../support/captured-log.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function check(serviceLogin: string, configParameters: Record<string, string> = {}) {
  const capture = captureLog('info');
  stack = await startStack({
    databases: ['gw'],
    log: capture.log,
    sim: { configParameters },
    flags: (sim) => ['--service-key', sim.keyFor('gw', serviceLogin), '--service-db', 'gw'],
  });
  await stack.gateway.startupCheck.start();
  // the finding names its database; the start-up block before it names none
  return capture.lines.filter((l) => l.db === 'gw' && typeof l.msg === 'string' && l.msg.includes('web.base.url'));
}

describe('the web.base.url finding at start', () => {
  it('says the logins are made at the base URL Odoo has, and leave it as it is', async () => {
    expect(await check('admin')).toEqual([
      expect.objectContaining({
        level: 30,
        msg: "web.base.url http://localhost:8069: the gateway's password logins and the web logins it passes through are made at it and leave it as it is",
      }),
    ]);
  });

  it('names proxy_mode for an https base URL, which Odoo sees as such only with it', async () => {
    expect(await check('admin', { 'web.base.url': 'https://erp.example.com' })).toEqual([
      expect.objectContaining({ level: 30, msg: expect.stringContaining('provided Odoo runs with proxy_mode') }),
    ]);
  });

  it('warns that a base URL with a path cannot be a login root: each system-user login rewrites it', async () => {
    expect(await check('admin', { 'web.base.url': 'https://example.com/erp' })).toEqual([
      expect.objectContaining({
        level: 40,
        msg:
          'web.base.url https://example.com/erp cannot be the URL root of a login (a path, or not http(s)): every password login of a system user ' +
          'through the gateway (to mint an API key) rewrites it; set web.base.url.freeze to True (docs/first-run.md step 1.4)',
      }),
    ]);
  });

  it('says nothing alarming when web.base.url.freeze is set, whatever the base URL', async () => {
    const findings = await check('admin', { 'web.base.url': 'https://example.com/erp', 'web.base.url.freeze': 'True' });
    expect(findings).toEqual([
      expect.objectContaining({ level: 30, msg: 'web.base.url.freeze is set: logins leave web.base.url as it is' }),
    ]);
  });

  it('warns that it could not check with a service key of a user who cannot read system parameters', async () => {
    expect(await check('demo')).toEqual([
      expect.objectContaining({
        level: 40,
        msg: expect.stringMatching(/^could not read web\.base\.url and its freeze with the service key/),
      }),
    ]);
  });
});
