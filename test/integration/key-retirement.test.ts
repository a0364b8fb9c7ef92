/**
 * Retiring minted keys (docs/architecture.md §5 step 3): on graceful shutdown and on eviction, with
 * `res.users.apikeys/revoke` feature-detected (404 on the recorded build, 422 "not enabled" for a
 * non-system user), and never a key the client supplied.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { captureLog } from '../support/captured-log.ts';
import { startStack, type Stack } from '../support/stack.ts';

const revokePath = '/json/2/res.users.apikeys/revoke';
let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const mintedKeys = (s: Stack) => s.sim.keys.list().filter((k) => k.name.startsWith('legacy-rpc-gateway for '));
const revokes = (s: Stack) => s.sim.log.filter((r) => r.path === revokePath);

describe('graceful shutdown', () => {
  it('revokes every minted key where the upstream has revoke (later build, system user)', async () => {
    stack = await startStack({ databases: ['gw'], sim: { laterBuild: true } });
    const s = stack;
    expect((await s.jsonrpc('common', 'login', ['gw', 'admin', 'admin'])).result).toBe(2);
    const [key] = mintedKeys(s);
    s.sim.clearLog();
    await s.gateway.close();
    stack = undefined;
    expect(revokes(s).map((r) => [r.headers.authorization, r.body])).toEqual([[`bearer ${key?.key}`, `{"key":"${key?.key}"}`]]);
    expect(mintedKeys(s)).toEqual([]);
    await s.sim.close();
  });

  it('leaves a key to expire when the build has no revoke (404), asking once per database', async () => {
    const capture = captureLog('info');
    stack = await startStack({ databases: ['gw'], log: capture.log });
    const s = stack;
    await s.jsonrpc('common', 'login', ['gw', 'admin', 'admin']);
    await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo']);
    s.sim.clearLog();
    await s.gateway.close();
    stack = undefined;
    expect(revokes(s)).toHaveLength(1);
    expect(mintedKeys(s)).toHaveLength(2);
    const left = capture.matching('minted API key left to expire (the upstream cannot revoke it)');
    expect(left.map((l) => [l.uid, l.why]).sort()).toEqual([
      [2, 'the gateway is shutting down'],
      [5, 'the gateway is shutting down'],
    ]);
    await s.sim.close();
  });

  it('treats 422 "not enabled" as unavailable for a non-system user, and revokes once the parameter allows it', async () => {
    stack = await startStack({ databases: ['gw'], sim: { laterBuild: true } });
    const s = stack;
    await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo']);
    await s.gateway.credentials.close();
    expect(revokes(s)).toHaveLength(1);
    expect(mintedKeys(s)).toHaveLength(1);
    s.sim.control.setConfigParameter('gw', 'base.enable_programmatic_api_keys', 'True');
    await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo']);
    s.sim.clearLog();
    await s.gateway.credentials.close();
    // the feature detection remembered the refusal for this user: no second attempt in this process
    expect(revokes(s)).toHaveLength(0);
  });

  it('never retires a key the client supplied as its password', async () => {
    stack = await startStack({ databases: ['gw'], sim: { laterBuild: true } });
    const s = stack;
    const clientKey = s.sim.keyFor('gw', 'admin');
    expect((await s.jsonrpc('common', 'login', ['gw', 'admin', clientKey])).result).toBe(2);
    expect((await s.jsonrpc('object', 'execute_kw', ['gw', 2, clientKey, 'res.users', 'context_get', []])).error).toBeUndefined();
    s.sim.clearLog();
    await s.gateway.close();
    stack = undefined;
    expect(revokes(s)).toEqual([]);
    expect(s.sim.keys.check(clientKey)).toBe(2);
    await s.sim.close();
  });
});

describe('eviction', () => {
  it('revokes a minted key pushed out of a full cache', async () => {
    stack = await startStack({ databases: ['gw'], sim: { laterBuild: true }, flags: ['--key-cache-size', '1'] });
    const s = stack;
    await s.jsonrpc('common', 'login', ['gw', 'admin', 'admin']);
    const [adminKey] = mintedKeys(s);
    await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo']);
    await expect.poll(() => s.sim.keys.find(adminKey?.key ?? '')).toBeUndefined();
    expect(mintedKeys(s).map((k) => k.uid)).toEqual([5]);
  });
});
