/**
 * V8's tier-up, set for a gateway's traffic. V8 optimizes a function once it has run about 66 KB of
 * its bytecode (`--interrupt-budget`); a call runs each of the gateway's small functions about once,
 * so at the call rates of an integration (one call every few tens of milliseconds) much of its code
 * stays in the interpreter and baseline tiers for thousands of calls, and each call pays their
 * generic property look-ups. A budget of 4 KB gets the path of a call optimized within its first
 * few hundred calls: 17–22 % less CPU per call at concurrency 1 (BENCHMARKS.md, issue #41), at the
 * price of compiling a few more functions once. Functions are compiled lazily, on their first call,
 * so setting it before the first call covers the whole call path.
 */
import { setFlagsFromString } from 'node:v8';

/** Bytecode bytes a function runs before V8 considers optimizing it (V8's default: 67,584). */
export const interruptBudget = 4096;

/** Applies {@link interruptBudget}, unless the process was started with its own `--interrupt-budget`. */
export function tuneJit(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((a) => a.startsWith('--interrupt-budget'))) return;
  setFlagsFromString(`--interrupt-budget=${interruptBudget}`);
}
