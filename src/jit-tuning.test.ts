import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * Runs a small function 400 times in a child and answers whether V8 optimized it: with V8's default
 * budget 400 calls of it are far too few, with the gateway's they are enough.
 */
function optimizedAfter400Calls(tuned: boolean, extraFlags: string[] = []): boolean {
  const tuning = new URL('./jit-tuning.ts', import.meta.url).pathname;
  const script = `
    import { tuneJit } from ${JSON.stringify(tuning)};
    if (${tuned}) tuneJit(process.execArgv);
    const statusOf = new Function('f', 'return %GetOptimizationStatus(f)');
    function work(o) { let s = 0; for (const k in o) s += o[k]; return s; }
    for (let i = 0; i < 400; i++) work({ a: i, b: 2 });
    console.log(statusOf(work));`;
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--allow-natives-syntax', '--no-concurrent-recompilation', ...extraFlags, '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  const status = Number(run.stdout.trim());
  return (status & 16) !== 0; // V8's OptimizationStatus::kOptimized
}

describe('tuneJit()', () => {
  it("lets V8 optimize a call's functions within a few hundred calls", () => {
    expect(optimizedAfter400Calls(false)).toBe(false);
    expect(optimizedAfter400Calls(true)).toBe(true);
  });

  it('leaves a budget given on the command line as it is', () => {
    expect(optimizedAfter400Calls(true, ['--interrupt-budget=67584'])).toBe(false);
  });
});
