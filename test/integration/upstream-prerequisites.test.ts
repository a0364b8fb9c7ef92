/**
 * The start-up check of the upstream prerequisites (docs/architecture.md §5 step 9): with a service key the gateway
 * reads `web.base.url.freeze` and warns when it is not set; docs/first-run.md "Upstream prerequisites".
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
  await stack.gateway.prerequisites;
  return capture;
}

describe('upstream prerequisites at start', () => {
  it('warns when web.base.url.freeze is not set', async () => {
    const capture = await check('admin');
    expect(capture.matching('web.base.url.freeze is not set upstream')).toEqual([
      expect.objectContaining({
        level: 40,
        db: 'gw',
        msg:
          'web.base.url.freeze is not set upstream: every password login of a system user through the gateway (to mint an API key) ' +
          "rewrites web.base.url to the gateway's address. Set the system parameter web.base.url.freeze to True (docs/first-run.md: Upstream prerequisites).",
      }),
    ]);
  });

  it('says nothing alarming when it is set', async () => {
    const capture = await check('admin', { 'web.base.url.freeze': 'True' });
    expect(capture.matching('upstream prerequisite met: web.base.url.freeze is set')).toHaveLength(1);
    expect(capture.lines.filter((l) => l.level === 40)).toEqual([]);
  });

  it('warns that it could not check with a service key of a user who cannot read system parameters', async () => {
    const capture = await check('demo');
    expect(capture.matching('could not check web.base.url.freeze')).toEqual([
      expect.objectContaining({ level: 40, why: expect.stringMatching(/^odoo\.exceptions\.AccessError: /) }),
    ]);
  });
});
