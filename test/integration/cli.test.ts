/**
 * The command line as an operator meets it: `--help` lists every setting with its variable and
 * default; bad values stop the start with one line each and exit code 2.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { settings } from '../../src/config.ts';

const root = new URL('../..', import.meta.url).pathname;
// Each run compiles the whole gateway with tsx: on a loaded machine that takes its time.
const childTimeoutMs = 150_000;
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: childTimeoutMs,
  });

describe('legacy-rpc-gateway (CLI)', { timeout: childTimeoutMs + 30_000 }, () => {
  it('prints every setting with its variable and default for --help', () => {
    const out = run(['--help']);
    expect(out.status).toBe(0);
    for (const s of Object.values(settings))
      expect(out.stdout).toMatch(new RegExp(`^  --${s.flag}( <value>)?  \\(${s.env}, default [^)]*\\)$`, 'm'));
  });

  it('names each bad value on its own line and exits 2', () => {
    const out = run(['--port', 'x', '--admin-port', '99999', '--upstream-ca', '/nonexistent.pem'], { LOG_FORMAT: 'xml' });
    expect(out.status).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(
      [
        'legacy-rpc-gateway: invalid configuration',
        '  - --upstream-ca / UPSTREAM_CA: invalid value "/nonexistent.pem": cannot read the file (ENOENT)',
        '  - --port / PORT: invalid value "x": a port number from 0 to 65535 (0: any free port), e.g. 8070',
        '  - --admin-port / ADMIN_PORT: invalid value "99999": a port number from 0 to 65535 (0: any free port), e.g. 8071',
        '  - --log-format / LOG_FORMAT: invalid value "xml": one of "auto", "json" or "pretty"',
        '',
      ].join('\n'),
    );
  });
});
