import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, helpText, loadConfig, secretFileForms, settings, secretsOnCommandLine } from './config.ts';
import { shadowMethodsOf } from './cutover/index.ts';
import { createLogger } from './log.ts';
import { createGateway } from './server/gateway.ts';
import { lightReserveOf } from './upstream/upstream-shares.ts';

describe('loadConfig()', () => {
  it('picks the series the demo simulator plays: 19.0 unless told saas-19.1 or 20.0', () => {
    expect(loadConfig(['--demo'], {}).demoSeries).toBe('19.0');
    expect(loadConfig(['--demo'], {}).demoPort).toBe(8079);
    expect(loadConfig(['--demo', '--demo-port', '0'], {}).demoPort).toBe(0);
    expect(loadConfig(['--demo', '--demo-series', 'saas-19.1'], {}).demoSeries).toBe('saas-19.1');
    expect(loadConfig([], { DEMO_SERIES: 'saas-19.1' }).demoSeries).toBe('saas-19.1');
    expect(loadConfig(['--demo', '--demo-series', '20.0'], {}).demoSeries).toBe('20.0');
    expect(() => loadConfig(['--demo-series', '21.0'], {})).toThrow(ConfigError);
  });

  it('defaults every setting', () => {
    const c = loadConfig([], {});
    expect(c.upstream).toBe('http://127.0.0.1:8069');
    expect(c.port).toBe(8070);
    expect(c.host).toBe('127.0.0.1');
    expect(c.dbHeaders).toEqual(['X-Odoo-Database', 'X-Service-Database']);
    expect(c.marshalNone).toBe('fault');
    expect(c.demo).toBe(false);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reads flags in both forms, and flags win over the environment', () => {
    const c = loadConfig(['--port', '9000', '--host=0.0.0.0', '--demo'], { PORT: '1', UPSTREAM_URL: 'https://erp.example.com/odoo' });
    expect(c.port).toBe(9000);
    expect(c.host).toBe('0.0.0.0');
    expect(c.demo).toBe(true);
    expect(c.upstream).toBe('https://erp.example.com/odoo');
  });

  it('reads booleans from the environment', () => {
    expect(loadConfig([], { STRICT_BASE64: 'true' }).strictBase64).toBe(true);
    expect(loadConfig([], { STRICT_BASE64: '0' }).strictBase64).toBe(false);
  });

  it('lists every bad value and unknown flag at once', () => {
    let error: unknown;
    try {
      loadConfig(['--port', 'x', '--nope', '1', '--marshal-none', 'maybe'], { UPSTREAM_URL: 'ftp://x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.some((p) => p.startsWith('unknown flag --nope'))).toBe(true);
    expect(problems.some((p) => p.startsWith('--port / PORT: invalid value "x"'))).toBe(true);
    expect(problems.some((p) => p.startsWith('--upstream / UPSTREAM_URL: invalid value "ftp://x"'))).toBe(true);
    expect(problems.some((p) => p.startsWith('--marshal-none / MARSHAL_NONE: invalid value "maybe"'))).toBe(true);
  });

  it.each(['1', '7', '30', '90', '180', '365'])("accepts Odoo's key duration %s", (days) => {
    expect(loadConfig(['--key-duration', days], {}).keyDurationDays).toBe(Number(days));
  });

  it.each(['0', '-1', '2', '14', 'forever'])('refuses key duration %s, naming the values Odoo accepts', (days) => {
    expect(() => loadConfig([], { KEY_DURATION: days })).toThrow(
      `--key-duration / KEY_DURATION: invalid value "${days}": one of Odoo's key durations: 1, 7, 30, 90, 180 or 365 (days)`,
    );
  });

  it('takes a key tag of letters, digits, ".", "_" or "-" (none by default), and refuses what a key name could not carry', () => {
    expect(loadConfig([], {}).keyTag).toBe('');
    expect(loadConfig(['--key-tag', 'eu-prod_2.b'], {}).keyTag).toBe('eu-prod_2.b');
    for (const tag of ['eu prod', '(x)', 'a%b', 'x'.repeat(41)]) {
      expect(() => loadConfig([], { KEY_TAG: tag })).toThrow(
        `--key-tag / KEY_TAG: invalid value "${tag}": letters, digits, ".", "_" or "-", at most 40, e.g. eu-prod`,
      );
    }
  });

  it('holds the 15-minute cap on the 2FA-policy window for every combination of --login-recheck-interval and --revalidate-interval, at start', () => {
    expect(() => loadConfig(['--revalidate-interval', '300000'])).not.toThrow(); // 600000 + 300000
    expect(() => loadConfig(['--revalidate-interval', '300001'])).toThrow(
      /--login-recheck-interval \/ LOGIN_RECHECK_INTERVAL \+ --revalidate-interval \/ REVALIDATE_INTERVAL: 600000 \+ 300001 = 900001 ms, more than 900000 \(15 min\)/,
    );
    expect(() => loadConfig(['--revalidate-interval', '240000', '--login-recheck-interval', '660000'])).not.toThrow();
    expect(() => loadConfig(['--revalidate-interval', '240000', '--login-recheck-interval', '700000'])).toThrow(/lower one of them/);
    expect(() => loadConfig(['--revalidate-interval', '3600000', '--login-recheck-interval', '1000'])).toThrow(/--revalidate-interval/);
    expect(() => loadConfig([], { REVALIDATE_INTERVAL: '899000', LOGIN_RECHECK_INTERVAL: '1000' })).not.toThrow();
  });

  it('defaults the credential settings', () => {
    expect(loadConfig([], {})).toMatchObject({
      keyDurationDays: 1,
      keyRenewMarginMs: 600_000,
      revalidateIntervalMs: 5000,
      negativeCacheTtlMs: 60_000,
      throttleFailures: 5,
      throttleBackoffMs: 60_000,
      throttleMaxBackoffMs: 3_600_000,
    });
  });

  it("keeps the legacy pool well below Odoo's default db_maxconn (64), so a burst cannot fill Odoo's own pool", () => {
    const odooDefaultDbMaxconn = 64;
    const c = loadConfig([], {});
    expect(c.upstreamConnections).toBe(24);
    const readinessConnections = 2;
    const total =
      c.upstreamConnections + c.slowConnections + c.keyConnections + c.dbConnections + c.passthroughConnections + readinessConnections;
    // every connection one replica may open at once, with room left for Odoo's cron threads
    expect(total).toBeLessThanOrEqual(odooDefaultDbMaxconn - 8);
    const readme = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
    expect(readme).toContain('| `--upstream-connections` | `UPSTREAM_CONNECTIONS` | `24` |');
  });

  it('keeps a quarter of --upstream-connections, at least 2, from calls known slow unless --light-reserve says otherwise', () => {
    expect(lightReserveOf(loadConfig([], {}))).toBe(6);
    expect(lightReserveOf(loadConfig(['--upstream-connections', '4'], {}))).toBe(2);
    expect(lightReserveOf(loadConfig(['--upstream-connections', '10'], {}))).toBe(3);
    expect(lightReserveOf(loadConfig(['--upstream-connections', '4', '--light-reserve', '4'], {}))).toBe(4);
    expect(lightReserveOf(loadConfig([], { LIGHT_RESERVE: '0' }))).toBe(0);
  });

  it('refuses a flag with no value', () => {
    expect(() => loadConfig(['--port'], {})).toThrow('--port needs a value');
  });

  it('documents every setting in --help and in the README table', () => {
    const readme = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
    for (const s of Object.values(settings)) {
      expect(helpText()).toContain(`--${s.flag}`);
      expect(readme).toContain(`\`--${s.flag}\``);
      expect(readme).toContain(`\`${s.env}\``);
    }
  });
});

describe("configuration errors in the gateway's own words", () => {
  const problemsOf = (argv: string[], env: NodeJS.ProcessEnv = {}): string[] => {
    try {
      loadConfig(argv, env);
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };
  /** The configuration library's own wording, which must never reach an operator. */
  const libraryWords =
    /Invalid input|Invalid option|Invalid (string|URL|url)|Too (big|small)|expected (number|string|boolean)|received|[<>]=|\|/;

  it('explains a bad port with the accepted range and an example, keeping flag, variable and value', () => {
    for (const value of ['x', '70000', '-1', '80.5']) {
      expect(problemsOf(['--port', value])).toEqual([
        `--port / PORT: invalid value "${value}": a port number from 0 to 65535 (0: any free port), e.g. 8070`,
      ]);
    }
    expect(problemsOf([], { ADMIN_PORT: 'http' })).toEqual([
      '--admin-port / ADMIN_PORT: invalid value "http": a port number from 0 to 65535 (0: any free port), e.g. 8071',
    ]);
  });

  it('derives the explanation of numbers, durations and choices from their schema', () => {
    expect(problemsOf(['--upstream-connections', '0', '--max-body', '10', '--call-timeout', 'soon', '--marshal-none', 'null'])).toEqual([
      '--call-timeout / CALL_TIMEOUT: invalid value "soon": a whole number of milliseconds from 1 up, e.g. 120000',
      '--upstream-connections / UPSTREAM_CONNECTIONS: invalid value "0": a whole number from 1 to 10000, e.g. 24',
      '--max-body / MAX_BODY: invalid value "10": a whole number of bytes from 1024 up, e.g. 134217728',
      '--marshal-none / MARSHAL_NONE: invalid value "null": one of "fault", "nil" or "false"',
    ]);
    expect(problemsOf([], { DEMO: 'maybe' })).toEqual([
      '--demo / DEMO: invalid value "maybe": true or false (also 1/0, yes/no), e.g. true',
    ]);
  });

  it('says what every setting accepts, with an example or the list of choices, in its own words', () => {
    let explained = 0;
    for (const s of Object.values(settings)) {
      // the first of these values the setting refuses
      for (const bad of ['not valid', '', '-5', '1.5', '99999999999999', 'ftp://x']) {
        // (an open admin port accepted, so a bare --admin-host is not refused for its missing token)
        const problems = problemsOf([`--${s.flag}=${bad}`], { ADMIN_OPEN_WITHOUT_TOKEN: 'true' });
        if (problems.length === 0) continue;
        expect(problems).toHaveLength(1);
        const head = problems[0]!.slice(0, problems[0]!.indexOf(': invalid value'));
        // a secret setting does not quote the value back
        const rest = problems[0]!.slice(head.length + ': invalid value'.length);
        const why = rest.startsWith(` ${JSON.stringify(bad)}: `) ? rest.slice(JSON.stringify(bad).length + 3) : rest.replace(/^: /, '');
        expect(head).toBe(`--${s.flag} / ${s.env}`);
        expect(why).not.toMatch(libraryWords);
        // a file the gateway cannot read says so; everything else says what it accepts
        if (
          s.flag !== 'upstream-ca' &&
          s.flag !== 'routes-file' &&
          !Object.keys(secretFileForms).some((k) => settings[k as keyof typeof secretFileForms].flag === s.flag)
        )
          expect(why).toMatch(/e\.g\. |^one of /);
        explained++;
        break;
      }
    }
    // every setting but the free-form list of trusted proxies refuses one of the values above
    expect(explained).toBe(Object.keys(settings).length - 1);
  });

  it("reads --flag value, --flag=value and bare booleans, and tells stray arguments apart from an unknown flag's value", () => {
    const config = loadConfig(['--port', '8075', '--admin-port=8076', '--strict-base64', '--marshal-none=nil'], {});
    expect([config.port, config.adminPort, config.strictBase64, config.marshalNone]).toEqual([8075, 8076, true, 'nil']);
    expect(problemsOf(['--nope', 'its-value', 'stray', '-v', '--port'], {})).toEqual([
      'unknown flag --nope (see --help)',
      'unexpected argument "stray"',
      'unexpected argument "-v"',
      '--port needs a value',
    ]);
  });

  it('still lists every problem at once', () => {
    expect(problemsOf(['--port', 'x', '--admin-port', 'y', '--nope'], { KEY_CACHE_SIZE: '0', LOG_LEVEL: 'loud' })).toEqual([
      'unknown flag --nope (see --help)',
      '--port / PORT: invalid value "x": a port number from 0 to 65535 (0: any free port), e.g. 8070',
      '--admin-port / ADMIN_PORT: invalid value "y": a port number from 0 to 65535 (0: any free port), e.g. 8071',
      '--key-cache-size / KEY_CACHE_SIZE: invalid value "0": a whole number from 1 up, e.g. 10000',
      '--log-level / LOG_LEVEL: invalid value "loud": one of "fatal", "error", "warn", "info", "debug", "trace" or "silent"',
    ]);
  });
});

describe('operations settings', () => {
  const fixture = (name: string) => new URL(`../test/fixtures-tls/${name}`, import.meta.url).pathname;

  it('defaults the admin port, report, grace period and log format', () => {
    expect(loadConfig([], {})).toMatchObject({
      adminHost: '127.0.0.1',
      adminPort: 8071,
      adminToken: undefined,
      upstreamCa: undefined,
      reportFile: undefined,
      reportSize: 1000,
      shutdownGraceMs: 25_000,
      logFormat: 'auto',
    });
  });

  it('accepts a CA file holding a PEM certificate', () => {
    expect(loadConfig(['--upstream-ca', fixture('ca.pem')], {}).upstreamCa).toBe(fixture('ca.pem'));
  });

  it.each([
    ['/nonexistent/ca.pem', 'cannot read the file (ENOENT)'],
    [fixture('README.md'), 'the file holds no PEM certificate'],
  ])('refuses --upstream-ca %s', (path, why) => {
    expect(() => loadConfig([], { UPSTREAM_CA: path })).toThrow(`--upstream-ca / UPSTREAM_CA: invalid value "${path}": ${why}`);
  });

  it('names every bad operations value at once', () => {
    let error: unknown;
    try {
      loadConfig(
        ['--admin-port', '70000', '--admin-token', 'short', '--log-format', 'xml', '--report-size', '0', '--shutdown-grace', '-1'],
        {},
      );
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems).toEqual([
      '--admin-port / ADMIN_PORT: invalid value "70000": a port number from 0 to 65535 (0: any free port), e.g. 8071',
      '--admin-token / ADMIN_TOKEN: invalid value: 16 or more printable ASCII characters without spaces, e.g. the output of `openssl rand -hex 24`',
      '--log-format / LOG_FORMAT: invalid value "xml": one of "auto", "json" or "pretty"',
      '--report-size / REPORT_SIZE: invalid value "0": a whole number from 1 to 1000000, e.g. 1000',
      '--shutdown-grace / SHUTDOWN_GRACE: invalid value "-1": a whole number of milliseconds from 0 up, e.g. 25000',
    ]);
  });

  it('needs --state-secret with --redis-url, and refuses a short secret or another URL scheme', () => {
    const problems = (argv: string[]) => {
      try {
        loadConfig(argv, {});
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problems(['--redis-url', 'redis://127.0.0.1:6379'])).toEqual([
      '--state-secret / STATE_SECRET: required with --redis-url: replicas store keys in Redis encrypted under it',
    ]);
    expect(problems(['--redis-url', 'http://127.0.0.1:6379', '--state-secret', 'short'])).toEqual([
      '--redis-url / REDIS_URL: invalid value "http://127.0.0.1:6379": a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379 or rediss://:password@redis.internal:6380/0',
      '--state-secret / STATE_SECRET: invalid value: 32 or more characters, e.g. the output of `openssl rand -base64 32`',
    ]);
    // secrets are never quoted back: a short state secret, an admin token, a Redis URL's password
    const told = problems([
      '--redis-url',
      'http://:hunter2-redis@127.0.0.1:6379',
      '--state-secret',
      'short-secret-9',
      '--admin-token',
      'tok en',
    ]).join('\n');
    expect(told).toContain('--redis-url / REDIS_URL: invalid value "http://***@127.0.0.1:6379"');
    for (const secret of ['hunter2-redis', 'short-secret-9', 'tok en']) expect(told).not.toContain(secret);
    const config = loadConfig([], { REDIS_URL: 'rediss://:pw@redis.internal:6380/2', STATE_SECRET: 'x'.repeat(32) });
    expect([config.redisUrl, config.redisPrefix, config.redisTimeoutMs, config.redisLockTimeoutMs, config.redisLocalTtlMs]).toEqual([
      'rediss://:pw@redis.internal:6380/2',
      'legacy-rpc-gateway:',
      500,
      20_000,
      5000,
    ]);
    expect(loadConfig([], {}).redisUrl).toBeUndefined();
  });

  it('prints each default in --help', () => {
    const help = helpText();
    expect(help).toContain('--admin-port <value>  (ADMIN_PORT, default 8071)');
    expect(help).toContain('--upstream-ca <value>  (UPSTREAM_CA, default none)');
    expect(help).toContain('--db-headers <value>  (DB_HEADERS, default X-Odoo-Database,X-Service-Database)');
    expect(help).toContain('--key-duration <value>  (KEY_DURATION, default 1)');
    expect(help).toContain('--demo  (DEMO, default false)');
  });
});

describe('service keys per database', () => {
  const k1 = '0123456789abcdef0123456789abcdef01234567';
  const k2 = 'fedcba9876543210fedcba9876543210fedcba98';
  const problemsOf = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    try {
      loadConfig(argv, env);
      return [];
    } catch (err) {
      return (err as ConfigError).problems;
    }
  };

  it('has no service key by default', () => {
    expect(loadConfig([], {}).serviceKey).toBeUndefined();
  });

  it('keeps the single-key form with --service-db, from the flag or the variable', () => {
    const c = loadConfig(['--service-key', k1, '--service-db', 'gw'], {});
    expect(c.serviceKey?.keyFor('gw')).toBe(k1);
    expect(c.serviceKey?.keyFor('gw2')).toBe(k1);
    expect(c.serviceDb).toBe('gw');
    expect(loadConfig([], { SERVICE_KEY: k1 }).serviceKey?.keyFor('x')).toBe(k1);
  });

  it('reads db=key entries from the flag or SERVICE_KEY', () => {
    for (const c of [loadConfig([`--service-key=gw=${k1},gw2=${k2}`], {}), loadConfig([], { SERVICE_KEY: `gw=${k1}, gw2=${k2}` })]) {
      expect([c.serviceKey?.keyFor('gw'), c.serviceKey?.keyFor('gw2'), c.serviceKey?.keyFor('gw3')]).toEqual([k1, k2, undefined]);
    }
  });

  it('refuses bad entries one per line, without quoting the value (it holds keys)', () => {
    const problems = problemsOf(['--service-key', `gw=${k1},gw2=nope,${k2},gw=${k2}`]);
    expect(problems).toEqual([
      '--service-key / SERVICE_KEY: invalid value: entry 2 (database "gw2"): not an Odoo API key (40 lowercase hex characters, e.g. one made in Odoo under Preferences → Account Security → New API Key); entry 4: database "gw" is given a key twice',
    ]);
    expect(problems.join('\n')).not.toContain(k1);
    expect(problems.join('\n')).not.toContain(k2);
  });

  it('refuses a --service-db the keys do not cover, and says what to add', () => {
    expect(problemsOf(['--service-key', `gw=${k1}`, '--service-db', 'gw2'])).toEqual([
      '--service-db / SERVICE_DB: --service-key has no key for database "gw2" (add gw2=<key>)',
    ]);
    expect(problemsOf(['--service-key', `gw=${k1},${k2}`, '--service-db', 'gw2'])).toEqual([]);
    expect(problemsOf(['--service-key', `gw=${k1}`, '--service-db', 'gw'])).toEqual([]);
  });

  it('documents the db=key form in --help', () => {
    expect(helpText()).toContain('`db=key` entries separated by commas');
  });
});

describe('shadow mode settings', () => {
  it('is off by default, with a bound of 4 and the allowlist of the issue', () => {
    const config = loadConfig([], {});
    expect(config.shadowSample).toBe(0);
    expect(config.shadowMaxInFlight).toBe(4);
    expect(shadowMethodsOf(config)).toContain('search_read');
    expect(shadowMethodsOf(config)).not.toContain('write');
  });

  it('reads the flags and their variables', () => {
    const config = loadConfig(['--shadow-sample', '12.5', '--shadow-methods=+name_get_custom,-read_group'], { SHADOW_MAX_IN_FLIGHT: '16' });
    expect(config.shadowSample).toBe(12.5);
    expect(config.shadowMaxInFlight).toBe(16);
    expect(shadowMethodsOf(config)).toContain('name_get_custom');
    expect(shadowMethodsOf(config)).not.toContain('read_group');
  });

  it.each([
    [['--shadow-sample', '101'], '--shadow-sample / SHADOW_SAMPLE: invalid value "101": a percentage from 0 to 100'],
    [['--shadow-sample', 'all'], '--shadow-sample / SHADOW_SAMPLE: invalid value "all"'],
    [['--shadow-max-in-flight', '0'], '--shadow-max-in-flight / SHADOW_MAX_IN_FLIGHT: invalid value "0"'],
    [
      ['--shadow-methods', '+write'],
      '--shadow-methods / SHADOW_METHODS: invalid value "+write": write is never shadowed: it can change state',
    ],
    [
      ['--shadow-methods', 'read'],
      '--shadow-methods / SHADOW_METHODS: invalid value "read": "read": name each method with + (add) or - (remove)',
    ],
  ])('refuses %j with a clear message', (argv, message) => {
    // the allowlist's rules apply where the gateway is built: it does not start either
    expect(() => shadowMethodsOf(loadConfig(argv, {}))).toThrow(message);
    expect(() => createGateway(loadConfig(argv, {}), createLogger('silent'))).toThrow(message);
  });

  it('applies the changes in the order written', () => {
    expect(shadowMethodsOf(loadConfig(['--shadow-methods', '-read,+read'], {}))).toContain('read');
    expect(shadowMethodsOf(loadConfig(['--shadow-methods', '+name_get_custom,-name_get_custom'], {}))).not.toContain('name_get_custom');
  });
});

describe('the admin port beyond loopback', () => {
  const problems = (argv: string[], env: NodeJS.ProcessEnv = {}): string[] => {
    try {
      loadConfig(argv, env);
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };
  const token = 'a-long-enough-admin-token-0123456789';
  const tokenFile = (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-token-'));
    const path = join(dir, 'admin_token');
    writeFileSync(path, text);
    return path;
  };

  it.each([['0.0.0.0'], ['::'], ['10.0.0.5'], ['gateway.internal']])('refuses to start on %s without a token', (host) => {
    const out = problems([], { ADMIN_HOST: host });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^--admin-token \/ ADMIN_TOKEN: required when the admin port listens beyond loopback \(--admin-host /);
    expect(out[0]).toContain('--admin-open-without-token');
  });

  it.each([['127.0.0.1'], ['127.0.0.2'], ['::1'], ['[::1]'], ['localhost']])('starts on loopback %s without a token', (host) => {
    expect(problems(['--admin-host', host])).toEqual([]);
  });

  it('starts beyond loopback with a token, or when the operator accepts the risk by name', () => {
    expect(loadConfig([], { ADMIN_HOST: '0.0.0.0', ADMIN_TOKEN: token }).adminToken).toBe(token);
    expect(loadConfig(['--admin-open-without-token'], { ADMIN_HOST: '0.0.0.0' })).toMatchObject({
      adminToken: undefined,
      adminOpenWithoutToken: true,
    });
  });

  it('reads the token from a secret file, one trailing newline ignored', () => {
    expect(loadConfig([], { ADMIN_HOST: '0.0.0.0', ADMIN_TOKEN_FILE: tokenFile(`${token}\n`) }).adminToken).toBe(token);
  });

  it('refuses a missing or bad secret file without quoting its content, and a token given twice', () => {
    expect(problems([], { ADMIN_TOKEN_FILE: '/nonexistent/admin_token' })).toEqual([
      '--admin-token-file / ADMIN_TOKEN_FILE: invalid value "/nonexistent/admin_token": cannot read the file (ENOENT)',
    ]);
    const short = tokenFile('tooshort\n');
    const out = problems([], { ADMIN_HOST: '0.0.0.0', ADMIN_TOKEN_FILE: short });
    expect(out).toEqual([
      `--admin-token-file / ADMIN_TOKEN_FILE: the file ${JSON.stringify(short)} does not hold the admin token: ${settings.adminToken.accepts}`,
    ]);
    expect(out.join('')).not.toContain('tooshort');
    expect(problems([], { ADMIN_TOKEN: token, ADMIN_TOKEN_FILE: tokenFile(token) })).toEqual([
      '--admin-token-file / ADMIN_TOKEN_FILE: give the admin token once, as --admin-token or as --admin-token-file',
    ]);
  });
});

describe('every secret setting has a _FILE form', () => {
  const problems = (env: NodeJS.ProcessEnv): string[] => {
    try {
      loadConfig([], env);
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };
  const secretFile = (text: string, mode = 0o640) => {
    const path = join(mkdtempSync(join(tmpdir(), 'gateway-secret-')), 'secret');
    writeFileSync(path, text, { mode });
    return path;
  };
  const key = 'ab'.repeat(20);
  const stateSecret = 'a-state-secret-of-at-least-32-characters';

  it('names a file form for each secret setting, and no secret setting lacks one', () => {
    const secretKeys = Object.entries(settings)
      .filter(([, s]) => 'secret' in s && s.secret !== undefined)
      .map(([k]) => k)
      .sort();
    expect(
      Object.values(secretFileForms)
        .map((f) => f.key)
        .sort(),
    ).toEqual(secretKeys);
    for (const [fileKey, { key: target }] of Object.entries(secretFileForms)) {
      expect(settings[fileKey as keyof typeof secretFileForms].env).toBe(`${settings[target].env}_FILE`);
      expect(settings[fileKey as keyof typeof secretFileForms].flag).toBe(`${settings[target].flag}-file`);
    }
  });

  it('reads STATE_SECRET_FILE, SERVICE_KEY_FILE and REDIS_URL_FILE as their settings, one trailing newline ignored', () => {
    const config = loadConfig([], {
      STATE_SECRET_FILE: secretFile(`${stateSecret}\n`),
      SERVICE_KEY_FILE: secretFile(`gw=${key}\n`),
      REDIS_URL_FILE: secretFile('redis://:s3cret@redis:6379/0\n'),
      SERVICE_DB: 'gw',
    });
    expect(config.stateSecret).toBe(stateSecret);
    expect(config.serviceKey?.keyFor('gw')).toBe(key);
    expect(config.redisUrl).toBe('redis://:s3cret@redis:6379/0');
  });

  it('checks a file-borne value as the setting itself, without quoting it, and refuses a secret given twice', () => {
    const short = secretFile('too-short-secret');
    expect(problems({ STATE_SECRET_FILE: short })).toEqual([
      `--state-secret-file / STATE_SECRET_FILE: the file ${JSON.stringify(short)} does not hold the state secret: ${settings.stateSecret.accepts}`,
    ]);
    const badUrl = secretFile('http://:s3cret@redis');
    const out = problems({ REDIS_URL_FILE: badUrl, STATE_SECRET: stateSecret });
    expect(out).toEqual([
      `--redis-url-file / REDIS_URL_FILE: the file ${JSON.stringify(badUrl)} does not hold the Redis URL: ${settings.redisUrl.accepts}`,
    ]);
    expect(out.join('')).not.toContain('s3cret');
    // --redis-url from a file still needs the state secret
    expect(problems({ REDIS_URL_FILE: secretFile('redis://redis:6379') })).toEqual([
      '--state-secret / STATE_SECRET: required with --redis-url: replicas store keys in Redis encrypted under it',
    ]);
    expect(problems({ STATE_SECRET: stateSecret, STATE_SECRET_FILE: secretFile(stateSecret) })).toEqual([
      '--state-secret-file / STATE_SECRET_FILE: give the state secret once, as --state-secret or as --state-secret-file',
    ]);
    expect(problems({ SERVICE_KEY_FILE: secretFile(`gw=${key}`), SERVICE_DB: 'other' })).toEqual([
      '--service-db / SERVICE_DB: --service-key has no key for database "other" (add other=<key>)',
    ]);
  });

  it.runIf(typeof process.getuid === 'function' && process.getuid() !== 0)(
    'says who must be able to read a secret file it may not read',
    () => {
      const locked = secretFile(stateSecret, 0o000);
      const [problem] = problems({ STATE_SECRET_FILE: locked });
      expect(problem).toContain(`cannot read the file (EACCES): the gateway runs as uid ${process.getuid!()}, gid ${process.getgid!()}`);
      expect(problem).toContain('chmod 640');
    },
  );
});

describe('secretsOnCommandLine()', () => {
  const key = 'a'.repeat(40);
  it('names the secret settings given as flags, and nothing given otherwise', () => {
    const argv = ['--upstream', 'http://odoo:8069', '--service-key', `gw=${key}`, '--state-secret=s3cret-s3cret-s3cret'];
    expect(secretsOnCommandLine(argv)).toEqual(['--service-key', '--state-secret']);
    expect(secretsOnCommandLine(['--upstream', 'http://odoo:8069', '--service-key-file', '/run/secrets/service_key'])).toEqual([]);
    // a Redis URL is secret only where it holds a password
    expect(secretsOnCommandLine(['--redis-url', 'redis://127.0.0.1:6379'])).toEqual([]);
    expect(secretsOnCommandLine(['--redis-url', 'redis://:pw@127.0.0.1:6379'])).toEqual(['--redis-url']);
    expect(secretsOnCommandLine(['--admin-token', 'x'.repeat(32)])).toEqual(['--admin-token']);
  });
});
