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
