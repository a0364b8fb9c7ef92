/**
 * What breaks next: the public methods Odoo 19.0 still answers but marks `@api.deprecated`
 * (`fixtures/odoo-data/_deprecations.json`, taken from the 19.0 source), with Odoo's own message.
 * They are the first to go in a later version; the migration report names each one a client calls.
 */
import { deprecationTable } from './deprecations.generated.ts';

/** One `@api.deprecated` declaration. */
export interface DeprecationEntry {
  /** `base` (the ORM itself: every model) or the model that declares the method or override. */
  model: string;
  /** The version Odoo deprecated it in (`19.0`), or null (an override of a deprecated method). */
  since: string | null;
  /** Odoo's own message. */
  message: string;
  /** Where in the 19.0 source tree. */
  source: string;
}

/** Method name → its declarations. */
export type DeprecationTable = Record<string, DeprecationEntry[]>;

/** The deprecated method names, for a quick look-up per call (metrics). */
export const deprecatedMethodNames: ReadonlySet<string> = new Set(Object.keys(deprecationTable));

/**
 * The deprecation that applies to `model.method`: the model's own declaration when it states a
 * version, else the ORM's (`base`); undefined when the method is not deprecated on that model
 * (`get_currencies` is deprecated on `ir.http` only).
 */
export function deprecationOf(
  model: string | undefined,
  method: string,
  table: DeprecationTable = deprecationTable,
): DeprecationEntry | undefined {
  if (!Object.hasOwn(table, method)) return undefined;
  const entries = table[method] ?? [];
  const own = entries.find((e) => e.model === model && e.since !== null);
  return own ?? entries.find((e) => e.model === 'base');
}
