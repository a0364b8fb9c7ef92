import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'sim/**/*.test.ts', 'test/**/*.test.ts'],
    // run only by test/quiet/quiet.test.ts, in a child vitest
    exclude: [...configDefaults.exclude, 'test/quiet/fixtures/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A passing test prints nothing: its console output (and, through the setup file, what it writes
    // to process.stdout/stderr) is shown only when it fails. test/quiet/quiet.test.ts checks it.
    silent: 'passed-only',
    setupFiles: ['test/support/quiet-setup.ts'],
    // the replica tests' Redis, owned by the run: nothing is left running after it
    globalSetup: ['test/support/redis-global-setup.ts'],
  },
});
