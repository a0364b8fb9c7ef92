/**
 * Quiet tests: a passing `npm test` prints vitest's summary and nothing else, and
 * a failing test still prints everything it wrote. Each check runs a child vitest with the project's
 * own config (vitest.config.ts: `silent: 'passed-only'`, test/support/quiet-setup.ts) on a fixture
 * that prints in every way a test can, or on a real test file that prints.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
// A child vitest transforms and runs whole test files: on a loaded machine that takes minutes.
const childTimeoutMs = 240_000;

/** Runs vitest on `files` with the project's config; its output without colours, and its exit code. */
function childVitest(files: string[] | undefined, env: Record<string, string> = {}): { status: number | null; lines: string[] } {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/quiet/fixtures/vitest.config.ts'], {
    cwd: root,
    env: {
      ...inherited,
      ...(files === undefined ? {} : { QUIET_FILES: files.join(',') }),
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      CI: '1',
      ...env,
    },
    encoding: 'utf8',
    timeout: childTimeoutMs,
  });
  // eslint-disable-next-line no-control-regex -- ANSI colour codes, in case a terminal forced them
  const text = `${run.stdout}${run.stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
  return { status: run.status, lines: text.split('\n') };
}

/** What vitest's default reporter prints for a passing run: its header, ✓ lines and summary. */
const summaryLine = /^\s*(|RUN\s+v\S+\s+\S.*|✓ .*|Test Files\s+.*|Tests\s+.*|Start at\s+.*|Duration\s+.*)$/;

describe('a passing test file prints nothing but the summary', { timeout: childTimeoutMs + 30_000 }, () => {
  it('a fixture printing through console, process.stdout/stderr, a Node warning and a pino logger', () => {
    const { status, lines } = childVitest(undefined);
    expect(status).toBe(0);
    expect(lines.filter((l) => !summaryLine.test(l))).toEqual([]);
    expect(lines.find((l) => l.includes('Tests') && l.includes('1 passed'))).toBeDefined();
  });

  it('a real test file that prints its figures (signature-coverage)', () => {
    const { status, lines } = childVitest(['test/integration/signature-coverage.test.ts']);
    expect(status).toBe(0);
    expect(lines.filter((l) => !summaryLine.test(l))).toEqual([]);
  });
});

describe('a failing test prints everything it wrote', () => {
  it("shows each of the fixture's outputs with the failure", () => {
    const { status, lines } = childVitest(undefined, { NOISY_FIXTURE_FAILS: '1' });
    expect(status).toBe(1);
    const text = lines.join('\n');
    for (const noise of [
      'console.log',
      'console.error',
      'console.warn with a stack',
      'process.stdout.write',
      'process.stderr.write',
      'a Node warning',
      'pino to stdout',
      'a giant line',
    ]) {
      expect(text, noise).toContain(`NOISE ${noise}`);
    }
    expect(text).toContain('AssertionError');
  });
});

describe('child processes', () => {
  it('no test lets a child write to the terminal (stdio: inherit escapes the setup above)', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'node_modules' && entry.name !== 'fixtures') walk(path);
        } else if (/\.(ts|mjs)$/.test(entry.name) && /stdio:\s*['"]inherit['"]/.test(readFileSync(join(root, path), 'utf8')))
          offenders.push(path);
      }
    };
    for (const dir of ['src', 'sim', 'test']) walk(dir);
    expect(offenders).toEqual([]);
  });
});
