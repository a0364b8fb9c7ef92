/**
 * Secrets on the command line (#43 item 3): the real process (`src/main.ts`) warns once at start,
 * naming each secret setting given as a flag and its file form, and no log line holds a secret's
 * value. The upstream answers nothing: the warning comes before anything is asked of Odoo.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnGateway } from '../support/child-gateway.ts';

// tsx compiles the sources first: beside a busy machine that alone can take longer than 30 s
const childTimeout = 120_000;

let gateway: ReturnType<typeof spawnGateway> | undefined;
afterEach(async () => {
  if (gateway?.child.exitCode === null) {
    gateway.child.kill('SIGTERM');
    await gateway.exited;
  }
  gateway = undefined;
});

describe('secrets given as flags', { timeout: childTimeout }, () => {
  it('are named once in a warning at start, with their file forms, and their values are in no log line', async () => {
    const serviceKey = '0123456789abcdef'.repeat(3).slice(0, 40);
    const stateSecret = 'state-secret-given-as-a-flag-0123456789';
    const adminToken = 'admintoken'.repeat(4);
    gateway = spawnGateway([
      '--upstream',
      'http://127.0.0.1:9',
      '--port',
      '0',
      '--admin-port',
      '0',
      '--log-format',
      'json',
      '--service-key',
      `demo=${serviceKey}`,
      `--state-secret=${stateSecret}`,
      '--admin-token',
      adminToken,
    ]);
    await gateway.logged('legacy-rpc-gateway listening');
    const warnings = gateway.lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('secrets given as command-line flags'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe(40);
    expect([...(warnings[0]?.flags as string[])].sort()).toEqual(['--admin-token', '--service-key', '--state-secret']);
    for (const form of [
      '--service-key-file or SERVICE_KEY_FILE',
      '--state-secret-file or STATE_SECRET_FILE',
      '--admin-token-file or ADMIN_TOKEN_FILE',
    ])
      expect(warnings[0]?.msg).toContain(form);
    const logged = JSON.stringify(gateway.lines) + gateway.stderr();
    for (const secret of [serviceKey, stateSecret, adminToken]) expect(logged).not.toContain(secret);
  });
});
