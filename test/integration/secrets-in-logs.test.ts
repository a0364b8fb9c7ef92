/**
 * No password and no API key in any log line (docs/architecture.md §5 step 1, §8): a credential-heavy session at
 * trace level — minting, renewal, re-validation, a 401 re-mint, refusals, throttling, passthrough
 * keys, the credential map, per-database service keys, signature discovery with the callers' own
 * keys, retirement at shutdown — then every line is searched for every
 * password and key the session used — once in-process, once sharing state through a Redis that
 * requires a password, whose password and the state secret must not show either.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/credentials/index.ts';
import { captureLog } from '../support/captured-log.ts';
import { createTestClock, minutes } from '../support/clock.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/redis.ts';
import { startStack } from '../support/stack.ts';

const redisPassword = 'Redis-Secret-Passphrase';
const stateSecret = 'State-Secret-Passphrase-of-32-characters-or-more';
let redis: PrivateRedis | undefined;
afterAll(async () => {
  await redis?.stop();
});

describe('log lines', () => {
  it.each(['in-process', 'with Redis'])(
    'never contain a password or an API key, whatever the credentials went through (%s)',
    async (mode) => {
      const shared: string[] = [];
      if (mode === 'with Redis') {
        redis = await startPrivateRedis({ password: redisPassword });
        shared.push('--redis-url', redis.url, '--state-secret', stateSecret);
      }
      const passwords = { admin: 'Adm1n-Secret-Passphrase', demo: 'Demo-Secret-Passphrase', mapped: 'Mapped-Secret-Passphrase' };
      const wrong = ['Wrong-Secret-1', 'Wrong-Secret-2', 'Wrong-Secret-3', 'Wrong-Secret-4'];
      const capture = captureLog('trace');
      const clock = createTestClock('2026-11-21T12:00:00Z');
      const file = `${mkdtempSync(`${tmpdir()}/secrets-`)}/map.json`;
      const hash = await hashPassword(passwords.mapped);
      const keys = new Set<string>();
      const stack = await startStack({
        databases: ['gw', 'gw2', 'gw3'],
        log: capture.log,
        sim: { laterBuild: true, totpLogins: ['portal'], now: clock.date },
        gateway: { now: clock.now },
        flags: (sim) => {
          writeFileSync(file, JSON.stringify([{ db: 'gw', login: 'portal', password_hash: hash, key: sim.keyFor('gw', 'portal') }]));
          // per-database service keys; gw3 has none (discovery there asks with each caller's key)
          return [
            '--service-key',
            `gw=${sim.keyFor('gw', 'admin')},gw2=${sim.keyFor('gw2', 'admin')}`,
            '--service-db',
            'gw',
            '--credentials-file',
            file,
            '--throttle-failures',
            '3',
            '--key-duration',
            '7',
            '--trusted-proxies',
            'loopback',
            ...shared,
          ];
        },
      });
      const { sim } = stack;
      const remember = () => sim.keys.list().forEach((k) => keys.add(k.key));
      sim.control.setPassword('gw', 'admin', passwords.admin);
      sim.control.setPassword('gw', 'demo', passwords.demo);
      const call = (uid: number, password: string, ip = '10.0.0.1') =>
        stack.jsonrpc('object', 'execute_kw', ['gw', uid, password, 'res.partner', 'search_count', [[]]], {
          'x-forwarded-for': ip,
          'user-agent': 'secret-test/1.0',
        });

      // minting, warm calls, authenticate, and the passthrough of the client's own key
      await stack.jsonrpc('common', 'authenticate', ['gw', 'admin', passwords.admin, {}]);
      await call(2, passwords.admin);
      await call(5, passwords.demo);
      await call(2, sim.keyFor('gw', 'admin'));
      await call(2, 'f'.repeat(40));
      remember();
      // a uid-only call in gw2 (its service key looks the login up), signatures discovered with the
      // caller's own key in gw3 (demo's: 403, then admin's: 200), and a uid gw3 cannot look up
      const gw2Admin = sim.users('gw2').find((u) => u.login === 'admin')?.password as string;
      await stack.jsonrpc('object', 'execute_kw', ['gw2', 2, gw2Admin, 'res.partner', 'search_count', [[]]]);
      for (const login of ['demo', 'admin']) {
        const uid = login === 'admin' ? 2 : 5;
        await stack.jsonrpc('object', 'execute_kw', [
          'gw3',
          uid,
          sim.keyFor('gw3', login),
          'res.partner',
          'action_gateway_demo',
          [[3], 'note'],
        ]);
      }
      await stack.jsonrpc('object', 'execute_kw', ['gw3', 5, 'Gw3-Secret-Passphrase', 'res.partner', 'search_count', [[]]]);
      // refusals: wrong passwords until throttled, a two-factor password, the credential map (right and wrong)
      for (const pw of wrong) await call(5, pw, '10.0.0.9');
      await stack.jsonrpc('common', 'login', ['gw2', 'portal', 'portal']); // not mapped in gw2: two-factor refusal
      await stack.jsonrpc('common', 'login', ['gw', 'portal', passwords.mapped]);
      await stack.jsonrpc('common', 'login', ['gw', 'portal', passwords.demo]);
      // a revoked minted key (401 → re-mint), re-validation, renewal inside the margin
      for (const k of sim.keys.list().filter((r) => r.uid === 5 && r.name.startsWith('legacy-rpc-gateway'))) sim.keys.removeKey(k.key);
      await call(5, passwords.demo);
      remember();
      clock.advance(minutes(20));
      await call(2, passwords.admin);
      clock.set('2026-11-27T23:55:00Z');
      await call(2, passwords.admin);
      await stack.gateway.credentials.settled();
      remember();
      // a changed password, then shutdown (revokes what is left)
      sim.control.setPassword('gw', 'demo', 'Changed-Secret-Passphrase');
      await call(5, passwords.demo);
      remember();
      await stack.close();

      const text = capture.lines.map((l) => JSON.stringify(l)).join('\n');
      const secrets = [
        ...Object.values(passwords),
        ...wrong,
        'Changed-Secret-Passphrase',
        gw2Admin,
        'Gw3-Secret-Passphrase',
        ...keys,
        redisPassword,
        stateSecret,
      ];
      expect(keys.size).toBeGreaterThanOrEqual(6);
      if (mode === 'with Redis') expect(capture.matching('Redis connected').length).toBe(1);
      for (const needed of [
        'signature discovery: /doc-bearer refused the caller',
        'signature discovery is on for this database',
        'minted an API key',
        'renewed a minted API key',
        'revoked a minted API key',
        'legacy call',
        'the upstream refused a cached key; resolving it again',
        'could not trade a password for an API key',
      ]) {
        expect(capture.matching(needed).length, needed).toBeGreaterThan(0);
      }
      for (const secret of secrets) expect(text.includes(secret), `a log line holds ${secret.slice(0, 6)}…`).toBe(false);
    },
  );
});
