/**
 * Passwords traded for API keys (docs/architecture.md §5 step 3) through the gateway in front of the
 * simulator: the recorded exchange (corpus sess-mint-*), exchange counts under concurrency (counted
 * at the simulator's HTTP layer), expiry at 00:00 UTC, renewal, re-validation, the negative cache
 * and the transparent re-mint after a 401. A test clock moves time; nothing sleeps.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClock, minutes, type TestClock } from '../support/clock.ts';
import { errorData, startStack, type Stack } from '../support/stack.ts';

const authPath = '/web/session/authenticate';
const createPath = '/web/dataset/call_kw/res.users.apikeys.description/create';
const makeKeyPath = '/web/dataset/call_kw/res.users.apikeys.description/make_key';
const runCheckPath = '/web/dataset/call_kw/res.users.identitycheck/run_check';
const destroyPath = '/web/session/destroy';
const readKeyPath = '/json/2/res.users.apikeys/search_read';
const removePath = '/web/dataset/call_kw/res.users.apikeys/remove';
// the user's earlier keys of this gateway, listed in the session after each login (removed if any)
const sweepPath = '/web/dataset/call_kw/res.users.apikeys/search_read';
// a password check: the session (Odoo's check_session) and the user's write_date in one request
const stampPath = '/web/dataset/call_kw/res.users/read';
// the mint's web session stays open: checking it later confirms the password without a hash
const mintSequence = [authPath, createPath, makeKeyPath, runCheckPath, readKeyPath, sweepPath];

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** The service key's look for RPC policy modules, once per database and `policyTtlMs` (src/legacy/rpc-policy.ts). */
const policyRead = '/json/2/ir.module.module/search_read';

async function start(clock: TestClock, flags: string[] | ((s: Stack['sim']) => string[]) = []): Promise<Stack> {
  stack = await startStack({ databases: ['gw'], sim: { now: clock.date }, gateway: { now: clock.now }, flags });
  return stack;
}

const paths = (s: Stack) => s.sim.log.map((r) => r.path).filter((p) => !p.startsWith('/doc-bearer/')); // signature discovery is not ours
const count = (s: Stack, path: string) => s.sim.log.filter((r) => r.path === path).length;
const bearers = (s: Stack, path: string) =>
  s.sim.log.filter((r) => r.path === path).map((r) => r.headers.authorization?.slice('bearer '.length));
const contextGet = (s: Stack, uid: number, password: string) =>
  s.jsonrpc('object', 'execute_kw', ['gw', uid, password, 'res.users', 'context_get', []]);
const mintedKeys = (s: Stack) => s.sim.keys.list().filter((k) => k.name.startsWith('legacy-rpc-gateway for '));

/** A recorded request body with what differs between runs (ids, the key's description) blanked. */
function normalized(body: string): unknown {
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'number' && key !== 'uid') return '<id>';
    if (typeof v === 'string' && /^legacy-rpc-gateway /.test(v)) return '<description>';
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(JSON.parse(body));
}

describe('minting', () => {
  it('mints over the recorded web routes, request for request (corpus sess-mint-1 … sess-mint-6, the session kept open instead of sess-mint-5)', async () => {
    const s = await start(createTestClock('2026-11-21T23:40:39Z'));
    expect((await s.jsonrpc('common', 'authenticate', ['gw', 'demo', 'demo', {}])).result).toBe(5);
    const recorded = [
      'sess-mint-1-authenticate',
      'sess-mint-2-description-create',
      'sess-mint-3-make_key',
      'sess-mint-4-run_check',
      'sess-mint-6-read-expiration',
    ].map(
      (id) =>
        (
          JSON.parse(readFileSync(new URL(`../../fixtures/conformance/cases/${id}.json`, import.meta.url), 'utf8')) as {
            legacy: { path: string; request_body: string };
          }
        ).legacy,
    );
    // then the user's earlier keys of this gateway are listed in the same session (none here)
    expect(s.sim.log.map((r) => r.path).slice(recorded.length)).toEqual([sweepPath]);
    const sent = s.sim.log.slice(0, recorded.length);
    expect(sent.map((r) => r.path)).toEqual(recorded.map((r) => r.path));
    sent.forEach((r, i) => expect(normalized(r.body), r.path).toEqual(normalized((recorded[i] as { request_body: string }).request_body)));
    // the session cookie, never a database header, on the session routes; the new key on JSON-2
    const web = sent.slice(0, 4);
    expect(web.every((r) => r.headers['x-odoo-database'] === undefined)).toBe(true);
    expect(web[0]?.headers.cookie).toBeUndefined();
    expect(new Set(web.slice(1).map((r) => r.headers.cookie)).size).toBe(1);
    expect(web[1]?.headers.cookie).toMatch(/^session_id=[\w-]{20,}$/);
    const [key] = mintedKeys(s);
    expect(sent[4]?.headers.authorization).toBe(`bearer ${key?.key}`);
    expect(sent[4]?.headers['x-odoo-database']).toBe('gw');
    expect(key).toMatchObject({ uid: 5, scope: null, expiration: '2026-11-22 00:00:00' });
  });

  it('names minted keys after the gateway and the client', async () => {
    const s = await start(createTestClock('2026-11-21T12:00:00Z'));
    await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo'], { 'user-agent': 'Python-xmlrpc/3.11' });
    expect(mintedKeys(s).map((k) => k.name)).toEqual([
      expect.stringMatching(/^legacy-rpc-gateway for Python-xmlrpc\/3\.11 at 127\.0\.0\.1 \[[0-9a-f]{8}\.[0-9a-f]{16}\]$/),
    ]);
  });

  it('answers login and authenticate with the uid, then serves object calls with the same key', async () => {
    const s = await start(createTestClock('2026-11-21T12:00:00Z'));
    expect((await s.jsonrpc('common', 'login', ['gw', 'admin', 'admin'])).result).toBe(2);
    s.sim.clearLog();
    expect((await contextGet(s, 2, 'admin')).result).toEqual(
      new Map<string, unknown>([
        ['lang', 'en_US'],
        ['tz', 'Europe/Brussels'],
        ['uid', 2],
      ]),
    );
    expect(paths(s)).toEqual(['/json/2/res.users/context_get']);
    expect(bearers(s, '/json/2/res.users/context_get')).toEqual([mintedKeys(s)[0]?.key]);
  });

  it('100 concurrent first calls with the same new credentials make exactly one exchange; warm calls make none', async () => {
    const s = await start(createTestClock('2026-11-21T12:00:00Z'), (sim) => ['--service-key', sim.keyFor('gw', 'admin')]);
    const first = await Promise.all(Array.from({ length: 100 }, () => contextGet(s, 5, 'demo')));
    expect(first.every((a) => a.error === undefined)).toBe(true);
    const exchange = paths(s).filter((p) => p !== '/json/2/res.users/context_get' && p !== policyRead);
    // one uid → login look-up with the service key, the base URL read with it (the login is made at
    // it, so web.base.url stays as it is), then one mint: authenticate → create → make_key → run_check → read
    expect(exchange).toEqual(['/json/2/res.users/search_read', '/json/2/ir.config_parameter/get_param', ...mintSequence]);
    // and, with the service key, one look for RPC policy modules (rpc-policy.ts) for all 100
    expect(count(s, policyRead)).toBe(1);
    expect(count(s, '/json/2/res.users/context_get')).toBe(100);
    s.sim.clearLog();
    await Promise.all(Array.from({ length: 100 }, () => contextGet(s, 5, 'demo')));
    expect(paths(s).filter((p) => p !== '/json/2/res.users/context_get')).toEqual([]);
    expect(mintedKeys(s)).toHaveLength(1);
  });

  it('100 concurrent first authenticate calls make exactly one exchange', async () => {
    const s = await start(createTestClock('2026-11-21T12:00:00Z'));
    const answers = await Promise.all(Array.from({ length: 100 }, () => s.jsonrpc('common', 'authenticate', ['gw', 'admin', 'admin', {}])));
    expect(answers.map((a) => a.result)).toEqual(Array.from({ length: 100 }, () => 2));
    expect(paths(s)).toEqual(mintSequence);
  });
});

describe('key lifetime', () => {
  it('a key minted at 23:40 for one day expires at 00:00 UTC and is minted anew after midnight', async () => {
    const clock = createTestClock('2026-11-21T23:40:00Z');
    const s = await start(clock, [
      '--key-renew-margin',
      '0',
      '--revalidate-interval',
      String(minutes(14)),
      '--login-recheck-interval',
      String(minutes(1)),
    ]);
    await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo']);
    expect(mintedKeys(s).map((k) => k.expiration)).toEqual(['2026-11-22 00:00:00']);
    clock.set('2026-11-21T23:59:00Z');
    await contextGet(s, 5, 'demo'); // the password confirmed again (--revalidate-interval is at most 15 min)
    await s.gateway.credentials.settled();
    clock.set('2026-11-21T23:59:59Z');
    s.sim.clearLog();
    await contextGet(s, 5, 'demo');
    expect(paths(s)).toEqual(['/json/2/res.users/context_get']);
    clock.set('2026-11-22T00:00:01Z');
    s.sim.clearLog();
    expect((await contextGet(s, 5, 'demo')).error).toBeUndefined();
    // the dead key is removed in the new key's session (Odoo's autovacuum would drop it later)
    expect(paths(s)).toEqual([...mintSequence, removePath, '/json/2/res.users/context_get']);
    expect(mintedKeys(s).map((k) => k.expiration)).toEqual(['2026-11-23 00:00:00']);
  });

  it('serves the first call inside the renewal margin with the old key while it mints the new one, removing the old key in that session', async () => {
    const clock = createTestClock('2026-11-21T12:00:00Z');
    const s = await start(clock, [
      '--key-duration',
      '7',
      '--revalidate-interval',
      String(minutes(14)),
      '--login-recheck-interval',
      String(minutes(1)),
    ]);
    await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo']);
    const [old] = mintedKeys(s);
    expect(old?.expiration).toBe('2026-11-28 00:00:00');
    clock.set('2026-11-27T23:49:00Z');
    await contextGet(s, 5, 'demo'); // the password confirmed again (--revalidate-interval is at most 15 min)
    await s.gateway.credentials.settled();
    clock.set('2026-11-27T23:51:00Z'); // inside the default 10-minute margin
    s.sim.clearLog();
    expect((await contextGet(s, 5, 'demo')).error).toBeUndefined();
    expect(bearers(s, '/json/2/res.users/context_get')).toEqual([old?.key]);
    await s.gateway.credentials.settled();
    // the identity check of the new key covers the removal: no second run_check
    expect(paths(s).filter((p) => p !== '/json/2/res.users/context_get')).toEqual([
      authPath,
      createPath,
      makeKeyPath,
      runCheckPath,
      removePath,
      readKeyPath,
      sweepPath,
    ]);
    const [fresh] = mintedKeys(s);
    expect(s.sim.keys.find(old?.key ?? '')).toBeUndefined();
    expect(fresh?.expiration).toBe('2026-12-04 00:00:00');
    s.sim.clearLog();
    await contextGet(s, 5, 'demo');
    expect(bearers(s, '/json/2/res.users/context_get')).toEqual([fresh?.key]);
  });

  it('confirms the password by checking the session minting opened (no password hash) with the write_date read before the last login: a changed password stops working within the 5 s bound, and is not asked for again at once', async () => {
    const clock = createTestClock('2026-11-21T12:00:00Z');
    const s = await start(clock);
    await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo']);
    clock.advance(2000);
    s.sim.clearLog();
    await contextGet(s, 5, 'demo');
    expect(paths(s)).toEqual(['/json/2/res.users/context_get']);
    clock.advance(1000); // past half the bound: checked in the background, the call does not wait
    s.sim.clearLog();
    await contextGet(s, 5, 'demo');
    await s.gateway.credentials.settled();
    // a new key has no write_date read before its login yet: its first check reads it and logs in once
    expect(paths(s).sort()).toEqual(['/json/2/res.users/context_get', stampPath, authPath, sweepPath, destroyPath].sort());
    clock.advance(3000);
    s.sim.clearLog();
    await contextGet(s, 5, 'demo');
    await s.gateway.credentials.settled();
    expect(paths(s).sort()).toEqual(['/json/2/res.users/context_get', stampPath]); // then one request, no hash
    s.sim.control.setPassword('gw', 'demo', 'changed');
    clock.advance(5000);
    s.sim.clearLog();
    expect(errorData((await contextGet(s, 5, 'demo')).error)).toMatchObject({
      name: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
    });
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo'])).result).toBe(false);
    await s.gateway.credentials.settled();
    // the session check failed (Odoo ended the session), the write_date was read with the key, one
    // fresh login was refused, the key is revoked (404 on this build) and its session ended; the
    // second call hit the negative cache
    expect(paths(s).slice(0, 3)).toEqual([stampPath, '/json/2/res.users/read', authPath]);
    expect(paths(s).slice(3).sort()).toEqual(['/json/2/res.users.apikeys/revoke', destroyPath]);
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'changed'])).result).toBe(5);
  });

  it('confirms the password with one fresh login when Odoo no longer has the session', async () => {
    const clock = createTestClock('2026-11-21T12:00:00Z');
    // two databases: a request naming none then selects none (Odoo's "No database is selected")
    const s = (stack = await startStack({ databases: ['gw', 'gw2'], sim: { now: clock.date }, gateway: { now: clock.now } }));
    await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo']);
    s.sim.control.dropSessions();
    clock.advance(5000);
    s.sim.clearLog();
    expect((await contextGet(s, 5, 'demo')).error).toBeUndefined();
    // the write_date read with the key (the session is gone) before the login: the next checks' baseline
    expect(paths(s)).toEqual([stampPath, '/json/2/res.users/read', authPath, sweepPath, '/json/2/res.users/context_get']);
    clock.advance(5000);
    s.sim.clearLog();
    await contextGet(s, 5, 'demo');
    expect(paths(s)).toEqual([stampPath, '/json/2/res.users/context_get']); // the new session
  });

  it('refuses a changed password within the bound while its holder keeps re-arming the throttle from the same address', async () => {
    const clock = createTestClock('2026-11-21T12:00:00Z');
    const s = await start(clock, ['--throttle-failures', '3', '--throttle-backoff', '60000', '--revalidate-interval', '5000']);
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo'])).result).toBe(5);
    expect((await contextGet(s, 5, 'demo')).error).toBeUndefined();
    s.sim.control.setPassword('gw', 'demo', 'changed');
    for (let second = 0; second < 6; second++) {
      // wrong passwords for the same login from the same address keep the throttle armed
      for (const i of [1, 2, 3]) await s.jsonrpc('common', 'login', ['gw', 'demo', `wrong-${second}-${i}`]);
      clock.advance(1000);
    }
    expect(errorData((await contextGet(s, 5, 'demo')).error)).toMatchObject({
      name: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
    });
  });

  it('refuses a lone surrogate in a login or password with the UnicodeEncodeError Odoo raises, before any upstream login', async () => {
    const clock = createTestClock('2026-11-21T12:00:00Z');
    const s = await start(clock);
    s.sim.clearLog();
    for (const args of [
      ['gw', 'demo', 'demo\ud800'],
      ['gw', 'de\udc00mo', 'demo'],
    ]) {
      const { error } = await s.jsonrpc('common', 'login', args);
      expect(errorData(error)).toMatchObject({ name: 'builtins.UnicodeEncodeError' });
    }
    expect(errorData((await contextGet(s, 5, 'demo\ud800')).error)).toMatchObject({ name: 'builtins.UnicodeEncodeError' });
    expect(paths(s)).toEqual([]);
  });

  it('caches refused credentials for the negative TTL: a looping bad client makes one login attempt per period', async () => {
    const clock = createTestClock('2026-11-21T12:00:00Z');
    const s = await start(clock, (sim) => ['--negative-cache-ttl', '60000', '--service-key', sim.keyFor('gw', 'admin')]);
    for (let i = 0; i < 5; i++) expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'wrong'])).result).toBe(false);
    for (let i = 0; i < 5; i++) expect(errorData((await contextGet(s, 5, 'wrong')).error).message).toBe('Access Denied');
    expect(count(s, authPath)).toBe(1);
    clock.advance(60_001);
    expect((await s.jsonrpc('common', 'login', ['gw', 'demo', 'wrong'])).result).toBe(false);
    expect(count(s, authPath)).toBe(2);
  });

  it('evicts a minted key the upstream refuses (401) and mints anew once, transparently', async () => {
    const s = await start(createTestClock('2026-11-21T12:00:00Z'));
    await s.jsonrpc('common', 'login', ['gw', 'demo', 'demo']);
    const [old] = mintedKeys(s);
    s.sim.keys.removeKey(old?.key ?? '');
    s.sim.clearLog();
    expect((await contextGet(s, 5, 'demo')).result).toBeInstanceOf(Map);
    // a live key taken away: this process no longer removes the user's older keys (no listing)
    expect(paths(s)).toEqual([
      '/json/2/res.users/context_get',
      ...mintSequence.filter((p) => p !== sweepPath),
      '/json/2/res.users/context_get',
    ]);
    expect(bearers(s, '/json/2/res.users/context_get')).toEqual([old?.key, mintedKeys(s)[0]?.key]);
  });
});
