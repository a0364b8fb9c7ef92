/**
 * What the gateway learnt about logins outlives a restart (`--logins-file`): a client that keeps its
 * uid and calls `execute_kw` with its password after the restart is served, without a service key.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../sim/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway } from '../../src/server/gateway.ts';
import { jsonrpcAt } from '../support/stack.ts';

const dir = mkdtempSync(join(tmpdir(), 'logins-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--logins-file', () => {
  it('serves a uid-only password call after a restart, and stores no password', async () => {
    const sim = await startSimulator({ databases: ['gw'] });
    const file = join(dir, 'logins.json');
    const config = loadConfig(['--port', '0', '--admin-port', '0', '--upstream', sim.url, '--logins-file', file], {});
    try {
      const first = await startGateway(config, createLogger('silent'));
      expect((await jsonrpcAt(first.url, 'common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5);
      await first.close();
      expect(readFileSync(file, 'utf8')).not.toContain('"demo","demo"');
      const second = await startGateway(config, createLogger('silent'));
      try {
        const { result, error } = await jsonrpcAt(second.url, 'object', 'execute_kw', [
          'gw',
          5,
          'demo',
          'res.users',
          'read',
          [[5], ['login']],
        ]);
        expect(error).toBeUndefined();
        expect(result).toEqual([
          new Map<string, unknown>([
            ['id', 5],
            ['login', 'demo'],
          ]),
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await sim.close();
    }
  });
});
