/**
 * The credential map (docs/architecture.md §5 step 2): (db, login, scrypt hash) → API key, checked before
 * minting. A mapped login never logs in upstream — the way to serve two-factor users.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/credentials/index.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let demoKey: string;

beforeAll(async () => {
  const file = `${mkdtempSync(`${tmpdir()}/credential-map-`)}/map.json`;
  const hash = await hashPassword('mapped secret');
  // demo has two-factor authentication: its password cannot mint, the map serves it
  stack = await startStack({
    databases: ['gw'],
    sim: { totpLogins: ['demo'], laterBuild: true },
    flags: (sim) => {
      demoKey = sim.keyFor('gw', 'demo');
      writeFileSync(file, JSON.stringify([{ db: 'gw', login: 'demo', password_hash: hash, key: demoKey }]), { mode: 0o600 });
      return ['--credentials-file', file];
    },
  });
});
afterAll(() => stack.close());
beforeEach(() => stack.sim.clearLog());

const webRequests = () => stack.sim.log.filter((r) => r.path.startsWith('/web/'));

describe('credential map', () => {
  it('serves a mapped login with its key, without any web login upstream', async () => {
    expect((await stack.jsonrpc('common', 'authenticate', ['gw', 'demo', 'mapped secret', {}])).result).toBe(5);
    expect(webRequests()).toEqual([]);
    expect(stack.sim.log.map((r) => r.headers.authorization)).toEqual([`bearer ${demoKey}`]);
  });

  it('learns the uid of a mapped key, so object calls need no login first', async () => {
    const answer = await stack.jsonrpc('object', 'execute_kw', ['gw', 5, 'mapped secret', 'res.users', 'context_get', []]);
    expect((answer.result as Map<string, unknown>).get('uid')).toBe(5);
    expect(webRequests()).toEqual([]);
  });

  it('refuses another password for a mapped login without trying it upstream', async () => {
    expect((await stack.jsonrpc('common', 'login', ['gw', 'demo', 'demo'])).result).toBe(false);
    expect(stack.sim.log).toEqual([]);
  });

  it('never retires a mapped key', async () => {
    await stack.gateway.credentials.close();
    expect(stack.sim.log.filter((r) => r.path === '/json/2/res.users.apikeys/revoke')).toEqual([]);
    expect(stack.sim.keys.check(demoKey)).toBe(5);
  });
});
