/**
 * `npm start` runs the compiled build (#24 item 9): its prestart builds dist/ only
 * when dist/ is missing or older than its sources, and the production dependencies hold no build
 * tool (tsx, esbuild, TypeScript), so neither does the image (`npm ci --omit=dev`).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
let dir: string;

/** A project copy with the script, one source, a dist/ stamp `age` seconds old, and a stand-in npm. */
function project(options: { stampAge?: number; sourceAge: number; typescript?: boolean; buildFails?: boolean }) {
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(join(root, 'scripts/build-if-stale.mjs'), join(dir, 'scripts/build-if-stale.mjs'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'src/main.ts'), 'export {};\n');
  writeFileSync(join(dir, 'src/main.test.ts'), 'export {};\n');
  const now = Date.now() / 1000;
  utimesSync(join(dir, 'src/main.ts'), now - options.sourceAge, now - options.sourceAge);
  utimesSync(join(dir, 'src/main.test.ts'), now, now); // tests are not compiled: never a reason to build
  utimesSync(join(dir, 'src'), now - options.sourceAge, now - options.sourceAge);
  if (options.stampAge !== undefined) {
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist/.build-stamp'), '');
    utimesSync(join(dir, 'dist/.build-stamp'), now - options.stampAge, now - options.stampAge);
  }
  if (options.typescript !== false) mkdirSync(join(dir, 'node_modules/typescript'), { recursive: true });
  writeFileSync(
    join(dir, 'bin/npm'),
    `#!/bin/bash\necho "npm $*" >> "${dir}/npm.log"\n${options.buildFails ? 'echo "src/main.ts(1,1): error TS1005" >&2; exit 2' : 'exit 0'}\n`,
  );
  chmodSync(join(dir, 'bin/npm'), 0o755);
}

function prestart() {
  const r = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}` },
  });
  let npm = '';
  try {
    npm = readFileSync(join(dir, 'npm.log'), 'utf8');
  } catch {
    // npm was not run
  }
  return { status: r.status, stderr: r.stderr, stdout: r.stdout, npm };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'build-if-stale-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("scripts/build-if-stale.mjs (npm start's prestart)", () => {
  it('does nothing and says nothing when dist/ is newer than every source', () => {
    project({ stampAge: 10, sourceAge: 60 });
    expect(prestart()).toEqual({ status: 0, stderr: '', stdout: '', npm: '' });
  });

  it('builds when a source changed since the last build, saying why', () => {
    project({ stampAge: 60, sourceAge: 10 });
    const r = prestart();
    expect(r).toMatchObject({ status: 0, npm: 'npm run --silent build\n' });
    expect(r.stderr).toContain('the sources changed since the last build; building dist/ first');
  });

  it('builds when there is no dist/ yet (a fresh clone)', () => {
    project({ sourceAge: 60 });
    const r = prestart();
    expect(r).toMatchObject({ status: 0, npm: 'npm run --silent build\n' });
    expect(r.stderr).toContain('building dist/ first');
  });

  it('stops instead of starting an out-of-date gateway when the build fails or cannot run', () => {
    project({ stampAge: 60, sourceAge: 10, buildFails: true });
    expect(prestart()).toMatchObject({ status: 1, stderr: expect.stringContaining('the build failed') });
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), 'build-if-stale-'));
    project({ sourceAge: 10, typescript: false });
    expect(prestart()).toMatchObject({ status: 1, npm: '', stderr: expect.stringContaining('TypeScript is not installed') });
  });
});

describe('package.json', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };

  it('starts the compiled build, and runs from source only for development', () => {
    // V8's memory reducer off, as the image runs it (BENCHMARKS.md, issue #41)
    expect(pkg.scripts.start).toBe('node --no-memory-reducer dist/src/main.js');
    const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');
    expect(dockerfile).toContain('ENTRYPOINT ["/usr/bin/tini", "--", "node", "--no-memory-reducer", "dist/src/main.js"]');
    expect(pkg.scripts.prestart).toBe('node scripts/build-if-stale.mjs');
    expect(pkg.scripts.dev).toBe('tsx src/main.ts');
  });

  it('ships no build tool with the production dependencies', () => {
    for (const tool of ['tsx', 'esbuild', 'typescript', 'vitest']) expect(Object.keys(pkg.dependencies)).not.toContain(tool);
    // the lockfile marks what `npm ci --omit=dev` leaves out; every build tool and esbuild binary must be among it
    const buildTools = Object.entries(lock.packages).filter(([path]) =>
      /node_modules\/(tsx|esbuild|typescript|@esbuild\/[^/]+)$/.test(path),
    );
    expect(buildTools.map(([path]) => path)).toEqual(
      expect.arrayContaining(['node_modules/tsx', 'node_modules/esbuild', 'node_modules/typescript']),
    );
    expect(buildTools.filter(([, entry]) => entry.dev !== true).map(([path]) => path)).toEqual([]);
  });
});
