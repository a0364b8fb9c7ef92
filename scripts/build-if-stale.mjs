// `npm start`'s prestart: `npm start` runs the compiled gateway (`node dist/src/main.js`, no tsx),
// so it first builds dist/ when dist/ is missing or older than its sources — what someone who just
// cloned or edited the project expects `npm start` to run. Silent, and a few milliseconds, when dist/
// is current. Plain JavaScript: it must run before anything is compiled.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Written by `npm run build` when it succeeds (package.json). */
const stamp = join(root, 'dist', '.build-stamp');
/** What dist/ is made from: the inputs of tsconfig.build.json (the gateway) and tsconfig.sim.json (--demo's simulator), and the copied seed. */
const sources = ['src', 'sim', 'fixtures/odoo-data', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.sim.json'];

/** The newest modification time under `path` (test files excluded: they are not compiled). */
function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return path.endsWith('.test.ts') ? 0 : info.mtimeMs;
  let latest = info.mtimeMs; // a deleted file changes its folder
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changed = Math.max(
  ...sources
    .map((s) => join(root, s))
    .filter(existsSync)
    .map(newest),
);
if (built >= changed) process.exit(0);

if (!existsSync(join(root, 'node_modules', 'typescript'))) {
  console.error(
    'npm start: dist/ is missing or older than src/, and TypeScript is not installed to build it (run `npm ci`, with the dev dependencies).',
  );
  process.exit(1);
}
console.error(
  built === 0
    ? 'npm start: building dist/ first (npm run build)'
    : 'npm start: the sources changed since the last build; building dist/ first (npm run build)',
);
try {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
} catch {
  console.error('npm start: the build failed (above); not starting an out-of-date gateway.');
  process.exit(1);
}
