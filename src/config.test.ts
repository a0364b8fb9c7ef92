import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, helpText, loadConfig, settings } from './config.ts';

describe('loadConfig()', () => {
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

  it.each(['1', '7', '30', '90', '180', '365'])('accepts Odoo\'s key duration %s', (days) => {
    expect(loadConfig(['--key-duration', days], {}).keyDurationDays).toBe(Number(days));
  });

  it.each(['0', '-1', '2', '14', 'forever'])('refuses key duration %s, naming the values Odoo accepts', (days) => {
    expect(() => loadConfig([], { KEY_DURATION: days })).toThrow(`--key-duration / KEY_DURATION: invalid value "${days}": one of Odoo's key durations: 1, 7, 30, 90, 180 or 365 (days)`);
  });

  it('defaults the credential settings', () => {
    expect(loadConfig([], {})).toMatchObject({
      keyDurationDays: 1,
      keyRenewMarginMs: 600_000,
      revalidateIntervalMs: 900_000,
      negativeCacheTtlMs: 60_000,
      throttleFailures: 5,
      throttleBackoffMs: 60_000,
      throttleMaxBackoffMs: 3_600_000,
    });
  });

  it('refuses a flag with no value', () => {
    expect(() => loadConfig(['--port'], {})).toThrow('--port needs a value');
  });

  it('documents every setting in --help and in the README table', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const s of Object.values(settings)) {
      expect(helpText()).toContain(`--${s.flag}`);
      expect(readme).toContain(`\`--${s.flag}\``);
      expect(readme).toContain(`\`${s.env}\``);
    }
  });
});

describe('operations settings (issue #6)', () => {
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
      loadConfig(['--admin-port', '70000', '--admin-token', 'short', '--log-format', 'xml', '--report-size', '0', '--shutdown-grace', '-1'], {});
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems).toEqual([
      '--admin-port / ADMIN_PORT: invalid value "70000": Too big: expected number to be <=65535',
      '--admin-token / ADMIN_TOKEN: invalid value "short": at least 16 characters',
      '--log-format / LOG_FORMAT: invalid value "xml": Invalid option: expected one of "auto"|"json"|"pretty"',
      '--report-size / REPORT_SIZE: invalid value "0": Too small: expected number to be >=1',
      '--shutdown-grace / SHUTDOWN_GRACE: invalid value "-1": Too small: expected number to be >=0',
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
    expect(problems(['--redis-url', 'redis://127.0.0.1:6379'])).toEqual(['--state-secret / STATE_SECRET: required with --redis-url: replicas store keys in Redis encrypted under it']);
    expect(problems(['--redis-url', 'http://127.0.0.1:6379', '--state-secret', 'short'])).toEqual([
      '--redis-url / REDIS_URL: invalid value "http://127.0.0.1:6379": a redis:// or rediss:// URL',
      '--state-secret / STATE_SECRET: invalid value "short": at least 32 characters (e.g. `openssl rand -base64 32`)',
    ]);
    const config = loadConfig([], { REDIS_URL: 'rediss://:pw@redis.internal:6380/2', STATE_SECRET: 'x'.repeat(32) });
    expect([config.redisUrl, config.redisPrefix, config.redisTimeoutMs, config.redisLockTimeoutMs, config.redisLocalTtlMs]).toEqual(['rediss://:pw@redis.internal:6380/2', 'legacy-rpc-gateway:', 500, 20_000, 5000]);
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

describe('shadow mode settings (issue #23)', () => {
  it('is off by default, with a bound of 4 and the allowlist of the issue', () => {
    const config = loadConfig([], {});
    expect(config.shadowSample).toBe(0);
    expect(config.shadowMaxInFlight).toBe(4);
    expect(config.shadowMethods).toContain('search_read');
    expect(config.shadowMethods).not.toContain('write');
  });

  it('reads the flags and their variables', () => {
    const config = loadConfig(['--shadow-sample', '12.5', '--shadow-methods=+name_get_custom,-read_group'], { SHADOW_MAX_IN_FLIGHT: '16' });
    expect(config.shadowSample).toBe(12.5);
    expect(config.shadowMaxInFlight).toBe(16);
    expect(config.shadowMethods).toContain('name_get_custom');
    expect(config.shadowMethods).not.toContain('read_group');
  });

  it.each([
    [['--shadow-sample', '101'], '--shadow-sample / SHADOW_SAMPLE: invalid value "101": a percentage from 0 to 100'],
    [['--shadow-sample', 'all'], '--shadow-sample / SHADOW_SAMPLE: invalid value "all"'],
    [['--shadow-max-in-flight', '0'], '--shadow-max-in-flight / SHADOW_MAX_IN_FLIGHT: invalid value "0"'],
    [['--shadow-methods', '+write'], '--shadow-methods / SHADOW_METHODS: invalid value "+write": write is never shadowed: it can change state'],
    [['--shadow-methods', 'read'], '--shadow-methods / SHADOW_METHODS: invalid value "read": "read": name each method with + (add) or - (remove)'],
  ])('refuses %j with a clear message', (argv, message) => {
    expect(() => loadConfig(argv, {})).toThrow(message);
  });
});
