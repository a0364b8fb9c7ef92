/**
 * CLI: `npx tsx test/conformance/run.ts [case-id-substring…]` runs the corpus against a fresh
 * simulator and gateway and prints the same report as the test suite. Exit status 1 when a case
 * fails.
 */
import { isFailure } from './classify.ts';
import { runSuite } from './suite.ts';

const filters = process.argv.slice(2);
const result = await runSuite(filters.length === 0 ? {} : { only: (c) => filters.some((f) => c.id.includes(f)) });
console.log(result.report);
process.exitCode = result.outcomes.some(isFailure) ? 1 : 0;
