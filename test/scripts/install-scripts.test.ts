/**
 * `npm ci` prints no `npm warn install-scripts` (#43 item 7): every package of the lockfile with an
 * install script is named in `package.json`'s `allowScripts` (npm 11.16 and later warn about each one
 * that is not). The one there is, esbuild's, is declined, which is harmless while its platform
 * binary comes as an optional dependency of its own (`@esbuild/<platform>`) for the machines the
 * project runs on: its script only checks that binary (docs/testing.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { allowScripts?: Record<string, boolean | string> };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean; optionalDependencies?: Record<string, string>; version?: string }>;
};

/** The package name of a lockfile path (`node_modules/a/node_modules/@b/c` → `@b/c`). */
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('install scripts', () => {
  const withScripts = Object.entries(lock.packages).filter(([path, p]) => path !== '' && p.hasInstallScript === true);

  it("are each named in package.json's allowScripts, so npm ci warns about none", () => {
    for (const [path] of withScripts) expect(Object.keys(pkg.allowScripts ?? {}), path).toContain(nameOf(path));
  });

  it("declined, esbuild's leaves a binary for Linux and macOS on x64 and arm64: its optional platform packages", () => {
    expect(pkg.allowScripts?.esbuild).toBe(false);
    const esbuild = lock.packages['node_modules/esbuild'];
    for (const platform of ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64']) {
      expect(Object.keys(esbuild?.optionalDependencies ?? {})).toContain(`@esbuild/${platform}`);
      expect(lock.packages[`node_modules/@esbuild/${platform}`]?.version, platform).toBe(esbuild?.version);
    }
  });
});
