/**
 * The `overrides` signature source: what the operator declared in `--signatures-file`. It is asked
 * first, so a declared signature wins over discovery and the built-in table (docs/architecture.md §4).
 */
import type { SignatureSource } from './resolver.ts';
import type { OverrideTable } from './validate-overrides.ts';

/** Creates the source over a validated table; the same signatures serve every database. */
export function createOverridesSource(table: OverrideTable): SignatureSource {
  return {
    name: 'overrides',
    lookup: async (_db, model, method) => table.get(model)?.get(method),
  };
}
